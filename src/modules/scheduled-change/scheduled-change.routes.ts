import { restOperation } from '../../rest/fragments';
import { pathId, projectScope, queryParams, type RestRequest, type Route } from '../../rest/route';
import type { ScheduledChangeCreateInput, ScheduledChangeUpdateInput } from './scheduled-change.inputs';
import { ScheduledChangeService } from './scheduled-change.service';

const CHANGES = '/api/projects/:project_id/scheduled_changes';
const CHANGE = `${CHANGES}/:id`;

const changeById = {
  document: restOperation(`
    query RestScheduledChange($projectId: ID!, $id: Int!) {
      item: scheduledChange(projectId: $projectId, id: $id) { ...RestScheduledChange }
    }`),
  variables: ({ params }: RestRequest, written?: { id: number | string }) => ({
    projectId: params.project_id,
    id: written?.id ?? pathId(params.id),
  }),
};

// SPEC-GAP: scheduled changes are beyond the API document; they follow PostHog's
// /api/projects/:project_id/scheduled_changes/ (docs/scheduled-changes.md). Like the flags they change,
// they need `feature_flag:read` / `feature_flag:write`.
export const scheduledChangeRoutes: Route[] = [
  {
    method: 'GET',
    path: CHANGES,
    auth: projectScope('feature_flag:read'),
    kind: 'query',
    operation: {
      document: restOperation(`
        query RestScheduledChanges($projectId: ID!, $limit: Int, $offset: Int, $modelName: String, $recordId: String) {
          page: scheduledChanges(projectId: $projectId, limit: $limit, offset: $offset, modelName: $modelName, recordId: $recordId) {
            count
            results { ...RestScheduledChange }
          }
        }`),
      variables: ({ params, query }) => ({
        projectId: params.project_id,
        limit: queryParams.pageInteger(query.limit),
        offset: queryParams.pageInteger(query.offset),
        modelName: queryParams.text(query.model_name),
        recordId: queryParams.text(query.record_id),
      }),
    },
    status: 200,
    shape: 'page',
  },
  {
    method: 'POST',
    path: CHANGES,
    auth: projectScope('feature_flag:write'),
    kind: 'mutation',
    inputType: 'ScheduledChangeCreateInput',
    call: (ctx, { params, input }) => ScheduledChangeService.create(ctx, params.project_id, input as ScheduledChangeCreateInput),
    render: changeById,
    status: 201,
    shape: 'one',
  },
  { method: 'GET', path: CHANGE, auth: projectScope('feature_flag:read'), kind: 'query', operation: changeById, status: 200, shape: 'one' },
  ...(['PATCH', 'PUT'] as const).map((method): Route => ({
    method,
    path: CHANGE,
    auth: projectScope('feature_flag:write'),
    kind: 'mutation',
    inputType: method === 'PUT' ? 'ScheduledChangeCreateInput' : 'ScheduledChangeUpdateInput',
    call: (ctx, { params, input }) =>
      ScheduledChangeService.update(
        ctx,
        params.project_id,
        pathId(params.id),
        input as ScheduledChangeUpdateInput,
        method === 'PUT' ? 'put' : 'patch',
      ),
    render: changeById,
    status: 200,
    shape: 'one',
  })),
  {
    method: 'DELETE',
    path: CHANGE,
    auth: projectScope('feature_flag:write'),
    kind: 'mutation',
    call: (ctx, { params }) => ScheduledChangeService.delete(ctx, params.project_id, pathId(params.id)),
    status: 204,
    shape: 'empty',
  },
];
