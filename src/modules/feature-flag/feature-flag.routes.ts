import { projectItemById, restOperation } from '../../rest/fragments';
import { FLAG, FLAGS } from '../../rest/paths';
import { pathId, projectScope, queryParams, type Route } from '../../rest/route';
import type { FeatureFlagCreateInput, FeatureFlagReplaceInput, FeatureFlagUpdateInput } from './feature-flag.inputs';
import { FeatureFlagService } from './feature-flag.service';
import { flagStatus, flagsListDocs } from './flag-status.operations';

/** How a written flag is shown: the retrieve operation, given the written flag's id. */
export const flagById = projectItemById('featureFlag', 'RestFeatureFlag');

/** The flag list, create, retrieve, update and delete rows (docs/rest-api.md §3). */
export const featureFlagRoutes: Route[] = [
  {
    method: 'GET',
    path: FLAGS,
    auth: projectScope('feature_flag:read'),
    kind: 'query',
    operation: {
      document: restOperation(`
        query RestFeatureFlags($projectId: ID!, $limit: Int, $offset: Int, $search: String, $active: Boolean,
                               $type: FeatureFlagType, $createdById: Int, $tags: [String!], $status: FeatureFlagStatusValue) {
          page: featureFlags(projectId: $projectId, limit: $limit, offset: $offset, search: $search, active: $active,
                             type: $type, createdById: $createdById, tags: $tags, status: $status) {
            count
            results { ...RestFeatureFlag }
          }
        }`),
      variables: ({ params, query }) => ({
        projectId: params.project_id,
        limit: queryParams.pageInteger(query.limit),
        offset: queryParams.pageInteger(query.offset),
        search: queryParams.text(query.search),
        active: queryParams.boolean(query.active),
        // As PostHog: `active=STALE` keeps the stale flags instead (docs/stale-flags.md).
        status: queryParams.text(query.active)?.toUpperCase() === 'STALE' ? 'STALE' : null,
        type: queryParams.choice(query.type, ['boolean', 'multivariant', 'experiment'] as const),
        createdById: queryParams.integer(query.created_by_id),
        tags: queryParams.jsonStringList(query.tags),
      }),
    },
    docs: flagsListDocs,
    status: 200,
    shape: 'page',
  },
  {
    method: 'POST',
    path: FLAGS,
    auth: projectScope('feature_flag:write'),
    kind: 'mutation',
    inputType: 'FeatureFlagCreateInput',
    call: (ctx, { params, input }) => FeatureFlagService.create(ctx, params.project_id, input as FeatureFlagCreateInput),
    render: flagById,
    status: 201,
    shape: 'one',
  },
  { method: 'GET', path: FLAG, auth: projectScope('feature_flag:read'), kind: 'query', operation: flagById, status: 200, shape: 'one' },
  // SPEC-GAP: not in the API document; PostHog's status action (docs/stale-flags.md). A flag the project lacks is the usual 404, not `unknown`.
  {
    method: 'GET',
    path: `${FLAG}/status`,
    auth: projectScope('feature_flag:read'),
    kind: 'query',
    operation: flagStatus,
    present: flagStatus.present,
    status: 200,
    shape: 'one',
  },
  {
    method: 'PATCH',
    path: FLAG,
    auth: projectScope('feature_flag:write'),
    kind: 'mutation',
    inputType: 'FeatureFlagUpdateInput',
    call: (ctx, { params, input }) => FeatureFlagService.update(ctx, params.project_id, pathId(params.id), input as FeatureFlagUpdateInput),
    render: flagById,
    status: 200,
    shape: 'one',
  },
  // SPEC-GAP: PUT is not in PostHog's documented API; upstream serves it as a PATCH that requires `key` and conditions (docs/rest-api.md §3.6).
  {
    method: 'PUT',
    path: FLAG,
    auth: projectScope('feature_flag:write'),
    kind: 'mutation',
    inputType: 'FeatureFlagReplaceInput',
    call: (ctx, { params, input }) =>
      FeatureFlagService.update(ctx, params.project_id, pathId(params.id), input as FeatureFlagReplaceInput, 'put'),
    render: flagById,
    status: 200,
    shape: 'one',
  },
  // Hard delete is not allowed (docs/rest-api.md §3.8): 405 with an empty body, after auth and scope checks.
  { method: 'DELETE', path: FLAG, auth: projectScope('feature_flag:write'), kind: 'refused' },
];
