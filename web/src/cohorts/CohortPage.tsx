import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { graphql } from '../gql';
import { useConsole } from '../Layout';
import { ErrorMessage, refusalOf } from '../errors';
import { FieldError } from '../fields';
import { AddMembers, CHOICES_LIMIT, CohortChoices } from './queries';
import { MAX_DISTINCT_IDS, definitionInWords, distinctIdsOf, pasteProblem, type WordsNode } from './cohort-model';
import { Stored } from '../Stored';
import './cohorts.css';

const CohortQuery = graphql(`
  query ConsoleCohort($projectId: ID!, $id: Int!) {
    cohort(projectId: $projectId, id: $id) {
      id
      name
      description
      filters
      isStatic
      deleted
      count
      createdAt
      createdBy {
        id
        email
      }
    }
  }
`);

const SetDeleted = graphql(`
  mutation ConsoleSetCohortDeleted($projectId: ID!, $id: Int!, $deleted: Boolean!) {
    updateCohort(projectId: $projectId, id: $id, input: { deleted: $deleted }) {
      id
      deleted
      count
    }
  }
`);

function Words({ node }: { node: WordsNode }) {
  if (!node.children) return <>{node.text}</>;
  return (
    <>
      {node.text}
      <ul>
        {node.children.map((child, index) => (
          <li key={index}>
            <Words node={child} />
          </li>
        ))}
      </ul>
    </>
  );
}

/** One cohort: what it is, how many persons it holds, its definition in words; add members, edit, delete. */
export function CohortPage() {
  const { projectId, canWrite } = useConsole();
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const location = useLocation();
  const carried = (location.state as { problem?: string } | null)?.problem;
  const { data, error } = useQuery(CohortQuery, { variables: { projectId, id }, fetchPolicy: 'cache-and-network' });
  const choices = useQuery(CohortChoices, { variables: { projectId, limit: CHOICES_LIMIT } });
  // The list (and the reference picker) change with a delete or restore: drop them from the cache, not show them stale.
  const [setDeleted, deleting] = useMutation(SetDeleted, { update: (cache) => void cache.evict({ fieldName: 'cohorts' }) });
  const [confirming, setConfirming] = useState(false);

  if (error && !data) return <ErrorMessage error={error} title="The cohort could not be loaded." />;
  if (!data) return <p className="loading">Loading…</p>;
  const cohort = data.cohort;
  const writable = canWrite('cohort');
  const names = new Map((choices.data?.cohorts.results ?? []).map((c) => [c.id, c.name]));

  return (
    <section aria-labelledby="cohort-title" className="cohort-page">
      <div className="page-head">
        <h1 id="cohort-title">{cohort.name}</h1>
        <span className="badge off">{cohort.isStatic ? 'Static' : 'Dynamic'}</span>
        {cohort.deleted ? <span className="badge deleted">Deleted</span> : null}
        {writable && !cohort.deleted ? (
          <>
            <button type="button" onClick={() => navigate(`/cohorts/${cohort.id}/edit`)}>
              Edit
            </button>
            <button type="button" onClick={() => setConfirming(true)}>
              Delete
            </button>
          </>
        ) : null}
        {writable && cohort.deleted ? (
          <button
            type="button"
            disabled={deleting.loading}
            onClick={() => void setDeleted({ variables: { projectId, id, deleted: false } }).catch(() => undefined)}
          >
            Restore
          </button>
        ) : null}
      </div>
      {carried ? (
        <div role="alert" className="error">
          {carried}
        </div>
      ) : null}
      {cohort.deleted ? (
        <p role="note" className="deleted-note">
          This cohort is deleted: flags that still name it treat it as empty (no one is in it).
        </p>
      ) : null}
      {confirming ? (
        <div role="alertdialog" aria-labelledby="confirm-delete" className="confirm">
          <p id="confirm-delete">
            Delete <Stored text={cohort.name} />? Flags that still name it will treat it as empty: its persons stop matching them. It can be
            restored.
          </p>
          <button
            type="button"
            disabled={deleting.loading}
            onClick={() =>
              void setDeleted({ variables: { projectId, id, deleted: true } })
                .then(() => navigate('/cohorts'))
                .catch(() => undefined)
            }
          >
            Delete <Stored text={cohort.name} />
          </button>{' '}
          <button type="button" onClick={() => setConfirming(false)}>
            Cancel
          </button>
          <ErrorMessage error={deleting.error} title="Not deleted." />
        </div>
      ) : null}
      {!confirming ? <ErrorMessage error={deleting.error} /> : null}
      {cohort.description ? <p>{cohort.description}</p> : null}
      <dl className="cohort-facts">
        <dt>Persons</dt>
        <dd>
          {cohort.count === null
            ? '— not counted: it (or a cohort it refers to) filters on events, which are stored but not evaluated'
            : cohort.count.toLocaleString()}
        </dd>
        <dt>Kind</dt>
        <dd>{cohort.isStatic ? 'Static: members added by distinct id' : 'Dynamic: persons whose properties match'}</dd>
        <dt>Created</dt>
        <dd>
          {new Date(cohort.createdAt).toLocaleString()}
          {cohort.createdBy ? ` by ${cohort.createdBy.email}` : ''}
        </dd>
        <dt>Id</dt>
        <dd>
          {cohort.id} <span className="help">(the value of a flag condition on this cohort)</span>
        </dd>
      </dl>
      {cohort.isStatic ? (
        writable && !cohort.deleted ? (
          <AddMembersForm cohortId={cohort.id} />
        ) : null
      ) : (
        <>
          <h2>Definition</h2>
          <div className="cohort-words">
            Persons matching <Words node={definitionInWords(cohort.filters, names)} />
          </div>
        </>
      )}
    </section>
  );
}

