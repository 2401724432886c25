import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { useNavigate, useParams } from 'react-router';
import { graphql } from '../gql';
import { useConsole } from '../Layout';
import { ErrorMessage, refusalOf, type Refusal } from '../errors';
import { FieldError, TextField } from '../fields';
import { ConditionsEditor } from './ConditionsEditor';
import { emptyModel, filtersOf, localProblems, modelOf, tagsOf, variantSum, type FlagFormModel } from './filters-model';

const FlagToEdit = graphql(`
  query ConsoleFlagToEdit($projectId: ID!, $id: Int!) {
    featureFlag(projectId: $projectId, id: $id) {
      id
      key
      name
      filters
      tags
      version
      ensureExperienceContinuity
    }
    groupTypes(projectId: $projectId) {
      groupType
      groupTypeIndex
    }
  }
`);

const GroupTypes = graphql(`
  query ConsoleGroupTypes($projectId: ID!) {
    groupTypes(projectId: $projectId) {
      groupType
      groupTypeIndex
    }
  }
`);

const CreateFlag = graphql(`
  mutation ConsoleCreateFlag($projectId: ID!, $input: FeatureFlagCreateInput!) {
    createFeatureFlag(projectId: $projectId, input: $input) {
      id
    }
  }
`);

const UpdateFlag = graphql(`
  mutation ConsoleUpdateFlag($projectId: ID!, $id: Int!, $input: FeatureFlagUpdateInput!) {
    updateFeatureFlag(projectId: $projectId, id: $id, input: $input) {
      id
      version
    }
  }
`);

