import { useState } from 'react';
import { useQuery } from '@apollo/client/react';
import { graphql } from '../gql';
import { useConsole } from '../Layout';
import { ItemHistory } from '../activity/ActivityEntries';

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
  return <ItemHistory error={error} activity={data?.featureFlagActivity} page={page} pageSize={PAGE} onPage={setPage} />;
}