function AddMembersForm({ cohortId }: { cohortId: number }) {
  const { projectId } = useConsole();
  const [pasted, setPasted] = useState('');
  const [tried, setTried] = useState(false);
  const [result, setResult] = useState<string | null>(null);
  const [add, adding] = useMutation(AddMembers);
  const [refused, setRefused] = useState<string | null>(null);
  const ids = distinctIdsOf(pasted);
  const local = pasteProblem(ids, true);
  const problem = (tried || ids.length > MAX_DISTINCT_IDS ? local : undefined) ?? refused ?? undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    setRefused(null);
    setResult(null);
    if (local) return;
    try {
      const answer = await add({ variables: { projectId, id: cohortId, distinctIds: ids } });
      setResult(
        `Added ${ids.length.toLocaleString()} distinct ${ids.length === 1 ? 'id' : 'ids'} (unknown ones are skipped); the cohort now holds ${answer.data?.addCohortMembers.count?.toLocaleString() ?? 'an unknown number of'} persons.`,
      );
      setPasted('');
      setTried(false);
    } catch (failure) {
      const refusal = refusalOf(failure);
      setRefused([...refusal.general, ...Object.values(refusal.fields)].join(' '));
    }
  };

  return (
    <form className="add-members" aria-labelledby="add-members-title" onSubmit={(event) => void submit(event)} noValidate>
      <h2 id="add-members-title">Add members</h2>
      <div className="field">
        <label htmlFor="members-ids">Distinct ids to add</label>
        <textarea
          id="members-ids"
          rows={5}
          value={pasted}
          aria-invalid={problem ? true : undefined}
          aria-describedby="members-ids-help members-ids-error"
          onChange={(event) => setPasted(event.target.value)}
        />
        <p id="members-ids-help" className="help">
          One per line or separated by commas, at most {MAX_DISTINCT_IDS.toLocaleString('en')} at once. Ids nobody has sent events for yet
          are skipped; members cannot be removed.
        </p>
        <FieldError id="members-ids-error" message={problem} />
      </div>
      <button type="submit" disabled={adding.loading}>
        Add members
      </button>
      <p role="status" className="help">
        {result}
      </p>
    </form>
  );
}