/** Create (`/feature-flags/new`) or edit (`/feature-flags/:id/edit`) a flag. */
export function FlagForm() {
  const { projectId } = useConsole();
  const { id } = useParams();
  const editing = id !== undefined;
  const navigate = useNavigate();
  const existing = useQuery(FlagToEdit, { variables: { projectId, id: Number(id) }, skip: !editing, fetchPolicy: 'network-only' });
  const groupTypes = useQuery(GroupTypes, { variables: { projectId }, skip: editing });
  const [model, setModel] = useState<FlagFormModel>(emptyModel);
  const [version, setVersion] = useState<number | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [create, created] = useMutation(CreateFlag);
  const [update, updated] = useMutation(UpdateFlag);

  useEffect(() => {
    const flag = existing.data?.featureFlag;
    if (flag) {
      setModel(modelOf(flag));
      setVersion(flag.version);
    }
  }, [existing.data]);

  if (editing && existing.error) return <ErrorMessage error={existing.error} title="The flag could not be loaded." />;
  if (editing && !existing.data) return <p className="loading">Loading…</p>;
  const types = (editing ? existing.data?.groupTypes : groupTypes.data?.groupTypes) ?? [];

  const local = localProblems(model);
  const fieldProblem = (attr: string) => local[attr] ?? refusal?.fields[attr];
  const set = (changes: Partial<FlagFormModel>) => setModel((current) => ({ ...current, ...changes }));
  const payloadValues = model.variants.length ? model.variants.map((v) => v.key).filter(Boolean) : ['true'];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setRefusal(null);
    if (Object.keys(local).length) return;
    const input = {
      key: model.key.trim(),
      name: model.name,
      filters: filtersOf(model),
      tags: tagsOf(model),
      ensureExperienceContinuity: model.persist,
    };
    try {
      if (editing) {
        await update({ variables: { projectId, id: Number(id), input: { ...input, version } } });
        navigate(`/feature-flags/${id}`);
      } else {
        const result = await create({ variables: { projectId, input } });
        navigate(`/feature-flags/${result.data!.createFeatureFlag.id}`);
      }
    } catch (failure) {
      const refused = refusalOf(failure);
      if (refused.code === 'CONFLICT') refused.general = ['Changed by someone else since you opened it — reload to see their change.'];
      setRefusal(refused);
    }
  };

  return (
    <section aria-labelledby="form-title">
      <h1 id="form-title">{editing ? `Edit ${model.key}` : 'New feature flag'}</h1>
      <form onSubmit={(event) => void submit(event)} noValidate>
        {refusal && refusal.general.length ? (
          <div role="alert" className="error">
            {refusal.general.join(' ')}
          </div>
        ) : null}
        <TextField id="flag-key" label="Key" value={model.key} onChange={(key) => set({ key })} problem={fieldProblem('key')} required />
        <TextField id="flag-name" label="Name" value={model.name} onChange={(name) => set({ name })} problem={fieldProblem('name')} />
        <div className="field">
          <label htmlFor="flag-aggregation">Match by</label>
          <select
            id="flag-aggregation"
            value={model.groupTypeIndex === null ? '' : String(model.groupTypeIndex)}
            onChange={(event) => set({ groupTypeIndex: event.target.value === '' ? null : Number(event.target.value) })}
          >
            <option value="">Persons</option>
            {types.map((type) => (
              <option key={type.groupTypeIndex} value={type.groupTypeIndex}>
                Groups: {type.groupType}
              </option>
            ))}
          </select>
        </div>

        <ConditionsEditor conditions={model.conditions} onChange={(conditions) => set({ conditions })} problem={fieldProblem('filters')} />

        <fieldset aria-describedby="variants-status">
          <legend>Variants</legend>
          {model.variants.map((variant, vi) => (
            <div key={vi} className="variant" role="group" aria-label={`Variant ${vi + 1}`}>
              <label>
                Variant key{' '}
                <input
                  value={variant.key}
                  onChange={(event) => set({ variants: model.variants.map((v, i) => (i === vi ? { ...v, key: event.target.value } : v)) })}
                />
              </label>
              <label>
                Variant rollout{' '}
                <input
                  type="number"
                  min={0}
                  max={100}
                  value={variant.rollout}
                  onChange={(event) =>
                    set({ variants: model.variants.map((v, i) => (i === vi ? { ...v, rollout: event.target.value } : v)) })
                  }
                />
              </label>
              <button type="button" onClick={() => set({ variants: model.variants.filter((_, i) => i !== vi) })}>
                Remove variant {vi + 1}
              </button>
            </div>
          ))}
          <button type="button" onClick={() => set({ variants: [...model.variants, { key: '', name: '', rollout: '0' }] })}>
            Add variant
          </button>
          <p id="variants-status" className={local.variants ? 'field-error' : 'help'} aria-live="polite">
            {model.variants.length === 0
              ? 'No variants: the flag is on or off.'
              : (local.variants ?? `Variant rollouts sum to ${variantSum(model.variants)}.`)}
          </p>
        </fieldset>

        <fieldset>
          <legend>Payloads</legend>
          {payloadValues.map((value) => (
            <div key={value} className="field">
              <label htmlFor={`payload-${value}`}>Payload for {value}</label>
              <textarea
                id={`payload-${value}`}
                rows={2}
                value={model.payloads[value] ?? ''}
                aria-invalid={local[`payload:${value}`] ? true : undefined}
                aria-describedby={`payload-${value}-error`}
                onChange={(event) => set({ payloads: { ...model.payloads, [value]: event.target.value } })}
              />
              <FieldError id={`payload-${value}-error`} message={local[`payload:${value}`]} />
            </div>
          ))}
        </fieldset>

        <TextField
          id="flag-tags"
          label="Tags"
          value={model.tags}
          onChange={(tags) => set({ tags })}
          problem={fieldProblem('tags')}
          help="Separated by commas."
        />
        <div className="field checkbox">
          <input id="flag-persist" type="checkbox" checked={model.persist} onChange={(event) => set({ persist: event.target.checked })} />
          <label htmlFor="flag-persist">Persist across authentication</label>
        </div>
        <button type="submit" disabled={created.loading || updated.loading}>
          Save
        </button>
      </form>
    </section>
  );
}
