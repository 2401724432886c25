import { useState } from 'react';
import { useQuery } from '@apollo/client/react';
import { graphql } from '../gql';
import { useConsole } from '../Layout';
import { ErrorMessage } from '../errors';

const PAGE = 10;

const History = graphql(`
  query ConsoleFlagHistory($projectId: ID!, $id: Int!, $page: Int, $limit: Int) {
    featureFlagActivity(projectId: $projectId, id: $id, page: $page, limit: $limit) {
      totalCount
      page
      results {
        id
        activity
        createdAt
        user {
          email
        }
        detail {
          changes {
            field
            action
            before
            after
          }
        }
      }
    }
  }
`);

const shown = (value: unknown) => (value === undefined || value === null ? '—' : typeof value === 'string' ? value : JSON.stringify(value));

/** The flag's activity, newest first, each change with its value before and after. */
export function FlagHistory({ flagId }: { flagId: number }) {
  const { projectId } = useConsole();
  const [page, setPage] = useState(1);
  const { data, error } = useQuery(History, { variables: { projectId, id: flagId, page, limit: PAGE } });
  if (error) return <ErrorMessage error={error} title="The history could not be loaded." />;
  if (!data) return <p className="loading">Loading history…</p>;
  const { results, totalCount } = data.featureFlagActivity;
  const pages = Math.max(1, Math.ceil(totalCount / PAGE));
  return (
    <div>
      <ol className="history">
        {results.map((entry) => (
          <li key={entry.id}>
            <p>
              <strong>{entry.activity}</strong> by {entry.user?.email ?? 'someone'} on {new Date(entry.createdAt).toLocaleString()}
            </p>
            {entry.detail.changes?.length ? (
              <table>
                <caption className="visually-hidden">Changes</caption>
                <thead>
                  <tr>
                    <th scope="col">Field</th>
                    <th scope="col">Before</th>
                    <th scope="col">After</th>
                  </tr>
                </thead>
                <tbody>
                  {entry.detail.changes.map((change, index) => (
                    <tr key={index}>
                      <td>{change.field}</td>
                      <td>
                        <code>{shown(change.before)}</code>
                      </td>
                      <td>
                        <code>{shown(change.after)}</code>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
          </li>
        ))}
      </ol>
      {results.length === 0 ? <p>No history yet.</p> : null}
      <nav aria-label="History pages" className="pager">
        <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
          Newer
        </button>
        <span>
          Page {page} of {pages}
        </span>
        <button type="button" disabled={page >= pages} onClick={() => setPage(page + 1)}>
          Older
        </button>
      </nav>
    </div>
  );
}
