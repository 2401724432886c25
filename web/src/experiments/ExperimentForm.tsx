import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { Link, useNavigate, useParams } from 'react-router';
import { graphql } from '../gql';
import { useConsole } from '../Layout';
import { ErrorMessage, refusalOf, type Refusal } from '../errors';
import { FieldError, TextField } from '../fields';
import {
  emptyModel,
  exposureEventOf,
  filtersOf,
  flagVariantsOf,
  localProblems,
  metricOf,
  parametersOf,
  secondaryMetricsOf,
  secondaryOf,
  statusOf,
  variantSum,
  variantsOf,
  type ExperimentFormModel,
} from './experiment-model';
import { EVENT_NAMES_LIST, MetricEditor } from './MetricEditor';
import { Stored } from '../Stored';
import './experiments.css';

const ExperimentToEdit = graphql(`
  query ConsoleExperimentToEdit($projectId: ID!, $id: Int!) {
    experiment(projectId: $projectId, id: $id) {
      id
      name
      description
      startDate
      endDate
      parameters
      filters
      secondaryMetrics
      featureFlag {
        id
        key
        filters
      }
    }
  }
`);

const FlagChoices = graphql(`
  query ConsoleExperimentFlagChoices($projectId: ID!, $search: String) {
    featureFlags(projectId: $projectId, search: $search, limit: 20) {
      results {
        id
        key
        filters
      }
    }
  }
`);

const EventNames = graphql(`
  query ConsoleEventNames($projectId: ID!) {
    eventNames(projectId: $projectId, limit: 200)
  }
`);

const CreateExperiment = graphql(`
  mutation ConsoleCreateExperiment($projectId: ID!, $input: ExperimentCreateInput!) {
    createExperiment(projectId: $projectId, input: $input) {
      id
    }
  }
`);

const UpdateExperiment = graphql(`
  mutation ConsoleUpdateExperiment($projectId: ID!, $id: Int!, $input: ExperimentUpdateInput!) {
    updateExperiment(projectId: $projectId, id: $id, input: $input) {
      id
      name
      description
      parameters
      filters
      secondaryMetrics
    }
  }
`);

/** The API's `attr` for each part of the form (GraphQL refusals carry the REST attr). */
const ATTR = { name: 'name', description: 'description', flag: 'feature_flag_key', variants: 'parameters', filters: 'filters' };

