import { useState } from 'react';
import { useQuery } from '@apollo/client/react';
import { graphql } from '../gql';
import { useConsole } from '../Layout';
import { ErrorMessage } from '../errors';
import { ActivityEntries, Pager } from '../activity/ActivityEntries';

const PAGE = 10;

const History = graphql(`
  query ConsoleFlagHistory($projectId: ID!, $id: Int!, $page: Int, $limit: Int) {
    featureFlagActivity(projectId: $projectId, id: $id, page: $page, limit: $limit) {
      totalCount
      page
      results {
        ...ConsoleActivityEntry
      }
    }
  }
`);

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
      <ActivityEntries entries={results} />
      {results.length === 0 ? <p>No history yet.</p> : null}
      <Pager label="History pages" page={page} pages={pages} onPage={setPage} />
    </div>
  );
}
