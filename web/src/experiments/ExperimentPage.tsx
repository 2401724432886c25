import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { graphql } from '../gql';
import { useConsole } from '../Layout';
import { ErrorMessage, refusalOf } from '../errors';
import { Tabs } from '../Tabs';
import { ExperimentResults } from './ExperimentResults';
import { ExperimentHistory } from './ExperimentHistory';
import { ExperimentSettings } from './ExperimentSettings';
import { statusOf, when } from './experiment-model';
import { Stored } from '../Stored';
import './experiments.css';

const TABS = ['Results', 'Settings', 'History'];

const ExperimentQuery = graphql(`
  query ConsoleExperiment($projectId: ID!, $id: Int!) {
    experiment(projectId: $projectId, id: $id) {
      id
      name
      description
      startDate
      endDate
      archived
      parameters
      filters
      secondaryMetrics
      createdAt
      createdBy {
        email
      }
      featureFlag {
        id
        key
        active
        deleted
        filters
      }
    }
  }
`);

const UpdateLifecycle = graphql(`
  mutation ConsoleExperimentLifecycle($projectId: ID!, $id: Int!, $input: ExperimentUpdateInput!) {
    updateExperiment(projectId: $projectId, id: $id, input: $input) {
      id
      startDate
      endDate
      archived
      featureFlag {
        id
        active
      }
    }
  }
`);

const DeleteExperiment = graphql(`
  mutation ConsoleDeleteExperiment($projectId: ID!, $id: Int!) {
    deleteExperiment(projectId: $projectId, id: $id)
  }
`);

type Action = 'launch' | 'stop' | 'archive' | 'unarchive' | 'delete';

