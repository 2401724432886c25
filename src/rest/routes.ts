import { FeatureFlagResolver } from '../modules/feature-flag/feature-flag.resolver';
import type { FeatureFlagCreateInput, FeatureFlagReplaceInput, FeatureFlagUpdateInput } from '../modules/feature-flag/feature-flag.inputs';
import { ExperimentResolver } from '../modules/experiment/experiment.resolver';
import type { ExperimentCreateInput, ExperimentUpdateInput } from '../modules/experiment/experiment.inputs';
import { FeatureFlagRoleAccessResolver } from '../modules/role/feature-flag-role-access.resolver';
import { RoleResolver } from '../modules/role/role.resolver';
import { RoleMembershipResolver } from '../modules/role/role-membership.resolver';
import { ResourceAccessResolver } from '../modules/role/resource-access.resolver';
import type {
  FeatureFlagRoleAccessInput,
  ResourceAccessCreateInput,
  ResourceAccessReplaceInput,
  ResourceAccessUpdateInput,
  RoleCreateInput,
  RoleMembershipInput,
  RoleUpdateInput,
} from '../modules/role/role.inputs';
import { PersonalApiKeyResolver, type PersonalApiKeyInput } from '../modules/personal-api-key/personal-api-key.resolver';
import { CohortResolver } from '../modules/cohort/cohort.resolver';
import type { CohortCreateInput, CohortMembersInput, CohortUpdateInput } from '../modules/cohort/cohort.inputs';
import { restOperation } from './fragments';
import type { Endpoint } from '../http/route-policy';
import { captureEndpoints } from './capture.handler';
import { remoteEvaluationEndpoints } from './remote-evaluation.handler';
import { graphqlEndpoints } from '../graphql/endpoints';
import { probeEndpoints } from '../http/probes';
import { metricsEndpoints } from '../http/metrics';
import { schemaEndpoints } from '../openapi/serve';
import { posthogStaticEndpoints } from '../http/posthog-static';
import { consoleEndpoints } from '../http/console';
import { blastRadius, evaluationReasons, myFlags } from './evaluation-operations';
import { flagActivity, flagsActivity } from './activity-operations';
import { flagStatus, flagsListDocs } from './flag-status-operations';
import { eventsPage, groupsPage, groupTypesList, personById, personsPage } from './ingestion-operations';
import { ownKeys, personalApiKeyById, personalApiKeysList } from './personal-api-key-operations';
import { experimentResults, experimentSecondaryResults, requiresFlagImplementation } from './experiment-results-operations';
import { serveLocalEvaluation } from './local-evaluation.handler';
import { DashboardResolver } from '../modules/dashboard/dashboard.resolver';
import { dashboardById, dashboardsPage } from './dashboard-operations';
import { localEvaluationDocs } from './local-evaluation.openapi';
import {
  handlerRoute,
  localEvaluationScope,
  organizationScope,
  pathId,
  projectScope,
  queryParams,
  type RestRequest,
  type Route,
} from './route';

const flags = new FeatureFlagResolver();
const roles = new RoleResolver();
const roleMembers = new RoleMembershipResolver();
const resourceAccess = new ResourceAccessResolver();
const flagRoleAccess = new FeatureFlagRoleAccessResolver();
const experiments = new ExperimentResolver();
const personalApiKeys = new PersonalApiKeyResolver();
const cohorts = new CohortResolver();
const dashboards = new DashboardResolver();

const FLAGS = '/api/projects/:project_id/feature_flags';
const FLAG = `${FLAGS}/:id`;
const ROLE_ACCESSES = `${FLAGS}/:parent_lookup_feature_flag_id/role_access`;
const ROLE_ACCESS = `${ROLE_ACCESSES}/:id`;
const DASHBOARDS = '/api/projects/:project_id/dashboards';
const EXPERIMENTS = '/api/projects/:project_id/experiments';
const EXPERIMENT = `${EXPERIMENTS}/:id`;
const ROLES = '/api/organizations/:organization_id/roles';
const ROLE = `${ROLES}/:role_id`;
const MEMBERSHIPS = `${ROLE}/role_memberships`;
const MEMBERSHIP = `${MEMBERSHIPS}/:id`;
const RESOURCE_ACCESSES = '/api/organizations/:organization_id/resource_access';
const RESOURCE_ACCESS = `${RESOURCE_ACCESSES}/:id`;
const PERSONAL_API_KEYS = '/api/personal_api_keys';
const COHORTS = '/api/projects/:project_id/cohorts';
const COHORT = `${COHORTS}/:id`;
const PERSONAL_API_KEY = `${PERSONAL_API_KEYS}/:id`;

