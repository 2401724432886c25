import { restOperation } from '../../rest/fragments';
import { FLAGS } from '../../rest/paths';
import { organizationScope, pageParams, pathId, projectScope, type RestRequest, type Route } from '../../rest/route';
import { FeatureFlagRoleAccessService } from './feature-flag-role-access.service';
import { ResourceAccessService } from './resource-access.service';
import { RoleMembershipService } from './role-membership.service';
import { RoleService } from './role.service';
import type {
  FeatureFlagRoleAccessInput,
  ResourceAccessCreateInput,
  ResourceAccessReplaceInput,
  ResourceAccessUpdateInput,
  RoleCreateInput,
  RoleMembershipInput,
  RoleUpdateInput,
} from './role.inputs';

const ROLE_ACCESSES = `${FLAGS}/:parent_lookup_feature_flag_id/role_access`;
const ROLE_ACCESS = `${ROLE_ACCESSES}/:id`;
const ROLES = '/api/organizations/:organization_id/roles';
const ROLE = `${ROLES}/:role_id`;
const MEMBERSHIPS = `${ROLE}/role_memberships`;
const MEMBERSHIP = `${MEMBERSHIPS}/:id`;
const RESOURCE_ACCESSES = '/api/organizations/:organization_id/resource_access';
const RESOURCE_ACCESS = `${RESOURCE_ACCESSES}/:id`;

type Written = { id: number | string };

const roleAccessById = {
  document: restOperation(`
    query RestRoleAccess($projectId: ID!, $flagId: Int!, $id: Int!) {
      item: featureFlagRoleAccess(projectId: $projectId, featureFlagId: $flagId, id: $id) { ...RestFeatureFlagRoleAccess }
    }`),
  variables: ({ params }: RestRequest, written?: Written) => ({
    projectId: params.project_id,
    flagId: pathId(params.parent_lookup_feature_flag_id),
    id: written?.id ?? pathId(params.id),
  }),
};

const roleById = {
  document: restOperation(`
    query RestRole($organizationId: ID!, $id: String!) {
      item: role(organizationId: $organizationId, id: $id) { ...RestRole }
    }`),
  variables: ({ params }: RestRequest, written?: Written) => ({
    organizationId: params.organization_id,
    id: String(written?.id ?? params.role_id),
  }),
};

const membershipById = {
  document: restOperation(`
    query RestRoleMembership($organizationId: ID!, $roleId: String!, $id: String!) {
      item: roleMembership(organizationId: $organizationId, roleId: $roleId, id: $id) { ...RestRoleMembership }
    }`),
  variables: ({ params }: RestRequest, written?: Written) => ({
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
  variables: ({ params }: RestRequest, written?: Written) => ({
    organizationId: params.organization_id,
    id: written?.id ?? pathId(params.id),
  }),
};

/** A flag's role access records (docs/rest-api.md §5); PATCH and PUT on a record: 405, after the write scope of §2.4. */
export const flagRoleAccessRoutes: Route[] = [
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
        ...pageParams(request),
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
      FeatureFlagRoleAccessService.create(
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
      FeatureFlagRoleAccessService.delete(ctx, params.project_id, pathId(params.parent_lookup_feature_flag_id), pathId(params.id)),
    status: 204,
    shape: 'empty',
  },
  ...(['PATCH', 'PUT'] as const).map((method): Route => ({
    method,
    path: ROLE_ACCESS,
    auth: projectScope('feature_flag:write'),
    kind: 'not_allowed',
  })),
];

// SPEC-GAP: organization roles, memberships and resource access are beyond PostHog's documented flag API;
// the role-access records need them, so they follow docs/rest-api.md §5.
export const roleRoutes: Route[] = [
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
      variables: (request) => ({ organizationId: request.params.organization_id, ...pageParams(request) }),
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
    call: (ctx, { params, input }) => RoleService.create(ctx, params.organization_id, input as RoleCreateInput),
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
        ? RoleService.update(ctx, params.organization_id, params.role_id, input as RoleCreateInput, 'put')
        : RoleService.update(ctx, params.organization_id, params.role_id, input as RoleUpdateInput),
    render: roleById,
    status: 200,
    shape: 'one',
  })),
  {
    method: 'DELETE',
    path: ROLE,
    auth: organizationScope('organization:write'),
    kind: 'mutation',
    call: (ctx, { params }) => RoleService.delete(ctx, params.organization_id, params.role_id),
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
      variables: (request) => ({ organizationId: request.params.organization_id, roleId: request.params.role_id, ...pageParams(request) }),
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
    call: (ctx, { params, input }) =>
      RoleMembershipService.create(ctx, params.organization_id, params.role_id, input as RoleMembershipInput),
    render: membershipById,
    status: 201,
    shape: 'one',
  },
  {
    method: 'DELETE',
    path: MEMBERSHIP,
    auth: organizationScope('organization:write'),
    kind: 'mutation',
    call: (ctx, { params }) => RoleMembershipService.delete(ctx, params.organization_id, params.role_id, params.id),
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
      variables: (request) => ({ organizationId: request.params.organization_id, ...pageParams(request) }),
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
    call: (ctx, { params, input }) => ResourceAccessService.create(ctx, params.organization_id, input as ResourceAccessCreateInput),
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
        ? ResourceAccessService.update(ctx, params.organization_id, pathId(params.id), input as ResourceAccessReplaceInput, 'put')
        : ResourceAccessService.update(ctx, params.organization_id, pathId(params.id), input as ResourceAccessUpdateInput),
    render: resourceAccessById,
    status: 200,
    shape: 'one',
  })),
  {
    method: 'DELETE',
    path: RESOURCE_ACCESS,
    auth: organizationScope('organization:write'),
    kind: 'mutation',
    call: (ctx, { params }) => ResourceAccessService.delete(ctx, params.organization_id, pathId(params.id)),
    status: 204,
    shape: 'empty',
  },
];
