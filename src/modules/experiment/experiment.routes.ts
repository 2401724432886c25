import { projectItemById, restOperation } from '../../rest/fragments';
import { pageParams, pathId, projectScope, queryParams, type Route } from '../../rest/route';
import { experimentResults, experimentSecondaryResults, requiresFlagImplementation } from './experiment-results.operations';
import type { ExperimentCreateInput, ExperimentUpdateInput } from './experiment.inputs';
import { ExperimentService } from './experiment.service';

const EXPERIMENTS = '/api/projects/:project_id/experiments';
const EXPERIMENT = `${EXPERIMENTS}/:id`;

const experimentById = projectItemById('experiment', 'RestExperiment');

/** Experiments and their results (docs/experiments.md, docs/experiment-results.md). */
export const experimentRoutes: Route[] = [
  {
    method: 'GET',
    path: EXPERIMENTS,
    auth: projectScope('experiment:read'),
    kind: 'query',
    operation: {
      document: restOperation(`
        query RestExperiments($projectId: ID!, $limit: Int, $offset: Int, $archived: Boolean, $status: ExperimentStatus,
                              $search: String, $createdById: Int) {
          page: experiments(projectId: $projectId, limit: $limit, offset: $offset, archived: $archived, status: $status,
                            search: $search, createdById: $createdById) {
            count
            results { ...RestExperiment }
          }
        }`),
      variables: (request) => ({
        projectId: request.params.project_id,
        ...pageParams(request),
        archived: queryParams.boolean(request.query.archived),
        status: queryParams.choice(request.query.status, ['draft', 'running', 'complete', 'all'] as const),
        search: queryParams.text(request.query.search),
        createdById: queryParams.integer(request.query.created_by_id),
      }),
    },
    status: 200,
    shape: 'page',
  },
  {
    method: 'POST',
    path: EXPERIMENTS,
    auth: projectScope('experiment:write'),
    kind: 'mutation',
    inputType: 'ExperimentCreateInput',
    call: (ctx, { params, input }) => ExperimentService.create(ctx, params.project_id, input as ExperimentCreateInput),
    render: experimentById,
    status: 201,
    shape: 'one',
  },
  {
    method: 'GET',
    path: `${EXPERIMENTS}/requires_flag_implementation`,
    auth: projectScope('experiment:read'),
    kind: 'query',
    operation: requiresFlagImplementation,
    status: 200,
    shape: 'one',
    present: (item) => ({ result: item }),
  },
  {
    method: 'GET',
    path: EXPERIMENT,
    auth: projectScope('experiment:read'),
    kind: 'query',
    operation: experimentById,
    status: 200,
    shape: 'one',
  },
  {
    method: 'PATCH',
    path: EXPERIMENT,
    auth: projectScope('experiment:write'),
    kind: 'mutation',
    inputType: 'ExperimentUpdateInput',
    call: (ctx, { params, input }) => ExperimentService.update(ctx, params.project_id, pathId(params.id), input as ExperimentUpdateInput),
    render: experimentById,
    status: 200,
    shape: 'one',
  },
  {
    method: 'DELETE',
    path: EXPERIMENT,
    auth: projectScope('experiment:write'),
    kind: 'mutation',
    call: (ctx, { params }) => ExperimentService.delete(ctx, params.project_id, pathId(params.id)),
    status: 204,
    shape: 'empty',
  },
  {
    method: 'GET',
    path: `${EXPERIMENT}/results`,
    auth: projectScope('experiment:read'),
    kind: 'query',
    operation: experimentResults,
    status: 200,
    shape: 'one',
    present: (item) => (item as { results: unknown }).results,
  },
  {
    method: 'GET',
    path: `${EXPERIMENT}/secondary_results`,
    auth: projectScope('experiment:read'),
    kind: 'query',
    operation: experimentSecondaryResults,
    status: 200,
    shape: 'one',
    present: (item) => (item as { secondaryResults: unknown }).secondaryResults,
  },
];