/** Create (`/experiments/new`) or edit (`/experiments/:id/edit`) an experiment. */
export function ExperimentForm() {
  const { projectId, canRead } = useConsole();
  const { id } = useParams();
  const editing = id !== undefined;
  const navigate = useNavigate();
  const existing = useQuery(ExperimentToEdit, {
    variables: { projectId, id: Number(id) },
    skip: !editing,
    fetchPolicy: 'network-only',
  });
  const [model, setModel] = useState<ExperimentFormModel>(emptyModel);
  const [touched, setTouched] = useState(false);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const flagSearch = model.flagKey.trim();
  const flags = useQuery(FlagChoices, { variables: { projectId, search: flagSearch || null }, skip: editing });
  const names = useQuery(EventNames, { variables: { projectId }, skip: !canRead('query') });
  const [create, created] = useMutation(CreateExperiment);
  const [update, updated] = useMutation(UpdateExperiment);

  const stored = existing.data?.experiment;
  useEffect(() => {
    if (!stored) return;
    const variants = variantsOf(stored.parameters.feature_flag_variants);
    setModel({
      name: stored.name,
      description: stored.description ?? '',
      flagKey: stored.featureFlag.key,
      variants: variants.length ? variants : flagVariantsOf(stored.featureFlag.filters),
      primary: metricOf(stored.filters),
      secondary: secondaryOf(stored.secondaryMetrics),
      exposureEvent: exposureEventOf(stored.parameters),
    });
  }, [stored]);

  if (editing && existing.error) return <ErrorMessage error={existing.error} title="The experiment could not be loaded." />;
  if (editing && !stored) return <p className="loading">Loading…</p>;

  const launched = Boolean(stored?.startDate);
  // An existing flag with this key: the experiment takes it over, and its variants count (docs/experiments.md §3).
  const reused = editing ? null : (flags.data?.featureFlags.results.find((flag) => flag.key === flagSearch) ?? null);
  const variantsFixed = launched || reused !== null;
  const shownVariants = reused ? flagVariantsOf(reused.filters) : model.variants;
  const local = localProblems(model, !variantsFixed);
  const fieldProblem = (attr: string) => (touched ? local[attr] : undefined) ?? refusal?.fields[attr];
  const set = (changes: Partial<ExperimentFormModel>) => setModel((current) => ({ ...current, ...changes }));
  const setVariant = (index: number, changes: Partial<{ key: string; rollout: string }>) =>
    set({ variants: model.variants.map((v, i) => (i === index ? { ...v, ...changes } : v)) });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    setRefusal(null);
    if (Object.keys(local).length) {
      // Focus the first field with a problem, so a keyboard user lands on it.
      requestAnimationFrame(() => document.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    const base = (stored?.parameters ?? {}) as Record<string, unknown>;
    const common = {
      name: model.name.trim(),
      description: model.description.trim() || null,
      parameters: parametersOf(reused ? { ...model, variants: shownVariants } : model, base, !launched),
      filters: filtersOf(model.primary),
      secondaryMetrics: secondaryMetricsOf(model),
    };
    try {
      if (editing) {
        await update({ variables: { projectId, id: Number(id), input: common } });
        navigate(`/experiments/${id}?tab=Settings`);
      } else {
        const result = await create({ variables: { projectId, input: { ...common, featureFlagKey: model.flagKey.trim() } } });
        navigate(`/experiments/${result.data!.createExperiment.id}`);
      }
    } catch (failure) {
      setRefusal(refusalOf(failure));
    }
  };

  const eventNames = names.data?.eventNames ?? [];
  const secondaryProblem = (index: number) => (touched ? local[`secondary:${index}`] : undefined);

  return (
    <section aria-labelledby="form-title">
      <h1 id="form-title">
        {editing ? (
          <>
            Edit <Stored text={stored!.name} />
          </>
        ) : (
          'New experiment'
        )}
      </h1>
      <datalist id={EVENT_NAMES_LIST}>
        {eventNames.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      <form onSubmit={(event) => void submit(event)} noValidate>
        {refusal && refusal.general.length ? (
          <div role="alert" className="error">
            {refusal.general.join(' ')}
          </div>
        ) : null}
        {editing && launched ? (
          <p className="help">
            This experiment has started ({statusOf(stored!)}): its flag and variants are fixed. Changing a metric recomputes its results
            over the same window.
          </p>
        ) : null}
        <TextField
          id="experiment-name"
          label="Name"
          value={model.name}
          onChange={(name) => set({ name })}
          problem={fieldProblem(ATTR.name)}
          required
        />
        <div className="field">
          <label htmlFor="experiment-description">Description</label>
          <textarea
            id="experiment-description"
            rows={2}
            value={model.description}
            aria-invalid={refusal?.fields.description ? true : undefined}
            aria-describedby="experiment-description-error"
            onChange={(event) => set({ description: event.target.value })}
          />
          <FieldError id="experiment-description-error" message={refusal?.fields.description} />
        </div>

        <fieldset>
          <legend>Feature flag</legend>
          <div className="field">
            <label htmlFor="experiment-flag">Flag key</label>
            <input
              id="experiment-flag"
              list="experiment-flag-choices"
              value={model.flagKey}
              disabled={editing}
              aria-invalid={fieldProblem(ATTR.flag) ? true : undefined}
              aria-describedby="experiment-flag-help experiment-flag-error"
              onChange={(event) => set({ flagKey: event.target.value })}
            />
            <datalist id="experiment-flag-choices">
              {(flags.data?.featureFlags.results ?? []).map((flag) => (
                <option key={flag.id} value={flag.key} />
              ))}
            </datalist>
            <p id="experiment-flag-help" className="help">
              {editing ? (
                <>
                  The flag is fixed once the experiment exists: <Link to={`/feature-flags/${stored!.featureFlag.id}`}>{model.flagKey}</Link>
                  .
                </>
              ) : reused ? (
                `Uses the existing flag ${reused.key}: its own variants split persons. It must be multivariate with control first.`
              ) : flagSearch ? (
                `A new flag ${flagSearch} will be created with the variants below, off until the experiment is launched.`
              ) : (
                'Pick an existing multivariate flag, or type a new key to create one with the variants below.'
              )}
            </p>
            <FieldError id="experiment-flag-error" message={fieldProblem(ATTR.flag)} />
          </div>
        </fieldset>

        <fieldset aria-describedby="variants-status">
          <legend>Variants</legend>
          {shownVariants.map((variant, vi) => (
            <div key={vi} className="variant" role="group" aria-label={`Variant ${vi + 1}`}>
              <label>
                Variant key{' '}
                <input value={variant.key} disabled={variantsFixed} onChange={(event) => setVariant(vi, { key: event.target.value })} />
              </label>
              <label>
                Split (%){' '}
                <input
                  type="number"
                  min={0}
                  max={100}
                  value={variant.rollout}
                  disabled={variantsFixed}
                  onChange={(event) => setVariant(vi, { rollout: event.target.value })}
                />
              </label>
              {!variantsFixed && model.variants.length > 2 ? (
                <button type="button" onClick={() => set({ variants: model.variants.filter((_, i) => i !== vi) })}>
                  Remove variant {vi + 1}
                </button>
              ) : null}
            </div>
          ))}
          {!variantsFixed ? (
            <button type="button" onClick={() => set({ variants: [...model.variants, { key: '', rollout: '0' }] })}>
              Add variant
            </button>
          ) : null}
          <p id="variants-status" className={fieldProblem(ATTR.variants) ? 'field-error' : 'help'} aria-live="polite">
            {variantsFixed
              ? launched
                ? 'The variants of a launched experiment cannot change.'
                : "The flag's own variants are used."
              : (fieldProblem(ATTR.variants) ??
                `Variant rollouts sum to ${variantSum(model.variants)}${variantSum(model.variants) === 100 ? '.' : ' — they must sum to 100.'} One key must be "control".`)}
          </p>
        </fieldset>

        <fieldset>
          <legend>Primary metric</legend>
          <MetricEditor id="primary" metric={model.primary} onChange={(primary) => set({ primary })} problem={fieldProblem(ATTR.filters)} />
        </fieldset>

        <fieldset>
          <legend>Secondary metrics</legend>
          {model.secondary.length === 0 ? <p className="help">None: add metrics you want to watch without deciding on them.</p> : null}
          {model.secondary.map((metric, index) => (
            <fieldset key={index} className="secondary-metric">
              <legend>Secondary metric {index + 1}</legend>
              <div className="field">
                <label htmlFor={`secondary-${index}-name`}>Metric name</label>
                <input
                  id={`secondary-${index}-name`}
                  value={metric.name}
                  aria-invalid={secondaryProblem(index) && !metric.name.trim() ? true : undefined}
                  aria-describedby={`secondary-${index}-error`}
                  onChange={(event) =>
                    set({ secondary: model.secondary.map((m, i) => (i === index ? { ...m, name: event.target.value } : m)) })
                  }
                />
              </div>
              <MetricEditor
                id={`secondary-${index}`}
                metric={metric}
                onChange={(changed) => set({ secondary: model.secondary.map((m, i) => (i === index ? { ...changed, name: m.name } : m)) })}
                problem={secondaryProblem(index)}
              />
              <button type="button" onClick={() => set({ secondary: model.secondary.filter((_, i) => i !== index) })}>
                Remove secondary metric {index + 1}
              </button>
            </fieldset>
          ))}
          <FieldError id="secondary-metrics-error" message={refusal?.fields.secondary_metrics} />
          <button type="button" onClick={() => set({ secondary: [...model.secondary, { name: '', kind: 'trend', events: [''] }] })}>
            Add secondary metric
          </button>
        </fieldset>

        <fieldset>
          <legend>Exposure</legend>
          <div className="field">
            <label htmlFor="experiment-exposure">Custom exposure event</label>
            <input
              id="experiment-exposure"
              list={EVENT_NAMES_LIST}
              value={model.exposureEvent}
              aria-describedby="experiment-exposure-help"
              onChange={(event) => set({ exposureEvent: event.target.value })}
            />
            <p id="experiment-exposure-help" className="help">
              Empty: a person is exposed when an SDK evaluates the flag for them (<code>$feature_flag_called</code>). Otherwise: when they
              send this event with the flag's value. Trend metrics divide by the exposed persons.
            </p>
          </div>
        </fieldset>

        <div className="experiment-actions">
          <button type="submit" disabled={created.loading || updated.loading}>
            {editing ? 'Save' : 'Create experiment'}
          </button>
          <button type="button" onClick={() => navigate(editing ? `/experiments/${id}` : '/experiments')}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
