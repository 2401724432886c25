import { useState } from 'react';
import { useQuery } from '@apollo/client/react';
import { Link, useNavigate } from 'react-router';
import { graphql } from '../gql';
import type { ExperimentStatus } from '../gql/graphql';
import { useConsole } from '../Layout';
import { ErrorMessage } from '../errors';
import { statusOf, when } from './experiment-model';
import './experiments.css';
import { Pager } from '../Pager';
import { Stored } from '../Stored';
import { useListParams } from '../list-params';

const PAGE = 20;

const ExperimentsQuery = graphql(`
  query ConsoleExperiments($projectId: ID!, $limit: Int, $offset: Int, $search: String, $status: ExperimentStatus, $archived: Boolean) {
    experiments(projectId: $projectId, limit: $limit, offset: $offset, search: $search, status: $status, archived: $archived) {
      count
      results {
        id
        name
        startDate
        endDate
        archived
        exposureCount
        featureFlag {
          id
          key
        }
      }
    }
  }
`);

const STATUSES: Record<string, ExperimentStatus | null> = {
  all: null,
  draft: 'draft',
  running: 'running',
  complete: 'complete',
};

/** A project's experiments: searched, filtered by state and archive, and paged by the server. */
export function ExperimentsList() {
  const { projectId, canWrite } = useConsole();
  const navigate = useNavigate();
  const { params, update, page } = useListParams(['all', 'false']);
  const search = params.get('search') ?? '';
  const status = params.get('status') ?? 'all';
  const archived = params.get('archived') === 'true';
  const [searchText, setSearchText] = useState(search);

  const { data, error, loading } = useQuery(ExperimentsQuery, {
    variables: {
      projectId,
      limit: PAGE,
      offset: (page - 1) * PAGE,
      search: search || null,
      status: STATUSES[status] ?? null,
      // Archived experiments are hidden unless asked for; then only they are listed.
      archived,
    },
    fetchPolicy: 'cache-and-network',
  });
  const rows = data?.experiments.results ?? [];
  const count = data?.experiments.count ?? 0;
  const pages = Math.max(1, Math.ceil(count / PAGE));

  return (
    <section aria-labelledby="experiments-title">
      <div className="page-head">
        <h1 id="experiments-title">Experiments</h1>
        {canWrite('experiment') ? (
          <button type="button" onClick={() => navigate('/experiments/new')}>
            New experiment
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
          Search <input type="search" value={searchText} onChange={(event) => setSearchText(event.target.value)} placeholder="name" />
        </label>
        <label>
          Status{' '}
          <select value={status} onChange={(event) => update({ status: event.target.value })}>
            <option value="all">All</option>
            <option value="draft">Draft</option>
            <option value="running">Running</option>
            <option value="complete">Complete</option>
          </select>
        </label>
        <label className="checkbox-inline">
          <input type="checkbox" checked={archived} onChange={(event) => update({ archived: String(event.target.checked) })} /> Archived
        </label>
        <button type="submit">Search</button>
      </form>
      <ErrorMessage error={error} title="The experiments could not be loaded." />
      {loading && !data ? <p className="loading">Loading experiments…</p> : null}
      {data ? (
        <>
          <table>
            <caption className="visually-hidden">
              {archived ? 'Archived experiments' : 'Experiments'}, page {page} of {pages}
            </caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Flag</th>
                <th scope="col">Status</th>
                <th scope="col">Start</th>
                <th scope="col">End</th>
                <th scope="col" className="number">
                  Exposure
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((experiment) => {
                const state = statusOf(experiment);
                return (
                  <tr key={experiment.id}>
                    <td>
                      <Link to={`/experiments/${experiment.id}`}>
                        <Stored text={experiment.name} />
                      </Link>
                      {experiment.archived ? <span className="badge off"> archived</span> : null}
                    </td>
                    <td className="key">
                      <Link to={`/feature-flags/${experiment.featureFlag.id}`}>{experiment.featureFlag.key}</Link>
                    </td>
                    <td>
                      <span className={`status status-${state}`}>{state}</span>
                    </td>
                    <td>{when(experiment.startDate)}</td>
                    <td>{when(experiment.endDate)}</td>
                    <td className="number">
                      {experiment.exposureCount === null || experiment.exposureCount === undefined
                        ? '—'
                        : experiment.exposureCount.toLocaleString()}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {rows.length === 0 ? (
            <p>{count === 0 && !search && status === 'all' && !archived ? 'No experiments yet.' : 'No experiments match.'}</p>
          ) : null}
          <p className="help">
            Status follows the dates: a draft has no start, a running experiment a start and no end, a complete one both. Exposure counts
            the persons who were shown a variant (their <code>$feature_flag_called</code> events) since the start.
          </p>
          <Pager label="Pages" page={page} pages={pages} total={`${count} experiments`} onPage={(next) => update({ page: String(next) })} />
        </>
      ) : null}
    </section>
  );
}