/** One experiment: its state and lifecycle actions, its results (by default) and its settings in words. */
export function ExperimentPage() {
  const { projectId, canWrite } = useConsole();
  const id = Number(useParams().id);
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const tab = TABS.includes(params.get('tab') ?? '') ? params.get('tab')! : 'Results';
  const { data, error } = useQuery(ExperimentQuery, { variables: { projectId, id } });
  const [change, changing] = useMutation(UpdateLifecycle);
  const [remove, removing] = useMutation(DeleteExperiment);
  const [confirming, setConfirming] = useState<Action | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  if (error && !data) {
    const refusal = refusalOf(error);
    if (refusal.code === 'NOT_FOUND')
      return (
        <section aria-labelledby="experiment-title">
          <h1 id="experiment-title">Experiment not found</h1>
          <p>
            No experiment {Number.isFinite(id) ? id : ''} in this project: it may have been deleted.{' '}
            <Link to="/experiments">All experiments</Link>
          </p>
        </section>
      );
    return <ErrorMessage error={error} title="The experiment could not be loaded." />;
  }
  if (!data) return <p className="loading">Loading…</p>;
  const experiment = data.experiment;
  const state = statusOf(experiment);
  const editable = canWrite('experiment');

  // The stored name is isolated (Stored): a right-to-left override in it cannot reorder the question.
  const name = <Stored text={experiment.name} />;
  const questions: Record<Action, { text: ReactNode; button: string }> = {
    launch: {
      text: (
        <>
          Launch {name}? It starts now and switches its flag {experiment.featureFlag.key} on, so SDKs start splitting persons into variants.
        </>
      ),
      button: 'Confirm launch',
    },
    stop: {
      text: <>Stop {name}? It ends now; results keep what was measured until now. The flag stays as it is.</>,
      button: 'Confirm stop',
    },
    archive: {
      text: <>Archive {name}? It leaves the experiment list (the Archived filter shows it); nothing else changes.</>,
      button: 'Confirm archive',
    },
    unarchive: { text: <>Unarchive {name}? It returns to the experiment list.</>, button: 'Confirm unarchive' },
    delete: {
      text: (
        <>
          Delete {name} for good? Its flag {experiment.featureFlag.key} is soft-deleted too unless another experiment uses it.
        </>
      ),
      button: 'Confirm delete',
    },
  };

  const act = async (action: Action) => {
    setProblem(null);
    try {
      if (action === 'delete') {
        await remove({ variables: { projectId, id } });
        navigate('/experiments');
        return;
      }
      const now = new Date().toISOString();
      const input = action === 'launch' ? { startDate: now } : action === 'stop' ? { endDate: now } : { archived: action === 'archive' };
      await change({ variables: { projectId, id, input } });
      setConfirming(null);
      setDone(
        action === 'launch'
          ? `Launched: ${experiment.featureFlag.key} is on.`
          : action === 'stop'
            ? 'Stopped.'
            : action === 'archive'
              ? 'Archived.'
              : 'Unarchived.',
      );
    } catch (failure) {
      const refusal = refusalOf(failure);
      setProblem([...refusal.general, ...Object.values(refusal.fields)].join(' '));
    }
  };

  return (
    <section aria-labelledby="experiment-title">
      <div className="page-head">
        <h1 id="experiment-title">{experiment.name}</h1>
        <span className={`status status-${state}`}>{state}</span>
        {experiment.archived ? <span className="badge off">archived</span> : null}
      </div>
      {experiment.description ? <p>{experiment.description}</p> : null}
      <dl className="experiment-facts">
        <dt>Flag</dt>
        <dd>
          <Link to={`/feature-flags/${experiment.featureFlag.id}`}>{experiment.featureFlag.key}</Link>{' '}
          {experiment.featureFlag.deleted ? '(deleted)' : experiment.featureFlag.active ? '(active)' : '(inactive)'}
        </dd>
        <dt>Start</dt>
        <dd>{experiment.startDate ? when(experiment.startDate) : 'Not started'}</dd>
        <dt>End</dt>
        <dd>{experiment.endDate ? when(experiment.endDate) : state === 'running' ? 'Running' : '—'}</dd>
        <dt>Created</dt>
        <dd>
          {when(experiment.createdAt)}
          {experiment.createdBy ? ` by ${experiment.createdBy.email}` : ''}
        </dd>
      </dl>
      {editable ? (
        <div className="experiment-actions" role="group" aria-label="Actions">
          {state === 'draft' ? <ActionButton action="launch" label="Launch" onAsk={setConfirming} open={confirming} /> : null}
          {state === 'running' ? <ActionButton action="stop" label="Stop" onAsk={setConfirming} open={confirming} /> : null}
          <button type="button" onClick={() => navigate(`/experiments/${id}/edit`)}>
            Edit
          </button>
          {experiment.archived ? (
            <ActionButton action="unarchive" label="Unarchive" onAsk={setConfirming} open={confirming} />
          ) : (
            <ActionButton action="archive" label="Archive" onAsk={setConfirming} open={confirming} />
          )}
          {/* Only a draft may be deleted here: a launched experiment's results are kept; archive it instead. */}
          {state === 'draft' ? <ActionButton action="delete" label="Delete" onAsk={setConfirming} open={confirming} /> : null}
        </div>
      ) : null}
      {confirming ? (
        <Confirm
          text={questions[confirming].text}
          button={questions[confirming].button}
          busy={changing.loading || removing.loading}
          onConfirm={() => void act(confirming)}
          onCancel={() => {
            setConfirming(null);
            setProblem(null);
          }}
          problem={problem}
          returnFocusTo={`action-${confirming}`}
        />
      ) : null}
      {done && !confirming ? (
        // Not role=status: the results' verdict is the page's status.
        <p className="help" aria-live="polite">
          {done}
        </p>
      ) : null}
      <Tabs label="Experiment" tabs={TABS} selected={tab} onSelect={(next) => setParams(next === 'Results' ? {} : { tab: next })}>
        {tab === 'Results' ? <ExperimentResults experimentId={experiment.id} /> : null}
        {tab === 'Settings' ? <ExperimentSettings experiment={experiment} /> : null}
        {tab === 'History' ? <ExperimentHistory experimentId={experiment.id} /> : null}
      </Tabs>
    </section>
  );
}

function ActionButton({ action, label, onAsk, open }: { action: Action; label: string; onAsk: (a: Action) => void; open: Action | null }) {
  return (
    <button type="button" id={`action-${action}`} aria-expanded={open === action} onClick={() => onAsk(action)}>
      {label}
    </button>
  );
}

/**
 * "Are you sure": the question, Confirm and Cancel. Focus moves to Confirm when it opens and back to
 * the button that asked when it is cancelled; Escape cancels.
 */
function Confirm({
  text,
  button,
  busy,
  onConfirm,
  onCancel,
  problem,
  returnFocusTo,
}: {
  returnFocusTo: string;
  text: ReactNode;
  button: string;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  problem: string | null;
}) {
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    confirmRef.current?.focus();
  }, [button]);
  const cancel = () => {
    onCancel();
    // Back to the button that asked (it stays in the page).
    requestAnimationFrame(() => document.getElementById(returnFocusTo)?.focus());
  };
  return (
    <div
      role="alertdialog"
      aria-labelledby="confirm-question"
      className="confirm"
      onKeyDown={(event) => {
        if (event.key === 'Escape') cancel();
      }}
    >
      <p id="confirm-question">{text}</p>
      <button ref={confirmRef} type="button" disabled={busy} onClick={onConfirm}>
        {button}
      </button>{' '}
      <button type="button" onClick={cancel}>
        Cancel
      </button>
      {problem ? (
        <p role="alert" className="error">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
