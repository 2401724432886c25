import { useState } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { Link, useNavigate } from 'react-router';
import { graphql } from '../gql';
import { useConsole } from '../Layout';
import { ErrorMessage, refusalOf } from '../errors';
import { rolloutSummary } from './rollout-summary';
import { Pager } from '../Pager';
import { useListParams } from '../list-params';
import { Stored, StoredList } from '../Stored';

const PAGE = 20;

const FlagsQuery = graphql(`
  query ConsoleFlags(
    $projectId: ID!
    $limit: Int
    $offset: Int
    $search: String
    $active: Boolean
    $tags: [String!]
    $createdById: Int
    $flagStatus: FeatureFlagStatusValue
    $withActivity: Boolean!
  ) {
    featureFlags(
      projectId: $projectId
      limit: $limit
      offset: $offset
      search: $search
      active: $active
      tags: $tags
      createdById: $createdById
      status: $flagStatus
    ) {
      count
      results {
        id
        key
        name
        active
        version
        tags
        filters
        canEdit
        status {
          status
          reason
        }
        createdBy {
          id
          email
          firstName
        }
        activity(limit: 1) @include(if: $withActivity) {
          results {
            createdAt
          }
        }
      }
    }
    featureFlagCreators(projectId: $projectId) {
      id
      email
    }
  }
`);

const ToggleMutation = graphql(`
  mutation ConsoleToggleFlag($projectId: ID!, $id: Int!, $active: Boolean!, $version: Int!) {
    updateFeatureFlag(projectId: $projectId, id: $id, input: { active: $active, version: $version }) {
      id
      active
      version
    }
  }
`);

const when = (iso: string | undefined) => (iso ? new Date(iso).toLocaleString() : '—');

/** Feature flags of the project: searched, filtered and paged by the server. */
export function FlagsList() {
  const { projectId, canWrite, canRead } = useConsole();
  const navigate = useNavigate();
  const { params, update, page } = useListParams(['all', 'anyone']);
  const search = params.get('search') ?? '';
  const status = params.get('status') ?? 'all';
  const tag = params.get('tag') ?? '';
  const creator = params.get('creator') ?? 'anyone';
  const [searchText, setSearchText] = useState(search);
  const [toggleProblem, setToggleProblem] = useState<{ key: string; message: string } | null>(null);

  const { data, error, loading, refetch } = useQuery(FlagsQuery, {
    variables: {
      projectId,
      limit: PAGE,
      offset: (page - 1) * PAGE,
      search: search || null,
      active: status === 'active' ? true : status === 'inactive' ? false : null,
      // docs/stale-flags.md: the server decides which flags are stale.
      flagStatus: status === 'stale' ? 'STALE' : null,
      tags: tag ? [tag] : null,
      createdById: creator === 'anyone' ? null : Number(creator),
      // A key without activity_log:read still lists flags, without their last change.
      withActivity: canRead('activity_log'),
    },
  });
  const [toggle] = useMutation(ToggleMutation);
  const rows = data?.featureFlags.results ?? [];
  const count = data?.featureFlags.count ?? 0;
  const pages = Math.max(1, Math.ceil(count / PAGE));

  const onToggle = async (flag: (typeof rows)[number]) => {
    setToggleProblem(null);
    try {
      await toggle({ variables: { projectId, id: flag.id, active: !flag.active, version: flag.version } });
    } catch (failure) {
      const refusal = refusalOf(failure);
      const message =
        refusal.code === 'CONFLICT'
          ? 'Changed by someone else — reload to see their change before you toggle it.'
          : [...refusal.general, ...Object.values(refusal.fields)].join(' ');
      setToggleProblem({ key: flag.key, message });
    }
  };

  return (
    <section aria-labelledby="flags-title">
      <div className="page-head">
        <h1 id="flags-title">Feature flags</h1>
        {canWrite('feature_flag') ? (
          <button type="button" onClick={() => navigate('/feature-flags/new')}>
            New feature flag
          </button>
        ) : null}
      </div>
      <form
        className="filters"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          update({ search: searchText });
        }}
      >
        <label>
          Search{' '}
          <input type="search" value={searchText} onChange={(event) => setSearchText(event.target.value)} placeholder="key or name" />
        </label>
        <label>
          Status{' '}
          <select value={status} onChange={(event) => update({ status: event.target.value })}>
            <option value="all">All</option>
            <option value="active">Active</option>
            <option value="inactive">Inactive</option>
            <option value="stale">Stale</option>
          </select>
        </label>
        <label>
          Tag <input value={tag} onChange={(event) => update({ tag: event.target.value })} />
        </label>
        <label>
          Creator{' '}
          <select value={creator} onChange={(event) => update({ creator: event.target.value })}>
            <option value="anyone">Anyone</option>
            {(data?.featureFlagCreators ?? []).map((user) => (
              <option key={user.id} value={String(user.id)}>
                {user.email}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Search</button>
      </form>
      <ErrorMessage error={error} title="The flags could not be loaded." />
      {toggleProblem ? (
        <div role="alert" className="error">
          {toggleProblem.key}: {toggleProblem.message}{' '}
          <button type="button" onClick={() => refetch().then(() => setToggleProblem(null))}>
            Reload
          </button>
        </div>
      ) : null}
      {loading && !data ? <p className="loading">Loading flags…</p> : null}
      {data ? (
        <>
          <table>
            <caption className="visually-hidden">
              Feature flags, page {page} of {pages}
            </caption>
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Name</th>
                <th scope="col">Status</th>
                <th scope="col">Release</th>
                <th scope="col">Tags</th>
                <th scope="col">Created by</th>
                <th scope="col">Last change</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((flag) => (
                <tr key={flag.id}>
                  <td className="key">
                    <Link to={`/feature-flags/${flag.id}`}>{flag.key}</Link>
                  </td>
                  <td>
                    <Stored text={flag.name} />
                  </td>
                  <td>
                    <button
                      type="button"
                      role="switch"
                      aria-checked={flag.active}
                      aria-label={`Active: ${flag.key}`}
                      className="switch"
                      disabled={!canWrite('feature_flag') || !flag.canEdit}
                      hidden={!canWrite('feature_flag')}
                      onClick={() => void onToggle(flag)}
                    >
                      {flag.active ? 'On' : 'Off'}
                    </button>
                    {!canWrite('feature_flag') ? <span>{flag.active ? 'Active' : 'Inactive'}</span> : null}
                    {flag.status.status === 'STALE' ? (
                      <span className="badge stale" title={flag.status.reason}>
                        Stale<span className="visually-hidden">: {flag.status.reason}</span>
                      </span>
                    ) : null}
                  </td>
                  <td>{rolloutSummary(flag.filters)}</td>
                  <td>
                    <StoredList items={flag.tags} />
                  </td>
                  <td>{flag.createdBy?.email ?? '—'}</td>
                  <td>{when(flag.activity?.results[0]?.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {rows.length === 0 ? <p>No feature flags match.</p> : null}
          <Pager label="Pages" page={page} pages={pages} total={`${count} flags`} onPage={(next) => update({ page: String(next) })} />
        </>
      ) : null}
    </section>
  );
}
