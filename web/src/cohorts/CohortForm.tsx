import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { useNavigate, useParams } from 'react-router';
import { graphql } from '../gql';
import { useConsole } from '../Layout';
import { ErrorMessage, refusalOf, type Refusal } from '../errors';
import { FieldError, TextField } from '../fields';
import { GroupEditor } from './GroupEditor';
import { AddMembers, CHOICES_LIMIT, CohortChoices } from './queries';
import {
  MAX_DISTINCT_IDS,
  distinctIdsOf,
  emptyGroup,
  groupOf,
  groupProblems,
  pasteProblem,
  propertiesOf,
  type Group,
} from './cohort-model';
import { Stored } from '../Stored';
import './cohorts.css';

const CohortToEdit = graphql(`
  query ConsoleCohortToEdit($projectId: ID!, $id: Int!) {
    cohort(projectId: $projectId, id: $id) {
      id
      name
      description
      filters
      isStatic
      deleted
    }
  }
`);

const CreateCohort = graphql(`
  mutation ConsoleCreateCohort($projectId: ID!, $input: CohortCreateInput!) {
    createCohort(projectId: $projectId, input: $input) {
      id
    }
  }
`);

const UpdateCohort = graphql(`
  mutation ConsoleUpdateCohort($projectId: ID!, $id: Int!, $input: CohortUpdateInput!) {
    updateCohort(projectId: $projectId, id: $id, input: $input) {
      id
      name
      description
      filters
      count
    }
  }
`);

