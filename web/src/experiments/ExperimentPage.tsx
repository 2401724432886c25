import { useQuery } from '@apollo/client/react';
import { useParams } from 'react-router';
import { graphql } from '../gql';
import { useConsole } from '../Layout';
import { ErrorMessage } from '../errors';
import { ExperimentResults } from './ExperimentResults';

const ExperimentQuery = graphql(`
  query ConsoleExperimentName($projectId: ID!, $id: Int!) {
    experiment(projectId: $projectId, id: $id) {
      id
      name
    }
  }
`);

/** Minimal page for the results branch; the experiments part replaces it. */
export function ExperimentPage() {
  const { projectId } = useConsole();
  const id = Number(useParams().id);
  const { data, error } = useQuery(ExperimentQuery, { variables: { projectId, id } });
  if (error && !data) return <ErrorMessage error={error} title="The experiment could not be loaded." />;
  if (!data) return <p className="loading">Loading…</p>;
  return (
    <section aria-labelledby="experiment-title">
      <h1 id="experiment-title">{data.experiment.name}</h1>
      <ExperimentResults experimentId={id} />
    </section>
  );
}
