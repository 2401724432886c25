import { useState } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { graphql } from '../gql';
import { useConsole } from '../Layout';
import { ErrorMessage } from '../errors';
import { Tabs } from '../Tabs';
import { FlagOverview } from './FlagOverview';
import { FlagHistory } from './FlagHistory';
import { FlagPermissions } from './FlagPermissions';
import { FlagEvaluate } from './FlagEvaluate';
import { FlagUsage } from './FlagUsage';
import { Stored } from '../Stored';

const TABS = ['Overview', 'Usage', 'History', 'Permissions', 'Evaluate'];

const FlagQuery = graphql(`
  query ConsoleFlag($projectId: ID!, $id: Int!) {
    featureFlag(projectId: $projectId, id: $id) {
      id
      key
      name
      active
      version
      tags
      filters
      canEdit
      createdAt
      createdBy {
        email
      }
      conditionReach {
        usersAffected
        totalUsers
      }
    }
  }
`);

const DeleteFlag = graphql(`
  mutation ConsoleDeleteFlag($projectId: ID!, $id: Int!, $version: Int!) {
    updateFeatureFlag(projectId: $projectId, id: $id, input: { deleted: true, version: $version }) {
      id
      deleted
    }
  }
`);

/** One flag: its conditions and reach, how it is called (usage), its history, who may edit it, and what it answers a given id. */
export function FlagPage() {
  const { projectId, canWrite } = useConsole();
  const id = Number(useParams().id);
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const tab = TABS.includes(params.get('tab') ?? '') ? params.get('tab')! : 'Overview';
  const { data, error } = useQuery(FlagQuery, { variables: { projectId, id } });
  const [remove, removing] = useMutation(DeleteFlag);
  const [confirming, setConfirming] = useState(false);

  if (error && !data) return <ErrorMessage error={error} title="The flag could not be loaded." />;
  if (!data) return <p className="loading">Loading…</p>;
  const flag = data.featureFlag;
  const editable = canWrite('feature_flag') && flag.canEdit;

  return (
    <section aria-labelledby="flag-title">
      <div className="page-head">
        <h1 id="flag-title">{flag.key}</h1>
        <span className={flag.active ? 'badge on' : 'badge off'}>{flag.active ? 'Active' : 'Inactive'}</span>
        {editable ? (
          <>
            <button type="button" onClick={() => navigate(`/feature-flags/${flag.id}/edit`)}>
              Edit
            </button>
            <button type="button" onClick={() => setConfirming(true)}>
              Delete
            </button>
          </>
        ) : null}
      </div>
      {flag.name ? (
        <p>
          <Stored text={flag.name} />
        </p>
      ) : null}
      {confirming ? (
        <div role="alertdialog" aria-labelledby="confirm-delete" className="confirm">
          <p id="confirm-delete">Delete {flag.key}? SDKs stop receiving it; its history is kept.</p>
          <button
            type="button"
            disabled={removing.loading}
            onClick={() =>
              void remove({ variables: { projectId, id: flag.id, version: flag.version } })
                .then(() => navigate('/feature-flags'))
                .catch(() => undefined)
            }
          >
            Delete {flag.key}
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            Cancel
          </button>
          <ErrorMessage error={removing.error} title="Not deleted." />
        </div>
      ) : null}
      <Tabs label="Flag" tabs={TABS} selected={tab} onSelect={(next) => setParams(next === 'Overview' ? {} : { tab: next })}>
        {tab === 'Overview' ? <FlagOverview flag={flag} /> : null}
        {tab === 'Usage' ? <FlagUsage flagId={flag.id} editable={editable} /> : null}
        {tab === 'History' ? <FlagHistory flagId={flag.id} /> : null}
        {tab === 'Permissions' ? <FlagPermissions flagId={flag.id} editable={editable} /> : null}
        {tab === 'Evaluate' ? <FlagEvaluate /> : null}
      </Tabs>
    </section>
  );
}
