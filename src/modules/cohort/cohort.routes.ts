import { projectItemById, restOperation } from '../../rest/fragments';
import { pageParams, pathId, projectScope, type Route } from '../../rest/route';
import type { CohortCreateInput, CohortMembersInput, CohortUpdateInput } from './cohort.inputs';
import { CohortService } from './cohort.service';

const COHORTS = '/api/projects/:project_id/cohorts';
const COHORT = `${COHORTS}/:id`;

const cohortById = projectItemById('cohort', 'RestCohort');

// SPEC-GAP: cohorts are beyond PostHog's documented flag API; docs/cohorts.md describes them. Never hard-deleted:
// DELETE is 405 with an empty body, like a flag's; `deleted` in a PATCH soft-deletes.
export const cohortRoutes: Route[] = [
  {
    method: 'GET',
    path: COHORTS,
    auth: projectScope('cohort:read'),
    kind: 'query',
    operation: {
      document: restOperation(`
        query RestCohorts($projectId: ID!, $limit: Int, $offset: Int) {
          page: cohorts(projectId: $projectId, limit: $limit, offset: $offset) { count results { ...RestCohort } }
        }`),
      variables: (request) => ({ projectId: request.params.project_id, ...pageParams(request) }),
    },
    status: 200,
    shape: 'page',
  },
  {
    method: 'POST',
    path: COHORTS,
    auth: projectScope('cohort:write'),
    kind: 'mutation',
    inputType: 'CohortCreateInput',
    call: (ctx, { params, input }) => CohortService.create(ctx, params.project_id, input as CohortCreateInput),
    render: cohortById,
    status: 201,
    shape: 'one',
  },
  { method: 'GET', path: COHORT, auth: projectScope('cohort:read'), kind: 'query', operation: cohortById, status: 200, shape: 'one' },
  {
    method: 'PATCH',
    path: COHORT,
    auth: projectScope('cohort:write'),
    kind: 'mutation',
    inputType: 'CohortUpdateInput',
    call: (ctx, { params, input }) => CohortService.update(ctx, params.project_id, pathId(params.id), input as CohortUpdateInput),
    render: cohortById,
    status: 200,
    shape: 'one',
  },
  { method: 'DELETE', path: COHORT, auth: projectScope('cohort:write'), kind: 'refused' },
  {
    method: 'POST',
    path: `${COHORT}/persons`,
    auth: projectScope('cohort:write'),
    kind: 'mutation',
    inputType: 'CohortMembersInput',
    call: (ctx, { params, input }) => CohortService.addPersons(ctx, params.project_id, pathId(params.id), input as CohortMembersInput),
    render: cohortById,
    status: 200,
    shape: 'one',
  },
];
