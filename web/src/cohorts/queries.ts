import { graphql } from '../gql';

/** Up to this many of the project's cohorts are offered as references and named in definitions (the API's page limit). */
export const CHOICES_LIMIT = 1000;

/** The project's cohorts by name: the reference picker's options, and the names a definition shows. */
export const CohortChoices = graphql(`
  query ConsoleCohortChoices($projectId: ID!, $limit: Int) {
    cohorts(projectId: $projectId, limit: $limit) {
      count
      results {
        id
        name
        isStatic
      }
    }
  }
`);

export const AddMembers = graphql(`
  mutation ConsoleAddCohortMembers($projectId: ID!, $id: Int!, $distinctIds: [String!]!) {
    addCohortMembers(projectId: $projectId, id: $id, input: { distinctIds: $distinctIds }) {
      id
      count
    }
  }
`);