/** Create (`/cohorts/new`) or edit (`/cohorts/:id/edit`) a cohort: static (pasted ids) or dynamic (a property group). */
export function CohortForm() {
  const { projectId } = useConsole();
  const { id } = useParams();
  const editing = id !== undefined;
  const navigate = useNavigate();
  const existing = useQuery(CohortToEdit, { variables: { projectId, id: Number(id) }, skip: !editing, fetchPolicy: 'network-only' });
  const choices = useQuery(CohortChoices, { variables: { projectId, limit: CHOICES_LIMIT }, fetchPolicy: 'network-only' });
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [isStatic, setIsStatic] = useState(false);
  const [group, setGroup] = useState<Group>(() => emptyGroup());
  const [pasted, setPasted] = useState('');
  const [tried, setTried] = useState(false);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [create, created] = useMutation(CreateCohort, { update: (cache) => void cache.evict({ fieldName: 'cohorts' }) });
  const [update, updated] = useMutation(UpdateCohort);
  const [addMembers, adding] = useMutation(AddMembers);

  useEffect(() => {
    const cohort = existing.data?.cohort;
    if (cohort) {
      setName(cohort.name);
      setDescription(cohort.description);
      setIsStatic(cohort.isStatic);
      setGroup(groupOf(cohort.filters));
    }
  }, [existing.data]);

  if (editing && existing.error) return <ErrorMessage error={existing.error} title="The cohort could not be loaded." />;
  if (editing && !existing.data) return <p className="loading">Loading…</p>;

  const cohorts = (choices.data?.cohorts.results ?? []).filter((c) => String(c.id) !== id);
  const ids = distinctIdsOf(pasted);
  const local: Record<string, string | undefined> = {
    name: name.trim() ? undefined : 'A name is required.',
    filters: isStatic ? undefined : groupProblems(group).join(' ') || undefined,
    distinct_ids: isStatic && !editing ? pasteProblem(ids, false) : undefined,
  };
  // Checked as you type once a save was tried, and always for the paste's size.
  const problem = (attr: string) => (tried || attr === 'distinct_ids' ? local[attr] : undefined) ?? refusal?.fields[attr];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    setRefusal(null);
    if (Object.values(local).some(Boolean)) return;
    const filters = isStatic ? null : { properties: propertiesOf(group) };
    try {
      if (editing) {
        await update({
          variables: { projectId, id: Number(id), input: { name: name.trim(), description, ...(isStatic ? {} : { filters }) } },
        });
        navigate(`/cohorts/${id}`);
        return;
      }
      const result = await create({ variables: { projectId, input: { name: name.trim(), description, isStatic, filters } } });
      const newId = result.data!.createCohort.id;
      if (isStatic && ids.length) {
        try {
          await addMembers({ variables: { projectId, id: newId, distinctIds: ids } });
        } catch (failure) {
          const why = [...refusalOf(failure).general, ...Object.values(refusalOf(failure).fields)].join(' ');
          navigate(`/cohorts/${newId}`, { state: { problem: `The cohort was created, but its members were not added: ${why}` } });
          return;
        }
      }
      navigate(`/cohorts/${newId}`);
    } catch (failure) {
      setRefusal(refusalOf(failure));
    }
  };

  const kindProblem = problem('is_static');
  const filtersProblem = problem('filters');
  const idsProblem = problem('distinct_ids');
  return (
    <section aria-labelledby="form-title" className="cohort-form">
      <h1 id="form-title">
        {editing ? (
          <>
            Edit <Stored text={existing.data?.cohort.name ?? 'cohort'} />
          </>
        ) : (
          'New cohort'
        )}
      </h1>
      {existing.data?.cohort.deleted ? <p className="help">This cohort is deleted: flags that name it treat it as empty.</p> : null}
      <form onSubmit={(event) => void submit(event)} noValidate>
        {refusal && refusal.general.length ? (
          <div role="alert" className="error">
            {refusal.general.join(' ')}
          </div>
        ) : null}
        <TextField
          id="cohort-name"
          label="Name"
          value={name}
          onChange={setName}
          problem={problem('name')}
          required
          help="Up to 400 characters."
        />
        <div className="field">
          <label htmlFor="cohort-description">Description</label>
          <textarea
            id="cohort-description"
            rows={2}
            value={description}
            aria-invalid={problem('description') ? true : undefined}
            aria-describedby="cohort-description-error"
            onChange={(event) => setDescription(event.target.value)}
          />
          <FieldError id="cohort-description-error" message={problem('description')} />
        </div>
        {editing ? (
          <p>
            Kind: <strong>{isStatic ? 'static' : 'dynamic'}</strong> <span className="help">(fixed when the cohort was created)</span>
          </p>
        ) : (
          <fieldset aria-describedby="cohort-kind-error">
            <legend>Kind</legend>
            <div className="field checkbox">
              <input id="kind-dynamic" type="radio" name="kind" checked={!isStatic} onChange={() => setIsStatic(false)} />
              <label htmlFor="kind-dynamic">Dynamic: persons whose properties match conditions</label>
            </div>
            <div className="field checkbox">
              <input id="kind-static" type="radio" name="kind" checked={isStatic} onChange={() => setIsStatic(true)} />
              <label htmlFor="kind-static">Static: a list of distinct ids</label>
            </div>
            <p className="help">The kind cannot be changed after the cohort is created.</p>
            <FieldError id="cohort-kind-error" message={kindProblem} />
          </fieldset>
        )}
        {isStatic ? (
          editing ? (
            <p className="help">Add members on the cohort&apos;s page; members cannot be removed.</p>
          ) : (
            <div className="field">
              <label htmlFor="cohort-ids">Distinct ids</label>
              <textarea
                id="cohort-ids"
                rows={6}
                value={pasted}
                aria-invalid={idsProblem ? true : undefined}
                aria-describedby="cohort-ids-help cohort-ids-error"
                onChange={(event) => setPasted(event.target.value)}
              />
              <p id="cohort-ids-help" className="help">
                One per line or separated by commas, at most {MAX_DISTINCT_IDS.toLocaleString('en')} at once (
                {ids.length.toLocaleString('en')} now). Ids nobody has sent events for yet are skipped. Optional: you can add members later.
              </p>
              <FieldError id="cohort-ids-error" message={idsProblem} />
            </div>
          )
        ) : (
          <div className="cohort-definition" role="group" aria-labelledby="cohort-definition-title" aria-describedby="cohort-filters-error">
            <h2 id="cohort-definition-title">Definition</h2>
            <p className="help">
              Persons whose properties match. Groups combine their conditions with all (AND) or any (OR) and nest up to three levels; a
              condition can also be membership of another cohort. Tick &ldquo;Not&rdquo; to turn a condition around.
            </p>
            <FieldError id="cohort-filters-error" message={filtersProblem} />
            <GroupEditor
              group={group}
              onChange={setGroup}
              cohorts={cohorts.map((c) => ({ id: c.id, name: c.name, isStatic: c.isStatic }))}
            />
          </div>
        )}
        <button type="submit" disabled={created.loading || updated.loading || adding.loading}>
          Save
        </button>{' '}
        <button type="button" onClick={() => navigate(editing ? `/cohorts/${id}` : '/cohorts')}>
          Cancel
        </button>
      </form>
    </section>
  );
}
