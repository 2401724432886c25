import { useQuery } from '@apollo/client/react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { graphql } from '../gql';
import { useConsole } from '../Layout';
import { ErrorMessage } from '../errors';
import './cohorts.css';
import { Pager } from '../Pager';
import { Stored } from '../Stored';

const PAGE = 20;

const CohortsQuery = graphql(`
  query ConsoleCohorts($projectId: ID!, $limit: Int, $offset: Int) {
    cohorts(projectId: $projectId, limit: $limit, offset: $offset) {
      count
      results {
        id
        name
        isStatic
        count
        createdAt
        createdBy {
          id
          email
        }
      }
    }
  }
`);

/** The project's cohorts (deleted ones left out), newest first, paged by the server. */
export function CohortsList() {
  const { projectId, canWrite } = useConsole();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const { data, error, loading } = useQuery(CohortsQuery, {
    variables: { projectId, limit: PAGE, offset: (page - 1) * PAGE },
    fetchPolicy: 'cache-and-network',
  });
  const rows = data?.cohorts.results ?? [];
  const count = data?.cohorts.count ?? 0;
  const pages = Math.max(1, Math.ceil(count / PAGE));
  const goTo = (next: number) => setParams(next === 1 ? {} : { page: String(next) });
  const uncounted = rows.some((cohort) => cohort.count === null);

  return (
    <section aria-labelledby="cohorts-title">
      <div className="page-head">
        <h1 id="cohorts-title">Cohorts</h1>
        {canWrite('cohort') ? (
          <button type="button" onClick={() => navigate('/cohorts/new')}>
            New cohort
          </button>
        ) : null}
      </div>
      <p className="help">
        Named sets of persons that flags can target: by person properties (dynamic) or by a list of distinct ids (static).
      </p>
      <ErrorMessage error={error} title="The cohorts could not be loaded." />
      {loading && !data ? <p className="loading">Loading cohorts…</p> : null}
      {data ? (
        <>
          <table>
            <caption className="visually-hidden">
              Cohorts, page {page} of {pages}
            </caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Kind</th>
                <th scope="col" className="number">
                  Persons
                </th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((cohort) => (
                <tr key={cohort.id}>
                  <td>
                    <Link to={`/cohorts/${cohort.id}`}>
                      <Stored text={cohort.name} />
                    </Link>
                  </td>
                  <td>{cohort.isStatic ? 'static' : 'dynamic'}</td>
                  <td className="number">
                    {cohort.count === null ? (
                      <span aria-describedby="uncounted-note">
                        — <span className="visually-hidden">(not counted)</span>
                      </span>
                    ) : (
                      cohort.count.toLocaleString()
                    )}
                  </td>
                  <td>
                    {new Date(cohort.createdAt).toLocaleString()}
                    {cohort.createdBy ? ` by ${cohort.createdBy.email}` : ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {rows.length === 0 ? <p>No cohorts yet.</p> : null}
          {uncounted ? (
            <p id="uncounted-note" className="help">
              — : not counted, because the cohort (or one it refers to) filters on events, which the service stores but does not evaluate.
            </p>
          ) : null}
          <Pager label="Pages" page={page} pages={pages} total={`${count} cohorts`} onPage={(next) => goTo(next)} />
        </>
      ) : null}
    </section>
  );
}