const page = ({ query }: RestRequest) => ({ limit: queryParams.pageInteger(query.limit), offset: queryParams.pageInteger(query.offset) });

const roleAccessById = {
  document: restOperation(`
    query RestRoleAccess($projectId: ID!, $flagId: Int!, $id: Int!) {
      item: featureFlagRoleAccess(projectId: $projectId, featureFlagId: $flagId, id: $id) { ...RestFeatureFlagRoleAccess }
    }`),
  variables: ({ params }: RestRequest, written?: { id: number | string }) => ({
    projectId: params.project_id,
    flagId: pathId(params.parent_lookup_feature_flag_id),
    id: written?.id ?? pathId(params.id),
  }),
};

const experimentById = {
  document: restOperation(`
    query RestExperiment($projectId: ID!, $id: Int!) {
      item: experiment(projectId: $projectId, id: $id) { ...RestExperiment }
    }`),
  variables: ({ params }: RestRequest, written?: { id: number | string }) => ({
    projectId: params.project_id,
    id: written?.id ?? pathId(params.id),
  }),
};

const roleById = {
  document: restOperation(`
    query RestRole($organizationId: ID!, $id: String!) {
      item: role(organizationId: $organizationId, id: $id) { ...RestRole }
    }`),
  variables: ({ params }: RestRequest, written?: { id: number | string }) => ({
    organizationId: params.organization_id,
    id: String(written?.id ?? params.role_id),
  }),
};

const membershipById = {
  document: restOperation(`
    query RestRoleMembership($organizationId: ID!, $roleId: String!, $id: String!) {
      item: roleMembership(organizationId: $organizationId, roleId: $roleId, id: $id) { ...RestRoleMembership }
    }`),
  variables: ({ params }: RestRequest, written?: { id: number | string }) => ({
    organizationId: params.organization_id,
    roleId: params.role_id,
    id: String(written?.id ?? params.id),
  }),
};

const resourceAccessById = {
  document: restOperation(`
    query RestResourceAccess($organizationId: ID!, $id: Int!) {
      item: resourceAccess(organizationId: $organizationId, id: $id) { ...RestResourceAccess }
    }`),
  variables: ({ params }: RestRequest, written?: { id: number | string }) => ({
    organizationId: params.organization_id,
    id: written?.id ?? pathId(params.id),
  }),
};

const cohortById = {
  document: restOperation(`
    query RestCohort($projectId: ID!, $id: Int!) {
      item: cohort(projectId: $projectId, id: $id) { ...RestCohort }
    }`),
  variables: ({ params }: RestRequest, written?: { id: number | string }) => ({
    projectId: params.project_id,
    id: written?.id ?? pathId(params.id),
  }),
};

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
 * THE route table: every documented path, in the order of docs/rest-api.md's endpoint table. Each row names its
 * auth, what it runs (a GraphQL operation, or the resolver a write calls), its status and shape.
 * Literal sub-paths must come before `/:id` rows of the same prefix: the router takes the first match.
 */
