import { useQuery } from '@apollo/client/react';
import { useSearchParams } from 'react-router';
import { graphql } from '../gql';
import type { ActivityScope } from '../gql/graphql';
import { useConsole } from '../Layout';
import { ErrorMessage } from '../errors';
import { ActivityEntries } from './ActivityEntries';
import { Pager } from '../Pager';

const PAGE = 20;

const FeedQuery = graphql(`
  query ConsoleActivity($projectId: ID!, $scope: ActivityScope, $page: Int, $limit: Int) {
    activity(projectId: $projectId, scope: $scope, page: $page, limit: $limit) {
      totalCount
      page
      results {
        ...ConsoleActivityEntry
      }
    }
  }
`);

const SCOPES: Array<[ActivityScope | '', string]> = [
  ['', 'All'],
  ['FeatureFlag', 'Feature flags'],
  ['Experiment', 'Experiments'],
  ['Cohort', 'Cohorts'],
];

/** The project's changes to flags, experiments and cohorts, newest first: filtered by kind, paged by the server. */
export function ActivityFeed() {
  const { projectId } = useConsole();
  const [params, setParams] = useSearchParams();
  const scopeParam = params.get('scope') ?? '';
  const scope = SCOPES.some(([value]) => value === scopeParam) ? (scopeParam as ActivityScope | '') : '';
  const page = Math.max(1, Math.floor(Number(params.get('page'))) || 1);
  const { data, error, loading } = useQuery(FeedQuery, {
    variables: { projectId, scope: scope || null, page, limit: PAGE },
  });
  const update = (next: { scope?: string; page?: number }) => {
    const search = new URLSearchParams(params);
    if (next.scope !== undefined) {
      if (next.scope) search.set('scope', next.scope);
      else search.delete('scope');
      search.delete('page');
    }
    if (next.page !== undefined) {
      if (next.page > 1) search.set('page', String(next.page));
      else search.delete('page');
    }
    setParams(search);
  };
  const total = data?.activity.totalCount ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE));

  return (
    <section aria-labelledby="activity-title">
      <div className="page-head">
        <h1 id="activity-title">Activity</h1>
      </div>
      <div className="filters">
        <label>
          Scope{' '}
          <select value={scope} onChange={(event) => update({ scope: event.target.value })}>
            {SCOPES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ErrorMessage error={error} title="The activity could not be loaded." />
      {loading && !data ? <p className="loading">Loading activity…</p> : null}
      {data ? (
        <>
          <p className="muted">
            {total} {total === 1 ? 'change' : 'changes'}, newest first.
          </p>
          <ActivityEntries entries={data.activity.results} showItem />
          {data.activity.results.length === 0 ? <p>No activity {page > 1 ? 'on this page' : 'yet'}.</p> : null}
          <Pager label="Activity pages" page={page} pages={pages} onPage={(next) => update({ page: next })} />
        </>
      ) : null}
    </section>
  );
}
