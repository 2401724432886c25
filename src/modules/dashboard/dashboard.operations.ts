import { projectItemById, restOperation } from '../../rest/fragments';
import { queryParams, type RestRequest } from '../../rest/route';

/** The dashboard reads of docs/dashboards.md, used by the route table's dashboard rows. */

const REST_DASHBOARD = /* GraphQL */ `
  fragment RestDashboard on Dashboard {
    id
    name
    description
    filters
    tags
    created_at: createdAt
    created_by: createdBy {
      ...RestUser
    }
    tiles {
      id
      color
      insight {
        id
        name
        description
        filters
        result {
          label
          breakdown_value: breakdownValue
          days
          data
          count
          aggregated_value: aggregatedValue
        }
      }
    }
  }
`;

export const dashboardsPage = {
  document: restOperation(`
    query RestDashboards($projectId: ID!, $limit: Int, $offset: Int) {
      page: dashboards(projectId: $projectId, limit: $limit, offset: $offset) {
        count
        results { ...RestDashboard }
      }
    }
    ${REST_DASHBOARD}`),
  variables: ({ params, query }: RestRequest) => ({
    projectId: params.project_id,
    limit: queryParams.pageInteger(query.limit),
    offset: queryParams.pageInteger(query.offset),
  }),
};

export const dashboardById = projectItemById('dashboard', 'RestDashboard', REST_DASHBOARD);