export const routes: Route[] = [
  // Feature flags
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
    call: (ctx, { params, input }) => flags.createFeatureFlag(ctx, params.project_id, input as FeatureFlagCreateInput),
    render: flagById,
    status: 201,
    shape: 'one',
  },
  // Literal helper paths before `/:id`, which would otherwise take them as an id.
  {
    method: 'GET',
    path: `${FLAGS}/evaluation_reasons`,
    auth: projectScope('feature_flag:read'),
    kind: 'query',
    operation: evaluationReasons,
    present: evaluationReasons.present,
    status: 200,
    shape: 'one',
  },
  handlerRoute({
    method: 'GET',
    path: `${FLAGS}/local_evaluation`,
    auth: localEvaluationScope,
    handle: serveLocalEvaluation,
    docs: localEvaluationDocs,
  }),
  {
    method: 'GET',
    path: `${FLAGS}/my_flags`,
    auth: projectScope('feature_flag:read'),
    kind: 'query',
    operation: myFlags,
    status: 200,
    shape: 'one',
  },
  {
    method: 'POST',
    path: `${FLAGS}/user_blast_radius`,
    auth: projectScope('feature_flag:read'),
    kind: 'query',
    inputType: 'BlastRadiusInput',
    operation: blastRadius,
    status: 200,
    shape: 'one',
  },
  // `activity` is a literal too (docs/README.md decision 2): before `/:id`, which would read it as a malformed id (404).
  {
    method: 'GET',
    path: `${FLAGS}/activity`,
    auth: projectScope('activity_log:read'),
    kind: 'query',
    operation: flagsActivity,
    present: flagsActivity.present,
    status: 200,
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
    method: 'GET',
    path: `${FLAG}/activity`,
    auth: projectScope('activity_log:read'),
    kind: 'query',
    operation: flagActivity,
    present: flagActivity.present,
    status: 200,
    shape: 'one',
  },
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
  // SPEC-GAP: PUT is not in PostHog's documented API; upstream serves it as a PATCH that requires `key` and conditions (docs/rest-api.md §3.6).
  {
    method: 'PUT',
    path: FLAG,
    auth: projectScope('feature_flag:write'),
    kind: 'mutation',
    inputType: 'FeatureFlagReplaceInput',
    call: (ctx, { params, input }) => flags.replaceFeatureFlag(ctx, params.project_id, pathId(params.id), input as FeatureFlagReplaceInput),
    render: flagById,
    status: 200,
    shape: 'one',
  },
  // Hard delete is not allowed (docs/rest-api.md §3.8): 405 with an empty body, after auth and scope checks.
  { method: 'DELETE', path: FLAG, auth: projectScope('feature_flag:write'), kind: 'refused' },
  // docs/README.md decision 4: both dashboard helpers ignore the body and answer the updated flag (200).
  {
    method: 'POST',
    path: `${FLAG}/dashboard`,
    auth: projectScope('feature_flag:write'),
    kind: 'mutation',
    call: (ctx, { params }) => dashboards.generateFeatureFlagUsageDashboard(ctx, params.project_id, pathId(params.id)),
    render: flagById,
    status: 200,
    shape: 'one',
  },
  {
    method: 'POST',
    path: `${FLAG}/enrich_usage_dashboard`,
    auth: projectScope('feature_flag:write'),
    kind: 'mutation',
    call: (ctx, { params }) => dashboards.enrichFeatureFlagUsageDashboard(ctx, params.project_id, pathId(params.id)),
    render: flagById,
    status: 200,
    shape: 'one',
  },

  // Feature flag role access (PATCH and PUT on a record: 405, after the write scope of docs/rest-api.md §2.4)
  {
    method: 'GET',
    path: ROLE_ACCESSES,
    auth: projectScope('feature_flag:read'),
    kind: 'query',
    operation: {
      document: restOperation(`
        query RestRoleAccesses($projectId: ID!, $flagId: Int!, $limit: Int, $offset: Int) {
          page: featureFlagRoleAccesses(projectId: $projectId, featureFlagId: $flagId, limit: $limit, offset: $offset) {
            count
            results { ...RestFeatureFlagRoleAccess }
          }
        }`),
      variables: (request) => ({
        projectId: request.params.project_id,
        flagId: pathId(request.params.parent_lookup_feature_flag_id),
        ...page(request),
      }),
    },
    status: 200,
    shape: 'page',
  },
  {
    method: 'POST',
    path: ROLE_ACCESSES,
    auth: projectScope('feature_flag:write'),
    kind: 'mutation',
    inputType: 'FeatureFlagRoleAccessInput',
    call: (ctx, { params, input }) =>
      flagRoleAccess.grantFeatureFlagRoleAccess(
        ctx,
        params.project_id,
        pathId(params.parent_lookup_feature_flag_id),
        input as FeatureFlagRoleAccessInput,
      ),
    render: roleAccessById,
    status: 201,
    shape: 'one',
  },
  {
    method: 'GET',
    path: ROLE_ACCESS,
    auth: projectScope('feature_flag:read'),
    kind: 'query',
    operation: roleAccessById,
    status: 200,
    shape: 'one',
  },
  {
    method: 'DELETE',
    path: ROLE_ACCESS,
    auth: projectScope('feature_flag:write'),
    kind: 'mutation',
    call: (ctx, { params }) =>
      flagRoleAccess.revokeFeatureFlagRoleAccess(ctx, params.project_id, pathId(params.parent_lookup_feature_flag_id), pathId(params.id)),
    status: 204,
    shape: 'empty',
  },
  ...(['PATCH', 'PUT'] as const).map((method): Route => ({
    method,
    path: ROLE_ACCESS,
    auth: projectScope('feature_flag:write'),
    kind: 'not_allowed',
  })),

  // Experiments
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
        ...page(request),
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
    call: (ctx, { params, input }) => experiments.createExperiment(ctx, params.project_id, input as ExperimentCreateInput),
    render: experimentById,
    status: 201,
    shape: 'one',
  },
  // A literal sub-path: before `/:id`, which would take `requires_flag_implementation` for an id.
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
    call: (ctx, { params, input }) =>
      experiments.updateExperiment(ctx, params.project_id, pathId(params.id), input as ExperimentUpdateInput),
    render: experimentById,
    status: 200,
    shape: 'one',
  },
  {
    method: 'DELETE',
    path: EXPERIMENT,
    auth: projectScope('experiment:write'),
    kind: 'mutation',
    call: (ctx, { params }) => experiments.deleteExperiment(ctx, params.project_id, pathId(params.id)),
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

  // SPEC-GAP: organization roles, memberships and resource access are beyond PostHog's documented flag API;
  // the role-access records need them, so they follow docs/rest-api.md §5.
  {
    method: 'GET',
    path: ROLES,
    auth: organizationScope('organization:read'),
    kind: 'query',
    operation: {
      document: restOperation(`
        query RestRoles($organizationId: ID!, $limit: Int, $offset: Int) {
          page: roles(organizationId: $organizationId, limit: $limit, offset: $offset) { count results { ...RestRole } }
        }`),
      variables: (request) => ({ organizationId: request.params.organization_id, ...page(request) }),
    },
    status: 200,
    shape: 'page',
  },
  {
    method: 'POST',
    path: ROLES,
    auth: organizationScope('organization:write'),
    kind: 'mutation',
    inputType: 'RoleCreateInput',
    call: (ctx, { params, input }) => roles.createRole(ctx, params.organization_id, input as RoleCreateInput),
    render: roleById,
    status: 201,
    shape: 'one',
  },
  {
    method: 'GET',
    path: ROLE,
    auth: organizationScope('organization:read'),
    kind: 'query',
    operation: roleById,
    status: 200,
    shape: 'one',
  },
  ...(['PATCH', 'PUT'] as const).map((method): Route => ({
    method,
    path: ROLE,
    auth: organizationScope('organization:write'),
    kind: 'mutation',
    inputType: method === 'PUT' ? 'RoleCreateInput' : 'RoleUpdateInput',
    call: (ctx, { params, input }) =>
      method === 'PUT'
        ? roles.replaceRole(ctx, params.organization_id, params.role_id, input as RoleCreateInput)
        : roles.updateRole(ctx, params.organization_id, params.role_id, input as RoleUpdateInput),
    render: roleById,
    status: 200,
    shape: 'one',
  })),
  {
    method: 'DELETE',
    path: ROLE,
    auth: organizationScope('organization:write'),
    kind: 'mutation',
    call: (ctx, { params }) => roles.deleteRole(ctx, params.organization_id, params.role_id),
    status: 204,
    shape: 'empty',
  },
  {
    method: 'GET',
    path: MEMBERSHIPS,
    auth: organizationScope('organization:read'),
    kind: 'query',
    operation: {
      document: restOperation(`
        query RestRoleMemberships($organizationId: ID!, $roleId: String!, $limit: Int, $offset: Int) {
          page: roleMemberships(organizationId: $organizationId, roleId: $roleId, limit: $limit, offset: $offset) {
            count
            results { ...RestRoleMembership }
          }
        }`),
      variables: (request) => ({ organizationId: request.params.organization_id, roleId: request.params.role_id, ...page(request) }),
    },
    status: 200,
    shape: 'page',
  },
  {
    method: 'POST',
    path: MEMBERSHIPS,
    auth: organizationScope('organization:write'),
    kind: 'mutation',
    inputType: 'RoleMembershipInput',
    call: (ctx, { params, input }) => roleMembers.addRoleMember(ctx, params.organization_id, params.role_id, input as RoleMembershipInput),
    render: membershipById,
    status: 201,
    shape: 'one',
  },
  {
    method: 'DELETE',
    path: MEMBERSHIP,
    auth: organizationScope('organization:write'),
    kind: 'mutation',
    call: (ctx, { params }) => roleMembers.removeRoleMember(ctx, params.organization_id, params.role_id, params.id),
    status: 204,
    shape: 'empty',
  },
  {
    method: 'GET',
    path: RESOURCE_ACCESSES,
    auth: organizationScope('organization:read'),
    kind: 'query',
    operation: {
      document: restOperation(`
        query RestResourceAccesses($organizationId: ID!, $limit: Int, $offset: Int) {
          page: resourceAccesses(organizationId: $organizationId, limit: $limit, offset: $offset) { count results { ...RestResourceAccess } }
        }`),
      variables: (request) => ({ organizationId: request.params.organization_id, ...page(request) }),
    },
    status: 200,
    shape: 'page',
  },
  {
    method: 'POST',
    path: RESOURCE_ACCESSES,
    auth: organizationScope('organization:write'),
    kind: 'mutation',
    inputType: 'ResourceAccessCreateInput',
    call: (ctx, { params, input }) => resourceAccess.createResourceAccess(ctx, params.organization_id, input as ResourceAccessCreateInput),
    render: resourceAccessById,
    status: 201,
    shape: 'one',
  },
  {
    method: 'GET',
    path: RESOURCE_ACCESS,
    auth: organizationScope('organization:read'),
    kind: 'query',
    operation: resourceAccessById,
    status: 200,
    shape: 'one',
  },
  ...(['PATCH', 'PUT'] as const).map((method): Route => ({
    method,
    path: RESOURCE_ACCESS,
    auth: organizationScope('organization:write'),
    kind: 'mutation',
    inputType: method === 'PUT' ? 'ResourceAccessReplaceInput' : 'ResourceAccessUpdateInput',
    call: (ctx, { params, input }) =>
      method === 'PUT'
        ? resourceAccess.replaceResourceAccess(ctx, params.organization_id, pathId(params.id), input as ResourceAccessReplaceInput)
        : resourceAccess.updateResourceAccess(ctx, params.organization_id, pathId(params.id), input as ResourceAccessUpdateInput),
    render: resourceAccessById,
    status: 200,
    shape: 'one',
  })),
  {
    method: 'DELETE',
    path: RESOURCE_ACCESS,
    auth: organizationScope('organization:write'),
    kind: 'mutation',
    call: (ctx, { params }) => resourceAccess.deleteResourceAccess(ctx, params.organization_id, pathId(params.id)),
    status: 204,
    shape: 'empty',
  },

  // SPEC-GAP: cohorts are beyond PostHog's documented flag API; docs/cohorts.md describes them. Never hard-deleted:
  // DELETE is 405 with an empty body, like a flag's; `deleted` in a PATCH soft-deletes.
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
      variables: (request) => ({ projectId: request.params.project_id, ...page(request) }),
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
    call: (ctx, { params, input }) => cohorts.createCohort(ctx, params.project_id, input as CohortCreateInput),
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
    call: (ctx, { params, input }) => cohorts.updateCohort(ctx, params.project_id, pathId(params.id), input as CohortUpdateInput),
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
    call: (ctx, { params, input }) => cohorts.addCohortMembers(ctx, params.project_id, pathId(params.id), input as CohortMembersInput),
    render: cohortById,
    status: 200,
    shape: 'one',
  },

  // The SDK polling paths (docs/evaluation.md §7.1): the project comes from `?token=`.
  ...['/flags/definitions', '/api/feature_flag/local_evaluation'].map((path) =>
    handlerRoute({ method: 'GET', path, auth: localEvaluationScope, handle: serveLocalEvaluation, docs: localEvaluationDocs }),
  ),

  // Dashboards (docs/dashboards.md, docs/README.md decision 12): read-only; each tile's result is computed on the read.
  {
    method: 'GET',
    path: DASHBOARDS,
    auth: projectScope('dashboard:read'),
    kind: 'query',
    operation: dashboardsPage,
    status: 200,
    shape: 'page',
  },
  {
    method: 'GET',
    path: `${DASHBOARDS}/:id`,
    auth: projectScope('dashboard:read'),
    kind: 'query',
    operation: dashboardById,
    status: 200,
    shape: 'one',
  },

  // SPEC-GAP: persons, events and groups are beyond PostHog's documented flag API; docs/ingestion.md §6 describes them (read-only: other methods 405).
  {
    method: 'GET',
    path: '/api/projects/:project_id/persons',
    auth: projectScope('person:read'),
    kind: 'query',
    operation: personsPage,
    status: 200,
    shape: 'page',
  },
  {
    method: 'GET',
    path: '/api/projects/:project_id/persons/:id',
    auth: projectScope('person:read'),
    kind: 'query',
    operation: personById,
    status: 200,
    shape: 'one',
  },
  {
    method: 'GET',
    path: '/api/projects/:project_id/events',
    auth: projectScope('query:read'),
    kind: 'query',
    operation: eventsPage,
    status: 200,
    shape: 'page',
  },
  {
    method: 'GET',
    path: '/api/projects/:project_id/groups',
    auth: projectScope('group:read'),
    kind: 'query',
    operation: groupsPage,
    status: 200,
    shape: 'page',
  },
  {
    method: 'GET',
    path: '/api/projects/:project_id/groups_types',
    auth: projectScope('group:read'),
    kind: 'query',
    operation: groupTypesList,
    status: 200,
    shape: 'one',
  },

  // SPEC-GAP: the caller's own personal API keys, as PostHog serves them (docs/rest-api.md §2.6): a plain
  // list, create (the key shown once), retrieve and delete; `:id` may be `@current` (the calling key). PATCH/PUT: 405.
  { method: 'GET', path: PERSONAL_API_KEYS, auth: ownKeys, kind: 'query', operation: personalApiKeysList, status: 200, shape: 'one' },
  {
    method: 'POST',
    path: PERSONAL_API_KEYS,
    auth: ownKeys,
    kind: 'mutation',
    inputType: 'PersonalApiKeyInput',
    call: (ctx, { input }) => personalApiKeys.createPersonalApiKey(ctx, input as PersonalApiKeyInput),
    render: personalApiKeyById,
    status: 201,
    shape: 'one',
  },
  { method: 'GET', path: PERSONAL_API_KEY, auth: ownKeys, kind: 'query', operation: personalApiKeyById, status: 200, shape: 'one' },
  {
    method: 'DELETE',
    path: PERSONAL_API_KEY,
    auth: ownKeys,
    kind: 'mutation',
    call: (ctx, { params }) => personalApiKeys.revokePersonalApiKey(ctx, params.id),
    status: 204,
    shape: 'empty',
  },
];

/**
 * The rows served by handlers of their own, each owned by the module that serves it: SDK ingestion
 * and evaluation, GraphQL, the probes, the metrics, this API's OpenAPI document, posthog-js's
 * bundles and the console. With `routes` above, every path the service answers (src/http/dispatch.ts).
 */
export const endpoints: Endpoint[] = [
  ...captureEndpoints,
  ...remoteEvaluationEndpoints,
  ...graphqlEndpoints,
  ...probeEndpoints,
  ...metricsEndpoints,
  ...schemaEndpoints,
  ...posthogStaticEndpoints,
  ...consoleEndpoints(),
];
