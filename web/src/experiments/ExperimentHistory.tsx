import { useState } from 'react';
import { useQuery } from '@apollo/client/react';
import { graphql } from '../gql';
import { useConsole } from '../Layout';
import { ItemHistory } from '../activity/ActivityEntries';

const PAGE = 10;

const History = graphql(`
  query ConsoleExperimentHistory($projectId: ID!, $id: Int!, $page: Int, $limit: Int) {
    experiment(projectId: $projectId, id: $id) {
      id
      activity(page: $page, limit: $limit) {
        totalCount
        results {
          ...ConsoleActivityEntry
        }
      }
    }
  }
`);

/** The experiment's activity (launched, stopped, edited…), newest first, shown like the activity feed. */
export function ExperimentHistory({ experimentId }: { experimentId: number }) {
  const { projectId } = useConsole();
  const [page, setPage] = useState(1);
  const { data, error } = useQuery(History, { variables: { projectId, id: experimentId, page, limit: PAGE } });
  return <ItemHistory error={error} activity={data?.experiment.activity} page={page} pageSize={PAGE} onPage={setPage} />;
}
