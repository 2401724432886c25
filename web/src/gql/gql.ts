/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query ConsoleMe {\n    me {\n      user {\n        id\n        email\n        firstName\n        distinctId\n      }\n      organizations {\n        id\n        name\n        projects {\n          id\n          name\n        }\n      }\n    }\n    personalApiKey(id: \"@current\") {\n      id\n      label\n      scopes\n    }\n  }\n": typeof types.ConsoleMeDocument,
    "\n  fragment ConsoleActivityEntry on ActivityEntry {\n    id\n    activity\n    scope\n    itemId\n    createdAt\n    user {\n      email\n      firstName\n    }\n    detail {\n      name\n      changes {\n        field\n        action\n        before\n        after\n      }\n    }\n  }\n": typeof types.ConsoleActivityEntryFragmentDoc,
    "\n  query ConsoleActivity($projectId: ID!, $scope: ActivityScope, $page: Int, $limit: Int) {\n    activity(projectId: $projectId, scope: $scope, page: $page, limit: $limit) {\n      totalCount\n      page\n      results {\n        ...ConsoleActivityEntry\n      }\n    }\n  }\n": typeof types.ConsoleActivityDocument,
    "\n  query ConsoleEvaluate($projectId: ID!, $distinctId: String!) {\n    featureFlagEvaluations(projectId: $projectId, distinctId: $distinctId) {\n      key\n      value\n      reason\n      conditionIndex\n    }\n  }\n": typeof types.ConsoleEvaluateDocument,
    "\n  query ConsoleFlagToEdit($projectId: ID!, $id: Int!) {\n    featureFlag(projectId: $projectId, id: $id) {\n      id\n      key\n      name\n      filters\n      tags\n      version\n      ensureExperienceContinuity\n    }\n    groupTypes(projectId: $projectId) {\n      groupType\n      groupTypeIndex\n    }\n  }\n": typeof types.ConsoleFlagToEditDocument,
    "\n  query ConsoleGroupTypes($projectId: ID!) {\n    groupTypes(projectId: $projectId) {\n      groupType\n      groupTypeIndex\n    }\n  }\n": typeof types.ConsoleGroupTypesDocument,
    "\n  mutation ConsoleCreateFlag($projectId: ID!, $input: FeatureFlagCreateInput!) {\n    createFeatureFlag(projectId: $projectId, input: $input) {\n      id\n    }\n  }\n": typeof types.ConsoleCreateFlagDocument,
    "\n  mutation ConsoleUpdateFlag($projectId: ID!, $id: Int!, $input: FeatureFlagUpdateInput!) {\n    updateFeatureFlag(projectId: $projectId, id: $id, input: $input) {\n      id\n      version\n    }\n  }\n": typeof types.ConsoleUpdateFlagDocument,
    "\n  query ConsoleFlagHistory($projectId: ID!, $id: Int!, $page: Int, $limit: Int) {\n    featureFlagActivity(projectId: $projectId, id: $id, page: $page, limit: $limit) {\n      totalCount\n      page\n      results {\n        ...ConsoleActivityEntry\n      }\n    }\n  }\n": typeof types.ConsoleFlagHistoryDocument,
    "\n  query ConsoleFlag($projectId: ID!, $id: Int!) {\n    featureFlag(projectId: $projectId, id: $id) {\n      id\n      key\n      name\n      active\n      version\n      tags\n      filters\n      canEdit\n      createdAt\n      createdBy {\n        email\n      }\n      conditionReach {\n        usersAffected\n        totalUsers\n      }\n    }\n  }\n": typeof types.ConsoleFlagDocument,
    "\n  mutation ConsoleDeleteFlag($projectId: ID!, $id: Int!, $version: Int!) {\n    updateFeatureFlag(projectId: $projectId, id: $id, input: { deleted: true, version: $version }) {\n      id\n      deleted\n    }\n  }\n": typeof types.ConsoleDeleteFlagDocument,
    "\n  query ConsoleFlagPermissions($projectId: ID!, $id: Int!) {\n    featureFlag(projectId: $projectId, id: $id) {\n      id\n      roleAccess {\n        id\n        role {\n          id\n          name\n        }\n      }\n    }\n    roles(organizationId: \"@current\", limit: 1000) {\n      results {\n        id\n        name\n      }\n    }\n  }\n": typeof types.ConsoleFlagPermissionsDocument,
    "\n  mutation ConsoleGrantRole($projectId: ID!, $flagId: Int!, $roleId: String!) {\n    grantFeatureFlagRoleAccess(projectId: $projectId, featureFlagId: $flagId, input: { roleId: $roleId }) {\n      id\n    }\n  }\n": typeof types.ConsoleGrantRoleDocument,
    "\n  mutation ConsoleRevokeRole($projectId: ID!, $flagId: Int!, $id: Int!) {\n    revokeFeatureFlagRoleAccess(projectId: $projectId, featureFlagId: $flagId, id: $id)\n  }\n": typeof types.ConsoleRevokeRoleDocument,
    "\n  query ConsoleFlags(\n    $projectId: ID!\n    $limit: Int\n    $offset: Int\n    $search: String\n    $active: Boolean\n    $tags: [String!]\n    $createdById: Int\n    $withActivity: Boolean!\n  ) {\n    featureFlags(\n      projectId: $projectId\n      limit: $limit\n      offset: $offset\n      search: $search\n      active: $active\n      tags: $tags\n      createdById: $createdById\n    ) {\n      count\n      results {\n        id\n        key\n        name\n        active\n        version\n        tags\n        filters\n        canEdit\n        createdBy {\n          id\n          email\n          firstName\n        }\n        activity(limit: 1) @include(if: $withActivity) {\n          results {\n            createdAt\n          }\n        }\n      }\n    }\n    featureFlagCreators(projectId: $projectId) {\n      id\n      email\n    }\n  }\n": typeof types.ConsoleFlagsDocument,
    "\n  mutation ConsoleToggleFlag($projectId: ID!, $id: Int!, $active: Boolean!, $version: Int!) {\n    updateFeatureFlag(projectId: $projectId, id: $id, input: { active: $active, version: $version }) {\n      id\n      active\n      version\n    }\n  }\n": typeof types.ConsoleToggleFlagDocument,
    "\n  query ConsoleRole($organizationId: ID!, $id: String!) {\n    role(organizationId: $organizationId, id: $id) {\n      id\n      name\n      featureFlagsAccessLevel\n      createdAt\n      members {\n        id\n        joinedAt\n        user {\n          id\n          uuid\n          email\n          firstName\n        }\n      }\n      associatedFlags {\n        id\n        key\n      }\n    }\n  }\n": typeof types.ConsoleRoleDocument,
    "\n  query ConsoleOrganizationMembers($organizationId: ID!) {\n    organizationMembers(organizationId: $organizationId, limit: 1000) {\n      results {\n        id\n        user {\n          uuid\n          email\n          firstName\n        }\n      }\n    }\n  }\n": typeof types.ConsoleOrganizationMembersDocument,
    "\n  query ConsoleRoleFlagSearch($projectId: ID!, $search: String) {\n    featureFlags(projectId: $projectId, search: $search, limit: 10) {\n      count\n      results {\n        id\n        key\n        name\n      }\n    }\n  }\n": typeof types.ConsoleRoleFlagSearchDocument,
    "\n  query ConsoleRoleFlagAccesses($projectId: ID!, $flagId: Int!) {\n    featureFlagRoleAccesses(projectId: $projectId, featureFlagId: $flagId, limit: 1000) {\n      results {\n        id\n        role {\n          id\n        }\n      }\n    }\n  }\n": typeof types.ConsoleRoleFlagAccessesDocument,
    "\n  mutation ConsoleUpdateRole($organizationId: ID!, $id: String!, $input: RoleUpdateInput!) {\n    updateRole(organizationId: $organizationId, id: $id, input: $input) {\n      id\n      name\n      featureFlagsAccessLevel\n    }\n  }\n": typeof types.ConsoleUpdateRoleDocument,
    "\n  mutation ConsoleDeleteRole($organizationId: ID!, $id: String!) {\n    deleteRole(organizationId: $organizationId, id: $id)\n  }\n": typeof types.ConsoleDeleteRoleDocument,
    "\n  mutation ConsoleAddRoleMember($organizationId: ID!, $roleId: String!, $userUuid: String!) {\n    addRoleMember(organizationId: $organizationId, roleId: $roleId, input: { userUuid: $userUuid }) {\n      id\n    }\n  }\n": typeof types.ConsoleAddRoleMemberDocument,
    "\n  mutation ConsoleRemoveRoleMember($organizationId: ID!, $roleId: String!, $id: String!) {\n    removeRoleMember(organizationId: $organizationId, roleId: $roleId, id: $id)\n  }\n": typeof types.ConsoleRemoveRoleMemberDocument,
    "\n  mutation ConsoleRoleGrantFlag($projectId: ID!, $flagId: Int!, $roleId: String!) {\n    grantFeatureFlagRoleAccess(projectId: $projectId, featureFlagId: $flagId, input: { roleId: $roleId }) {\n      id\n    }\n  }\n": typeof types.ConsoleRoleGrantFlagDocument,
    "\n  mutation ConsoleRoleRevokeFlag($projectId: ID!, $flagId: Int!, $id: Int!) {\n    revokeFeatureFlagRoleAccess(projectId: $projectId, featureFlagId: $flagId, id: $id)\n  }\n": typeof types.ConsoleRoleRevokeFlagDocument,
    "\n  query ConsoleRoles($organizationId: ID!) {\n    roles(organizationId: $organizationId, limit: 1000) {\n      count\n      results {\n        id\n        name\n        featureFlagsAccessLevel\n        members {\n          id\n        }\n        associatedFlags {\n          id\n        }\n      }\n    }\n  }\n": typeof types.ConsoleRolesDocument,
    "\n  mutation ConsoleCreateRole($organizationId: ID!, $input: RoleCreateInput!) {\n    createRole(organizationId: $organizationId, input: $input) {\n      id\n      name\n    }\n  }\n": typeof types.ConsoleCreateRoleDocument,
    "\n  query ConsoleRoleOrganization {\n    me {\n      organizations {\n        id\n        name\n        membershipLevel\n        projects {\n          id\n        }\n      }\n    }\n  }\n": typeof types.ConsoleRoleOrganizationDocument,
};
const documents: Documents = {
    "\n  query ConsoleMe {\n    me {\n      user {\n        id\n        email\n        firstName\n        distinctId\n      }\n      organizations {\n        id\n        name\n        projects {\n          id\n          name\n        }\n      }\n    }\n    personalApiKey(id: \"@current\") {\n      id\n      label\n      scopes\n    }\n  }\n": types.ConsoleMeDocument,
    "\n  fragment ConsoleActivityEntry on ActivityEntry {\n    id\n    activity\n    scope\n    itemId\n    createdAt\n    user {\n      email\n      firstName\n    }\n    detail {\n      name\n      changes {\n        field\n        action\n        before\n        after\n      }\n    }\n  }\n": types.ConsoleActivityEntryFragmentDoc,
    "\n  query ConsoleActivity($projectId: ID!, $scope: ActivityScope, $page: Int, $limit: Int) {\n    activity(projectId: $projectId, scope: $scope, page: $page, limit: $limit) {\n      totalCount\n      page\n      results {\n        ...ConsoleActivityEntry\n      }\n    }\n  }\n": types.ConsoleActivityDocument,
    "\n  query ConsoleEvaluate($projectId: ID!, $distinctId: String!) {\n    featureFlagEvaluations(projectId: $projectId, distinctId: $distinctId) {\n      key\n      value\n      reason\n      conditionIndex\n    }\n  }\n": types.ConsoleEvaluateDocument,
    "\n  query ConsoleFlagToEdit($projectId: ID!, $id: Int!) {\n    featureFlag(projectId: $projectId, id: $id) {\n      id\n      key\n      name\n      filters\n      tags\n      version\n      ensureExperienceContinuity\n    }\n    groupTypes(projectId: $projectId) {\n      groupType\n      groupTypeIndex\n    }\n  }\n": types.ConsoleFlagToEditDocument,
    "\n  query ConsoleGroupTypes($projectId: ID!) {\n    groupTypes(projectId: $projectId) {\n      groupType\n      groupTypeIndex\n    }\n  }\n": types.ConsoleGroupTypesDocument,
    "\n  mutation ConsoleCreateFlag($projectId: ID!, $input: FeatureFlagCreateInput!) {\n    createFeatureFlag(projectId: $projectId, input: $input) {\n      id\n    }\n  }\n": types.ConsoleCreateFlagDocument,
    "\n  mutation ConsoleUpdateFlag($projectId: ID!, $id: Int!, $input: FeatureFlagUpdateInput!) {\n    updateFeatureFlag(projectId: $projectId, id: $id, input: $input) {\n      id\n      version\n    }\n  }\n": types.ConsoleUpdateFlagDocument,
    "\n  query ConsoleFlagHistory($projectId: ID!, $id: Int!, $page: Int, $limit: Int) {\n    featureFlagActivity(projectId: $projectId, id: $id, page: $page, limit: $limit) {\n      totalCount\n      page\n      results {\n        ...ConsoleActivityEntry\n      }\n    }\n  }\n": types.ConsoleFlagHistoryDocument,
    "\n  query ConsoleFlag($projectId: ID!, $id: Int!) {\n    featureFlag(projectId: $projectId, id: $id) {\n      id\n      key\n      name\n      active\n      version\n      tags\n      filters\n      canEdit\n      createdAt\n      createdBy {\n        email\n      }\n      conditionReach {\n        usersAffected\n        totalUsers\n      }\n    }\n  }\n": types.ConsoleFlagDocument,
    "\n  mutation ConsoleDeleteFlag($projectId: ID!, $id: Int!, $version: Int!) {\n    updateFeatureFlag(projectId: $projectId, id: $id, input: { deleted: true, version: $version }) {\n      id\n      deleted\n    }\n  }\n": types.ConsoleDeleteFlagDocument,
    "\n  query ConsoleFlagPermissions($projectId: ID!, $id: Int!) {\n    featureFlag(projectId: $projectId, id: $id) {\n      id\n      roleAccess {\n        id\n        role {\n          id\n          name\n        }\n      }\n    }\n    roles(organizationId: \"@current\", limit: 1000) {\n      results {\n        id\n        name\n      }\n    }\n  }\n": types.ConsoleFlagPermissionsDocument,
    "\n  mutation ConsoleGrantRole($projectId: ID!, $flagId: Int!, $roleId: String!) {\n    grantFeatureFlagRoleAccess(projectId: $projectId, featureFlagId: $flagId, input: { roleId: $roleId }) {\n      id\n    }\n  }\n": types.ConsoleGrantRoleDocument,
    "\n  mutation ConsoleRevokeRole($projectId: ID!, $flagId: Int!, $id: Int!) {\n    revokeFeatureFlagRoleAccess(projectId: $projectId, featureFlagId: $flagId, id: $id)\n  }\n": types.ConsoleRevokeRoleDocument,
    "\n  query ConsoleFlags(\n    $projectId: ID!\n    $limit: Int\n    $offset: Int\n    $search: String\n    $active: Boolean\n    $tags: [String!]\n    $createdById: Int\n    $withActivity: Boolean!\n  ) {\n    featureFlags(\n      projectId: $projectId\n      limit: $limit\n      offset: $offset\n      search: $search\n      active: $active\n      tags: $tags\n      createdById: $createdById\n    ) {\n      count\n      results {\n        id\n        key\n        name\n        active\n        version\n        tags\n        filters\n        canEdit\n        createdBy {\n          id\n          email\n          firstName\n        }\n        activity(limit: 1) @include(if: $withActivity) {\n          results {\n            createdAt\n          }\n        }\n      }\n    }\n    featureFlagCreators(projectId: $projectId) {\n      id\n      email\n    }\n  }\n": types.ConsoleFlagsDocument,
    "\n  mutation ConsoleToggleFlag($projectId: ID!, $id: Int!, $active: Boolean!, $version: Int!) {\n    updateFeatureFlag(projectId: $projectId, id: $id, input: { active: $active, version: $version }) {\n      id\n      active\n      version\n    }\n  }\n": types.ConsoleToggleFlagDocument,
    "\n  query ConsoleRole($organizationId: ID!, $id: String!) {\n    role(organizationId: $organizationId, id: $id) {\n      id\n      name\n      featureFlagsAccessLevel\n      createdAt\n      members {\n        id\n        joinedAt\n        user {\n          id\n          uuid\n          email\n          firstName\n        }\n      }\n      associatedFlags {\n        id\n        key\n      }\n    }\n  }\n": types.ConsoleRoleDocument,
    "\n  query ConsoleOrganizationMembers($organizationId: ID!) {\n    organizationMembers(organizationId: $organizationId, limit: 1000) {\n      results {\n        id\n        user {\n          uuid\n          email\n          firstName\n        }\n      }\n    }\n  }\n": types.ConsoleOrganizationMembersDocument,
    "\n  query ConsoleRoleFlagSearch($projectId: ID!, $search: String) {\n    featureFlags(projectId: $projectId, search: $search, limit: 10) {\n      count\n      results {\n        id\n        key\n        name\n      }\n    }\n  }\n": types.ConsoleRoleFlagSearchDocument,
    "\n  query ConsoleRoleFlagAccesses($projectId: ID!, $flagId: Int!) {\n    featureFlagRoleAccesses(projectId: $projectId, featureFlagId: $flagId, limit: 1000) {\n      results {\n        id\n        role {\n          id\n        }\n      }\n    }\n  }\n": types.ConsoleRoleFlagAccessesDocument,
    "\n  mutation ConsoleUpdateRole($organizationId: ID!, $id: String!, $input: RoleUpdateInput!) {\n    updateRole(organizationId: $organizationId, id: $id, input: $input) {\n      id\n      name\n      featureFlagsAccessLevel\n    }\n  }\n": types.ConsoleUpdateRoleDocument,
    "\n  mutation ConsoleDeleteRole($organizationId: ID!, $id: String!) {\n    deleteRole(organizationId: $organizationId, id: $id)\n  }\n": types.ConsoleDeleteRoleDocument,
    "\n  mutation ConsoleAddRoleMember($organizationId: ID!, $roleId: String!, $userUuid: String!) {\n    addRoleMember(organizationId: $organizationId, roleId: $roleId, input: { userUuid: $userUuid }) {\n      id\n    }\n  }\n": types.ConsoleAddRoleMemberDocument,
    "\n  mutation ConsoleRemoveRoleMember($organizationId: ID!, $roleId: String!, $id: String!) {\n    removeRoleMember(organizationId: $organizationId, roleId: $roleId, id: $id)\n  }\n": types.ConsoleRemoveRoleMemberDocument,
    "\n  mutation ConsoleRoleGrantFlag($projectId: ID!, $flagId: Int!, $roleId: String!) {\n    grantFeatureFlagRoleAccess(projectId: $projectId, featureFlagId: $flagId, input: { roleId: $roleId }) {\n      id\n    }\n  }\n": types.ConsoleRoleGrantFlagDocument,
    "\n  mutation ConsoleRoleRevokeFlag($projectId: ID!, $flagId: Int!, $id: Int!) {\n    revokeFeatureFlagRoleAccess(projectId: $projectId, featureFlagId: $flagId, id: $id)\n  }\n": types.ConsoleRoleRevokeFlagDocument,
    "\n  query ConsoleRoles($organizationId: ID!) {\n    roles(organizationId: $organizationId, limit: 1000) {\n      count\n      results {\n        id\n        name\n        featureFlagsAccessLevel\n        members {\n          id\n        }\n        associatedFlags {\n          id\n        }\n      }\n    }\n  }\n": types.ConsoleRolesDocument,
    "\n  mutation ConsoleCreateRole($organizationId: ID!, $input: RoleCreateInput!) {\n    createRole(organizationId: $organizationId, input: $input) {\n      id\n      name\n    }\n  }\n": types.ConsoleCreateRoleDocument,
    "\n  query ConsoleRoleOrganization {\n    me {\n      organizations {\n        id\n        name\n        membershipLevel\n        projects {\n          id\n        }\n      }\n    }\n  }\n": types.ConsoleRoleOrganizationDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleMe {\n    me {\n      user {\n        id\n        email\n        firstName\n        distinctId\n      }\n      organizations {\n        id\n        name\n        projects {\n          id\n          name\n        }\n      }\n    }\n    personalApiKey(id: \"@current\") {\n      id\n      label\n      scopes\n    }\n  }\n"): (typeof documents)["\n  query ConsoleMe {\n    me {\n      user {\n        id\n        email\n        firstName\n        distinctId\n      }\n      organizations {\n        id\n        name\n        projects {\n          id\n          name\n        }\n      }\n    }\n    personalApiKey(id: \"@current\") {\n      id\n      label\n      scopes\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ConsoleActivityEntry on ActivityEntry {\n    id\n    activity\n    scope\n    itemId\n    createdAt\n    user {\n      email\n      firstName\n    }\n    detail {\n      name\n      changes {\n        field\n        action\n        before\n        after\n      }\n    }\n  }\n"): (typeof documents)["\n  fragment ConsoleActivityEntry on ActivityEntry {\n    id\n    activity\n    scope\n    itemId\n    createdAt\n    user {\n      email\n      firstName\n    }\n    detail {\n      name\n      changes {\n        field\n        action\n        before\n        after\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleActivity($projectId: ID!, $scope: ActivityScope, $page: Int, $limit: Int) {\n    activity(projectId: $projectId, scope: $scope, page: $page, limit: $limit) {\n      totalCount\n      page\n      results {\n        ...ConsoleActivityEntry\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleActivity($projectId: ID!, $scope: ActivityScope, $page: Int, $limit: Int) {\n    activity(projectId: $projectId, scope: $scope, page: $page, limit: $limit) {\n      totalCount\n      page\n      results {\n        ...ConsoleActivityEntry\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleEvaluate($projectId: ID!, $distinctId: String!) {\n    featureFlagEvaluations(projectId: $projectId, distinctId: $distinctId) {\n      key\n      value\n      reason\n      conditionIndex\n    }\n  }\n"): (typeof documents)["\n  query ConsoleEvaluate($projectId: ID!, $distinctId: String!) {\n    featureFlagEvaluations(projectId: $projectId, distinctId: $distinctId) {\n      key\n      value\n      reason\n      conditionIndex\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleFlagToEdit($projectId: ID!, $id: Int!) {\n    featureFlag(projectId: $projectId, id: $id) {\n      id\n      key\n      name\n      filters\n      tags\n      version\n      ensureExperienceContinuity\n    }\n    groupTypes(projectId: $projectId) {\n      groupType\n      groupTypeIndex\n    }\n  }\n"): (typeof documents)["\n  query ConsoleFlagToEdit($projectId: ID!, $id: Int!) {\n    featureFlag(projectId: $projectId, id: $id) {\n      id\n      key\n      name\n      filters\n      tags\n      version\n      ensureExperienceContinuity\n    }\n    groupTypes(projectId: $projectId) {\n      groupType\n      groupTypeIndex\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleGroupTypes($projectId: ID!) {\n    groupTypes(projectId: $projectId) {\n      groupType\n      groupTypeIndex\n    }\n  }\n"): (typeof documents)["\n  query ConsoleGroupTypes($projectId: ID!) {\n    groupTypes(projectId: $projectId) {\n      groupType\n      groupTypeIndex\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleCreateFlag($projectId: ID!, $input: FeatureFlagCreateInput!) {\n    createFeatureFlag(projectId: $projectId, input: $input) {\n      id\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleCreateFlag($projectId: ID!, $input: FeatureFlagCreateInput!) {\n    createFeatureFlag(projectId: $projectId, input: $input) {\n      id\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleUpdateFlag($projectId: ID!, $id: Int!, $input: FeatureFlagUpdateInput!) {\n    updateFeatureFlag(projectId: $projectId, id: $id, input: $input) {\n      id\n      version\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleUpdateFlag($projectId: ID!, $id: Int!, $input: FeatureFlagUpdateInput!) {\n    updateFeatureFlag(projectId: $projectId, id: $id, input: $input) {\n      id\n      version\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleFlagHistory($projectId: ID!, $id: Int!, $page: Int, $limit: Int) {\n    featureFlagActivity(projectId: $projectId, id: $id, page: $page, limit: $limit) {\n      totalCount\n      page\n      results {\n        ...ConsoleActivityEntry\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleFlagHistory($projectId: ID!, $id: Int!, $page: Int, $limit: Int) {\n    featureFlagActivity(projectId: $projectId, id: $id, page: $page, limit: $limit) {\n      totalCount\n      page\n      results {\n        ...ConsoleActivityEntry\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleFlag($projectId: ID!, $id: Int!) {\n    featureFlag(projectId: $projectId, id: $id) {\n      id\n      key\n      name\n      active\n      version\n      tags\n      filters\n      canEdit\n      createdAt\n      createdBy {\n        email\n      }\n      conditionReach {\n        usersAffected\n        totalUsers\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleFlag($projectId: ID!, $id: Int!) {\n    featureFlag(projectId: $projectId, id: $id) {\n      id\n      key\n      name\n      active\n      version\n      tags\n      filters\n      canEdit\n      createdAt\n      createdBy {\n        email\n      }\n      conditionReach {\n        usersAffected\n        totalUsers\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleDeleteFlag($projectId: ID!, $id: Int!, $version: Int!) {\n    updateFeatureFlag(projectId: $projectId, id: $id, input: { deleted: true, version: $version }) {\n      id\n      deleted\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleDeleteFlag($projectId: ID!, $id: Int!, $version: Int!) {\n    updateFeatureFlag(projectId: $projectId, id: $id, input: { deleted: true, version: $version }) {\n      id\n      deleted\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleFlagPermissions($projectId: ID!, $id: Int!) {\n    featureFlag(projectId: $projectId, id: $id) {\n      id\n      roleAccess {\n        id\n        role {\n          id\n          name\n        }\n      }\n    }\n    roles(organizationId: \"@current\", limit: 1000) {\n      results {\n        id\n        name\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleFlagPermissions($projectId: ID!, $id: Int!) {\n    featureFlag(projectId: $projectId, id: $id) {\n      id\n      roleAccess {\n        id\n        role {\n          id\n          name\n        }\n      }\n    }\n    roles(organizationId: \"@current\", limit: 1000) {\n      results {\n        id\n        name\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleGrantRole($projectId: ID!, $flagId: Int!, $roleId: String!) {\n    grantFeatureFlagRoleAccess(projectId: $projectId, featureFlagId: $flagId, input: { roleId: $roleId }) {\n      id\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleGrantRole($projectId: ID!, $flagId: Int!, $roleId: String!) {\n    grantFeatureFlagRoleAccess(projectId: $projectId, featureFlagId: $flagId, input: { roleId: $roleId }) {\n      id\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleRevokeRole($projectId: ID!, $flagId: Int!, $id: Int!) {\n    revokeFeatureFlagRoleAccess(projectId: $projectId, featureFlagId: $flagId, id: $id)\n  }\n"): (typeof documents)["\n  mutation ConsoleRevokeRole($projectId: ID!, $flagId: Int!, $id: Int!) {\n    revokeFeatureFlagRoleAccess(projectId: $projectId, featureFlagId: $flagId, id: $id)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleFlags(\n    $projectId: ID!\n    $limit: Int\n    $offset: Int\n    $search: String\n    $active: Boolean\n    $tags: [String!]\n    $createdById: Int\n    $withActivity: Boolean!\n  ) {\n    featureFlags(\n      projectId: $projectId\n      limit: $limit\n      offset: $offset\n      search: $search\n      active: $active\n      tags: $tags\n      createdById: $createdById\n    ) {\n      count\n      results {\n        id\n        key\n        name\n        active\n        version\n        tags\n        filters\n        canEdit\n        createdBy {\n          id\n          email\n          firstName\n        }\n        activity(limit: 1) @include(if: $withActivity) {\n          results {\n            createdAt\n          }\n        }\n      }\n    }\n    featureFlagCreators(projectId: $projectId) {\n      id\n      email\n    }\n  }\n"): (typeof documents)["\n  query ConsoleFlags(\n    $projectId: ID!\n    $limit: Int\n    $offset: Int\n    $search: String\n    $active: Boolean\n    $tags: [String!]\n    $createdById: Int\n    $withActivity: Boolean!\n  ) {\n    featureFlags(\n      projectId: $projectId\n      limit: $limit\n      offset: $offset\n      search: $search\n      active: $active\n      tags: $tags\n      createdById: $createdById\n    ) {\n      count\n      results {\n        id\n        key\n        name\n        active\n        version\n        tags\n        filters\n        canEdit\n        createdBy {\n          id\n          email\n          firstName\n        }\n        activity(limit: 1) @include(if: $withActivity) {\n          results {\n            createdAt\n          }\n        }\n      }\n    }\n    featureFlagCreators(projectId: $projectId) {\n      id\n      email\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleToggleFlag($projectId: ID!, $id: Int!, $active: Boolean!, $version: Int!) {\n    updateFeatureFlag(projectId: $projectId, id: $id, input: { active: $active, version: $version }) {\n      id\n      active\n      version\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleToggleFlag($projectId: ID!, $id: Int!, $active: Boolean!, $version: Int!) {\n    updateFeatureFlag(projectId: $projectId, id: $id, input: { active: $active, version: $version }) {\n      id\n      active\n      version\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleRole($organizationId: ID!, $id: String!) {\n    role(organizationId: $organizationId, id: $id) {\n      id\n      name\n      featureFlagsAccessLevel\n      createdAt\n      members {\n        id\n        joinedAt\n        user {\n          id\n          uuid\n          email\n          firstName\n        }\n      }\n      associatedFlags {\n        id\n        key\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleRole($organizationId: ID!, $id: String!) {\n    role(organizationId: $organizationId, id: $id) {\n      id\n      name\n      featureFlagsAccessLevel\n      createdAt\n      members {\n        id\n        joinedAt\n        user {\n          id\n          uuid\n          email\n          firstName\n        }\n      }\n      associatedFlags {\n        id\n        key\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleOrganizationMembers($organizationId: ID!) {\n    organizationMembers(organizationId: $organizationId, limit: 1000) {\n      results {\n        id\n        user {\n          uuid\n          email\n          firstName\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleOrganizationMembers($organizationId: ID!) {\n    organizationMembers(organizationId: $organizationId, limit: 1000) {\n      results {\n        id\n        user {\n          uuid\n          email\n          firstName\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleRoleFlagSearch($projectId: ID!, $search: String) {\n    featureFlags(projectId: $projectId, search: $search, limit: 10) {\n      count\n      results {\n        id\n        key\n        name\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleRoleFlagSearch($projectId: ID!, $search: String) {\n    featureFlags(projectId: $projectId, search: $search, limit: 10) {\n      count\n      results {\n        id\n        key\n        name\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleRoleFlagAccesses($projectId: ID!, $flagId: Int!) {\n    featureFlagRoleAccesses(projectId: $projectId, featureFlagId: $flagId, limit: 1000) {\n      results {\n        id\n        role {\n          id\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleRoleFlagAccesses($projectId: ID!, $flagId: Int!) {\n    featureFlagRoleAccesses(projectId: $projectId, featureFlagId: $flagId, limit: 1000) {\n      results {\n        id\n        role {\n          id\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleUpdateRole($organizationId: ID!, $id: String!, $input: RoleUpdateInput!) {\n    updateRole(organizationId: $organizationId, id: $id, input: $input) {\n      id\n      name\n      featureFlagsAccessLevel\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleUpdateRole($organizationId: ID!, $id: String!, $input: RoleUpdateInput!) {\n    updateRole(organizationId: $organizationId, id: $id, input: $input) {\n      id\n      name\n      featureFlagsAccessLevel\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleDeleteRole($organizationId: ID!, $id: String!) {\n    deleteRole(organizationId: $organizationId, id: $id)\n  }\n"): (typeof documents)["\n  mutation ConsoleDeleteRole($organizationId: ID!, $id: String!) {\n    deleteRole(organizationId: $organizationId, id: $id)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleAddRoleMember($organizationId: ID!, $roleId: String!, $userUuid: String!) {\n    addRoleMember(organizationId: $organizationId, roleId: $roleId, input: { userUuid: $userUuid }) {\n      id\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleAddRoleMember($organizationId: ID!, $roleId: String!, $userUuid: String!) {\n    addRoleMember(organizationId: $organizationId, roleId: $roleId, input: { userUuid: $userUuid }) {\n      id\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleRemoveRoleMember($organizationId: ID!, $roleId: String!, $id: String!) {\n    removeRoleMember(organizationId: $organizationId, roleId: $roleId, id: $id)\n  }\n"): (typeof documents)["\n  mutation ConsoleRemoveRoleMember($organizationId: ID!, $roleId: String!, $id: String!) {\n    removeRoleMember(organizationId: $organizationId, roleId: $roleId, id: $id)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleRoleGrantFlag($projectId: ID!, $flagId: Int!, $roleId: String!) {\n    grantFeatureFlagRoleAccess(projectId: $projectId, featureFlagId: $flagId, input: { roleId: $roleId }) {\n      id\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleRoleGrantFlag($projectId: ID!, $flagId: Int!, $roleId: String!) {\n    grantFeatureFlagRoleAccess(projectId: $projectId, featureFlagId: $flagId, input: { roleId: $roleId }) {\n      id\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleRoleRevokeFlag($projectId: ID!, $flagId: Int!, $id: Int!) {\n    revokeFeatureFlagRoleAccess(projectId: $projectId, featureFlagId: $flagId, id: $id)\n  }\n"): (typeof documents)["\n  mutation ConsoleRoleRevokeFlag($projectId: ID!, $flagId: Int!, $id: Int!) {\n    revokeFeatureFlagRoleAccess(projectId: $projectId, featureFlagId: $flagId, id: $id)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleRoles($organizationId: ID!) {\n    roles(organizationId: $organizationId, limit: 1000) {\n      count\n      results {\n        id\n        name\n        featureFlagsAccessLevel\n        members {\n          id\n        }\n        associatedFlags {\n          id\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleRoles($organizationId: ID!) {\n    roles(organizationId: $organizationId, limit: 1000) {\n      count\n      results {\n        id\n        name\n        featureFlagsAccessLevel\n        members {\n          id\n        }\n        associatedFlags {\n          id\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleCreateRole($organizationId: ID!, $input: RoleCreateInput!) {\n    createRole(organizationId: $organizationId, input: $input) {\n      id\n      name\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleCreateRole($organizationId: ID!, $input: RoleCreateInput!) {\n    createRole(organizationId: $organizationId, input: $input) {\n      id\n      name\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleRoleOrganization {\n    me {\n      organizations {\n        id\n        name\n        membershipLevel\n        projects {\n          id\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleRoleOrganization {\n    me {\n      organizations {\n        id\n        name\n        membershipLevel\n        projects {\n          id\n        }\n      }\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;