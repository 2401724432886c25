import { FeatureFlagResolver } from '../modules/feature-flag/feature-flag.resolver';
import { FeatureFlagCreateInput, FeatureFlagUpdateInput } from '../modules/feature-flag/feature-flag.inputs';
import { restOperation } from './fragments';
import { pathId, projectScope, queryParams, type RestRequest, type Route } from './route';

const flags = new FeatureFlagResolver();

const FLAGS = '/api/projects/:project_id/feature_flags';
const FLAG = `${FLAGS}/:id`;

const flagById = {
  document: restOperation(`
    query RestFeatureFlag($projectId: ID!, $id: Int!) {
      item: featureFlag(projectId: $projectId, id: $id) { ...RestFeatureFlag }
    }`),
  variables: ({ params }: RestRequest, written?: { id: number }) => ({
    projectId: params.project_id,
    id: written?.id ?? pathId(params.id),
  }),
};

/**
 * THE route table: every documented path, in the API document's order. Each row names its
 * auth, what it runs (a GraphQL operation, or the resolver a write calls), its status and shape.
 * Literal sub-paths must come before `/:id` rows of the same prefix: the router takes the first match.
 */
export const routes: Route[] = [
  // 4.1 Feature flags
  {
    method: 'GET',
    path: FLAGS,
    auth: projectScope('feature_flag:read'),
    kind: 'query',
    operation: {
      document: restOperation(`
        query RestFeatureFlags($projectId: ID!, $limit: Int, $offset: Int, $search: String, $active: Boolean,
                               $type: FeatureFlagType, $createdById: Int, $tags: [String!]) {
          page: featureFlags(projectId: $projectId, limit: $limit, offset: $offset, search: $search, active: $active,
                             type: $type, createdById: $createdById, tags: $tags) {
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
        type: queryParams.choice(query.type, ['boolean', 'multivariant', 'experiment'] as const),
        createdById: queryParams.integer(query.created_by_id),
        tags: queryParams.jsonStringList(query.tags),
      }),
    },
    status: 200,
    shape: 'page',
  },
  {
    method: 'POST',
    path: FLAGS,
    auth: projectScope('feature_flag:write'),
    kind: 'mutation',
    inputType: 'FeatureFlagCreateInput',
    call: (ctx, { params, input }) => flags.createFeatureFlag(ctx, params.project_id, input as FeatureFlagCreateInput),
    render: flagById,
    status: 201,
    shape: 'one',
  },
  { method: 'GET', path: FLAG, auth: projectScope('feature_flag:read'), kind: 'query', operation: flagById, status: 200, shape: 'one' },
  {
    method: 'PATCH',
    path: FLAG,
    auth: projectScope('feature_flag:write'),
    kind: 'mutation',
    inputType: 'FeatureFlagUpdateInput',
    call: (ctx, { params, input }) => flags.updateFeatureFlag(ctx, params.project_id, pathId(params.id), input as FeatureFlagUpdateInput),
    render: flagById,
    status: 200,
    shape: 'one',
  },
  // SPEC-GAP: PUT is not in the API document; upstream serves it as a PATCH that requires `key` and conditions.
  {
    method: 'PUT',
    path: FLAG,
    auth: projectScope('feature_flag:write'),
    kind: 'mutation',
    inputType: 'FeatureFlagUpdateInput',
    call: (ctx, { params, input }) => flags.replaceFeatureFlag(ctx, params.project_id, pathId(params.id), input as FeatureFlagUpdateInput),
    render: flagById,
    status: 200,
    shape: 'one',
  },
  // Hard delete is not allowed (API document §3): 405 with an empty body, after auth and scope checks.
  { method: 'DELETE', path: FLAG, auth: projectScope('feature_flag:write'), kind: 'refused' },
];
