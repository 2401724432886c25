import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers/test-app';
import type { Member, World } from '../helpers/factories';
import { expectRefused, notAnEnum, notProvided } from '../helpers/graphql-refusal';
import { flagPaths, orgPaths, roleSteps } from '../helpers/roles';

/**
 * Roles, memberships, resource access and flag role access over GraphQL (docs/README.md decision 13): the same
 * rules as REST (docs/rest-api.md §5), errors as docs/README.md decision 3 (message = REST detail; extensions
 * code/type/reason/attr, attr with the REST field names).
 */

let app: TestApp;
let steps: ReturnType<typeof roleSteps>;
let world: World;
let admin: Member;
let member: Member;
let organizationId: string;
let projectId: string;

const ROLE_FIELDS = /* GraphQL */ `
  fragment RoleFields on Role {
    id
    name
    featureFlagsAccessLevel
    createdAt
    createdBy {
      id
      email
    }
    members {
      id
      roleId
      user {
        id
        uuid
      }
      joinedAt
      updatedAt
    }
    associatedFlags {
      id
      key
    }
  }
`;

const CREATE_ROLE = `mutation ($organizationId: ID!, $input: RoleCreateInput!) { createRole(organizationId: $organizationId, input: $input) { ...RoleFields } } ${ROLE_FIELDS}`;
const UPDATE_ROLE = `mutation ($organizationId: ID!, $id: String!, $input: RoleUpdateInput!) { updateRole(organizationId: $organizationId, id: $id, input: $input) { ...RoleFields } } ${ROLE_FIELDS}`;
const REPLACE_ROLE = `mutation ($organizationId: ID!, $id: String!, $input: RoleCreateInput!) { replaceRole(organizationId: $organizationId, id: $id, input: $input) { ...RoleFields } } ${ROLE_FIELDS}`;
const DELETE_ROLE = `mutation ($organizationId: ID!, $id: String!) { deleteRole(organizationId: $organizationId, id: $id) }`;
const ROLES = `query ($organizationId: ID!, $limit: Int, $offset: Int) { roles(organizationId: $organizationId, limit: $limit, offset: $offset) { count results { ...RoleFields } } } ${ROLE_FIELDS}`;
const ROLE = `query ($organizationId: ID!, $id: String!) { role(organizationId: $organizationId, id: $id) { ...RoleFields } } ${ROLE_FIELDS}`;

const MEMBERSHIP_FIELDS = 'id roleId user { id uuid email } joinedAt updatedAt';
const ADD_MEMBER = `mutation ($organizationId: ID!, $roleId: String!, $input: RoleMembershipInput!) {
  addRoleMember(organizationId: $organizationId, roleId: $roleId, input: $input) { ${MEMBERSHIP_FIELDS} } }`;
const REMOVE_MEMBER = `mutation ($organizationId: ID!, $roleId: String!, $id: String!) { removeRoleMember(organizationId: $organizationId, roleId: $roleId, id: $id) }`;
const MEMBERSHIPS = `query ($organizationId: ID!, $roleId: String!, $limit: Int) {
  roleMemberships(organizationId: $organizationId, roleId: $roleId, limit: $limit) { count results { ${MEMBERSHIP_FIELDS} } } }`;
const MEMBERSHIP = `query ($organizationId: ID!, $roleId: String!, $id: String!) {
  roleMembership(organizationId: $organizationId, roleId: $roleId, id: $id) { ${MEMBERSHIP_FIELDS} } }`;

const RESOURCE_FIELDS = 'id resource accessLevel createdAt updatedAt createdBy { id }';
const CREATE_RESOURCE = `mutation ($organizationId: ID!, $input: ResourceAccessCreateInput!) {
  createResourceAccess(organizationId: $organizationId, input: $input) { ${RESOURCE_FIELDS} } }`;
const UPDATE_RESOURCE = `mutation ($organizationId: ID!, $id: Int!, $input: ResourceAccessUpdateInput!) {
  updateResourceAccess(organizationId: $organizationId, id: $id, input: $input) { ${RESOURCE_FIELDS} } }`;
const REPLACE_RESOURCE = `mutation ($organizationId: ID!, $id: Int!, $input: ResourceAccessReplaceInput!) {
  replaceResourceAccess(organizationId: $organizationId, id: $id, input: $input) { ${RESOURCE_FIELDS} } }`;
const DELETE_RESOURCE = `mutation ($organizationId: ID!, $id: Int!) { deleteResourceAccess(organizationId: $organizationId, id: $id) }`;
const RESOURCES = `query ($organizationId: ID!) { resourceAccesses(organizationId: $organizationId) { count results { ${RESOURCE_FIELDS} } } }`;
const RESOURCE = `query ($organizationId: ID!, $id: Int!) { resourceAccess(organizationId: $organizationId, id: $id) { ${RESOURCE_FIELDS} } }`;
const ORG_LEVEL = `query { me { organizations { id featureFlagsAccessLevel } } }`;

const ACCESS_FIELDS =
  'id addedAt updatedAt featureFlag { id key canEdit } role { id name featureFlagsAccessLevel associatedFlags { id key } }';
const GRANT = `mutation ($projectId: ID!, $flagId: Int!, $input: FeatureFlagRoleAccessInput!) {
  grantFeatureFlagRoleAccess(projectId: $projectId, featureFlagId: $flagId, input: $input) { ${ACCESS_FIELDS} } }`;
const REVOKE = `mutation ($projectId: ID!, $flagId: Int!, $id: Int!) { revokeFeatureFlagRoleAccess(projectId: $projectId, featureFlagId: $flagId, id: $id) }`;
const ACCESSES = `query ($projectId: ID!, $flagId: Int!, $limit: Int, $offset: Int) {
  featureFlagRoleAccesses(projectId: $projectId, featureFlagId: $flagId, limit: $limit, offset: $offset) { count results { ${ACCESS_FIELDS} } } }`;
const ACCESS = `query ($projectId: ID!, $flagId: Int!, $id: Int!) {
  featureFlagRoleAccess(projectId: $projectId, featureFlagId: $flagId, id: $id) { ${ACCESS_FIELDS} } }`;
const FLAG = `query ($projectId: ID!, $id: Int!) {
  featureFlag(projectId: $projectId, id: $id) { id canEdit roleAccess { id role { id name } featureFlag { id } } } }`;
const UPDATE_FLAG = `mutation ($projectId: ID!, $id: Int!, $input: FeatureFlagUpdateInput!) {
  updateFeatureFlag(projectId: $projectId, id: $id, input: $input) { id name canEdit } }`;

type Response = { status: number; body: { data?: any; errors?: any[] } };

/** The data of a response that must have no errors. */
async function ok(query: string, variables: Record<string, unknown>, key: string, field: string) {
  const res = await app.graphql(query, variables, key);
  expect({ field, status: res.status, errors: res.body.errors }).toEqual({ field, status: 200, errors: undefined });
  return (res.body.data as Record<string, any>)[field];
}

/** The single error of a response: `{message, code, type, reason, attr}`. */
function onlyError(res: Response, field: string) {
  expect(res.status).toBe(200);
  expect(res.body.errors).toHaveLength(1);
  expect(res.body.data?.[field] ?? null).toBeNull();
  const [error] = res.body.errors!;
  expect(error.path).toEqual([field]);
  return { message: error.message, ...error.extensions };
}
const error = async (query: string, variables: Record<string, unknown>, key: string, field: string) =>
  onlyError(await app.graphql(query, variables, key), field);

const forbidden = (message: string) => ({
  message,
  code: 'FORBIDDEN',
  type: 'authentication_error',
  reason: 'permission_denied',
  attr: null,
});
const badInput = (reason: string, message: string, attr: string | null = null) => ({
  message,
  code: 'BAD_USER_INPUT',
  type: 'validation_error',
  reason,
  attr,
});
const NOT_FOUND = { message: 'Not found.', code: 'NOT_FOUND', type: 'invalid_request', reason: 'not_found', attr: null };

const createRole = (input: Record<string, unknown>, key = admin.key, organization = organizationId) =>
  ok(CREATE_ROLE, { organizationId: organization, input }, key, 'createRole');
const createFlag = (key: string, flagKey: string) =>
  ok(
    `mutation ($projectId: ID!, $input: FeatureFlagCreateInput!) { createFeatureFlag(projectId: $projectId, input: $input) { id key } }`,
    { projectId, input: { key: flagKey } },
    key,
    'createFeatureFlag',
  );
const orgLevel = async (key: string, organization = organizationId) =>
  (await ok(ORG_LEVEL, {}, key, 'me')).organizations.find((o: { id: string }) => o.id === organization).featureFlagsAccessLevel;

beforeAll(async () => {
  app = await startTestApp();
  steps = roleSteps(app);
  world = await app.factories.world();
  admin = await app.factories.member(world.organization, 'admin');
  member = await app.factories.member(world.organization);
  organizationId = world.organization.id;
  projectId = String(world.project.id);
});
afterAll(() => app.close());

describe('roles', () => {
  it('creates, reads, updates, replaces and deletes a role', async () => {
    const created = await createRole({ name: ' Engineering ' });
    expect(created).toEqual({
      id: expect.any(String),
      name: 'Engineering',
      featureFlagsAccessLevel: 'CAN_ALWAYS_EDIT',
      createdAt: expect.stringMatching(/Z$/),
      createdBy: { id: admin.user.id, email: admin.user.email },
      members: [],
      associatedFlags: [],
    });
    expect(await ok(ROLE, { organizationId, id: created.id }, member.key, 'role')).toEqual(created);
    const page = await ok(ROLES, { organizationId, limit: 1 }, member.key, 'roles');
    expect(page).toEqual({ count: 1, results: [created] });

    const updated = await ok(
      UPDATE_ROLE,
      { organizationId, id: created.id, input: { featureFlagsAccessLevel: 'CAN_ONLY_VIEW' } },
      admin.key,
      'updateRole',
    );
    expect(updated).toEqual({ ...created, featureFlagsAccessLevel: 'CAN_ONLY_VIEW' });
    const renamed = await ok(UPDATE_ROLE, { organizationId, id: created.id, input: { name: 'Platform' } }, admin.key, 'updateRole');
    expect(renamed).toEqual({ ...created, name: 'Platform', featureFlagsAccessLevel: 'CAN_ONLY_VIEW' });
    const replaced = await ok(
      REPLACE_ROLE,
      { organizationId, id: created.id, input: { name: 'Core', featureFlagsAccessLevel: 'CAN_ALWAYS_EDIT' } },
      admin.key,
      'replaceRole',
    );
    expect(replaced).toEqual({ ...created, name: 'Core' });
    // `name` is required by RoleCreateInput: GraphQL refuses the variables before the resolver runs.
    expectRefused(
      await app.graphql(REPLACE_ROLE, { organizationId, id: created.id, input: {} }, admin.key),
      notProvided('name', 'String!'),
    );

    expect(await ok(DELETE_ROLE, { organizationId, id: created.id }, admin.key, 'deleteRole')).toBe(created.id);
    expect(await error(ROLE, { organizationId, id: created.id }, admin.key, 'role')).toEqual(NOT_FOUND);
    expect(await error(DELETE_ROLE, { organizationId, id: created.id }, admin.key, 'deleteRole')).toEqual(NOT_FOUND);
  });

  it('answers the REST errors: admin only, name rules, level choices', async () => {
    await createRole({ name: 'Support' });
    expect(await error(CREATE_ROLE, { organizationId, input: { name: 'By member' } }, member.key, 'createRole')).toEqual(
      forbidden('You need to have admin level or higher.'),
    );
    expect(await error(CREATE_ROLE, { organizationId, input: { name: 'SUPPORT' } }, admin.key, 'createRole')).toEqual(
      badInput('unique', 'There is already a role with this name.', 'name'),
    );
    // A missing name and a level outside the enum are refused by GraphQL itself (RoleCreateInput, FlagAccessLevel).
    expectRefused(await app.graphql(CREATE_ROLE, { organizationId, input: {} }, admin.key), notProvided('name', 'String!'));
    expect(await error(CREATE_ROLE, { organizationId, input: { name: '  ' } }, admin.key, 'createRole')).toEqual(
      badInput('blank', 'This field may not be blank.', 'name'),
    );
    expect(await error(CREATE_ROLE, { organizationId, input: { name: 'x'.repeat(201) } }, admin.key, 'createRole')).toEqual(
      badInput('max_length', 'Ensure this field has no more than 200 characters.', 'name'),
    );
    expectRefused(
      await app.graphql(CREATE_ROLE, { organizationId, input: { name: 'Five', featureFlagsAccessLevel: 5 } }, admin.key),
      notAnEnum('input.featureFlagsAccessLevel', 5),
    );
    const other = await createRole({ name: 'Other' });
    expect(await error(UPDATE_ROLE, { organizationId, id: other.id, input: { name: 'support' } }, admin.key, 'updateRole')).toEqual(
      badInput('unique', 'There is already a role with this name.', 'name'),
    );
    expect(await error(UPDATE_ROLE, { organizationId, id: randomUUID(), input: { name: 'x' } }, admin.key, 'updateRole')).toEqual(
      NOT_FOUND,
    );
    expect(await error(ROLE, { organizationId, id: 'abc' }, admin.key, 'role')).toEqual(NOT_FOUND);
    expect(await error(DELETE_ROLE, { organizationId, id: other.id }, member.key, 'deleteRole')).toEqual(
      forbidden('You need to have admin level or higher.'),
    );
  });

  it('refuses outsiders, unknown organizations and keys limited to projects, as REST does', async () => {
    const outsider = await app.factories.member(null);
    expect(await error(ROLES, { organizationId }, outsider.key, 'roles')).toEqual(forbidden("You don't belong to the organization."));
    expect(await error(ROLES, { organizationId: randomUUID() }, admin.key, 'roles')).toEqual({
      ...NOT_FOUND,
      message: 'Organization not found.',
    });
    const scoped = await app.factories.key(admin.user, { projects: [world.project.id] });
    expect(await error(ROLES, { organizationId }, scoped, 'roles')).toEqual(
      forbidden('API keys with scoped projects are only supported on project-based endpoints.'),
    );
    const reader = await app.factories.key(admin.user, { scopes: ['organization:read'] });
    expect((await ok(ROLES, { organizationId: '@current' }, reader, 'roles')).count).toBeGreaterThan(0);
    expect(await error(CREATE_ROLE, { organizationId, input: { name: 'Scoped' } }, reader, 'createRole')).toEqual(
      forbidden("API key missing required scope 'organization:write'"),
    );
    const anonymous = onlyError(await app.graphql(ROLES, { organizationId }, null), 'roles');
    expect(anonymous).toMatchObject({ code: 'UNAUTHENTICATED', reason: 'not_authenticated' });
  });
});

describe('members', () => {
  it('adds, lists, reads and removes members', async () => {
    const role = await createRole({ name: 'Members' });
    const added = await ok(
      ADD_MEMBER,
      { organizationId, roleId: role.id, input: { userUuid: member.user.uuid } },
      admin.key,
      'addRoleMember',
    );
    expect(added).toEqual({
      id: expect.any(String),
      roleId: role.id,
      user: { id: member.user.id, uuid: member.user.uuid, email: member.user.email },
      joinedAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
    });
    expect(await ok(MEMBERSHIPS, { organizationId, roleId: role.id }, member.key, 'roleMemberships')).toEqual({
      count: 1,
      results: [added],
    });
    expect(await ok(MEMBERSHIP, { organizationId, roleId: role.id, id: added.id }, member.key, 'roleMembership')).toEqual(added);
    const shown = await ok(ROLE, { organizationId, id: role.id }, member.key, 'role');
    expect(shown.members).toEqual([
      {
        id: added.id,
        roleId: role.id,
        user: { id: member.user.id, uuid: member.user.uuid },
        joinedAt: added.joinedAt,
        updatedAt: added.updatedAt,
      },
    ]);

    expect(await ok(REMOVE_MEMBER, { organizationId, roleId: role.id, id: added.id }, admin.key, 'removeRoleMember')).toBe(added.id);
    expect((await ok(MEMBERSHIPS, { organizationId, roleId: role.id }, member.key, 'roleMemberships')).count).toBe(0);
    expect(await error(MEMBERSHIP, { organizationId, roleId: role.id, id: added.id }, member.key, 'roleMembership')).toEqual(NOT_FOUND);
    expect(await error(REMOVE_MEMBER, { organizationId, roleId: role.id, id: added.id }, admin.key, 'removeRoleMember')).toEqual(NOT_FOUND);
  });

  it('answers the REST errors', async () => {
    const role = await createRole({ name: 'Member errors' });
    const add = (input: Record<string, unknown>, key = admin.key, roleId = role.id) =>
      error(ADD_MEMBER, { organizationId, roleId, input }, key, 'addRoleMember');
    // `userUuid` is required by RoleMembershipInput: GraphQL refuses the variables before the resolver runs.
    expectRefused(
      await app.graphql(ADD_MEMBER, { organizationId, roleId: role.id, input: {} }, admin.key),
      notProvided('userUuid', 'String!'),
    );
    expect(await add({ userUuid: 'nope' })).toEqual(badInput('invalid_input', 'Must be a valid UUID.', 'user_uuid'));
    const outsider = await app.factories.member(null);
    expect(await add({ userUuid: outsider.user.uuid })).toEqual(badInput('invalid_input', 'User does not exist.'));
    await ok(ADD_MEMBER, { organizationId, roleId: role.id, input: { userUuid: member.user.uuid } }, admin.key, 'addRoleMember');
    expect(await add({ userUuid: member.user.uuid })).toEqual(badInput('invalid_input', 'User is already part of the role.'));
    expect(await add({ userUuid: admin.user.uuid }, member.key)).toEqual(forbidden('You need to have admin level or higher.'));
    const other = await app.factories.world();
    const foreign = await steps.createRole(other.organization, other.owner.key, { name: 'Foreign' });
    expect(await add({ userUuid: admin.user.uuid }, admin.key, foreign.id)).toEqual(NOT_FOUND);
    expect(await error(MEMBERSHIPS, { organizationId, roleId: foreign.id }, admin.key, 'roleMemberships')).toEqual(NOT_FOUND);
  });
});

describe('resource access and the organization level', () => {
  it('creates, updates, replaces and deletes the record; the organization shows its level', async () => {
    const own = await app.factories.world();
    const orgId = own.organization.id;
    const ownMember = await app.factories.member(own.organization);
    expect(await orgLevel(ownMember.key, orgId)).toBe('CAN_ALWAYS_EDIT');

    const created = await ok(
      CREATE_RESOURCE,
      { organizationId: orgId, input: { resource: 'feature flags', accessLevel: 'CAN_ONLY_VIEW' } },
      own.owner.key,
      'createResourceAccess',
    );
    expect(created).toEqual({
      id: expect.any(Number),
      resource: 'feature flags',
      accessLevel: 'CAN_ONLY_VIEW',
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
      createdBy: { id: own.owner.user.id },
    });
    expect(await orgLevel(ownMember.key, orgId)).toBe('CAN_ONLY_VIEW');
    expect(await ok(RESOURCES, { organizationId: orgId }, ownMember.key, 'resourceAccesses')).toEqual({ count: 1, results: [created] });
    expect(await ok(RESOURCE, { organizationId: orgId, id: created.id }, ownMember.key, 'resourceAccess')).toEqual(created);
    // A new role takes the organization's level.
    expect((await createRole({ name: 'Defaulted' }, own.owner.key, orgId)).featureFlagsAccessLevel).toBe('CAN_ONLY_VIEW');

    const updated = await ok(
      UPDATE_RESOURCE,
      { organizationId: orgId, id: created.id, input: { accessLevel: 'CAN_ALWAYS_EDIT' } },
      own.owner.key,
      'updateResourceAccess',
    );
    expect(updated.accessLevel).toBe('CAN_ALWAYS_EDIT');
    expect(await orgLevel(ownMember.key, orgId)).toBe('CAN_ALWAYS_EDIT');
    const replaced = await ok(
      REPLACE_RESOURCE,
      { organizationId: orgId, id: created.id, input: { resource: 'feature flags', accessLevel: 'CAN_ONLY_VIEW' } },
      own.owner.key,
      'replaceResourceAccess',
    );
    expect(replaced.accessLevel).toBe('CAN_ONLY_VIEW');
    // `accessLevel` is required by ResourceAccessReplaceInput: GraphQL refuses the variables before the resolver runs.
    expectRefused(
      await app.graphql(REPLACE_RESOURCE, { organizationId: orgId, id: created.id, input: { resource: 'feature flags' } }, own.owner.key),
      notProvided('accessLevel', 'FlagAccessLevel!'),
    );

    expect(await ok(DELETE_RESOURCE, { organizationId: orgId, id: created.id }, own.owner.key, 'deleteResourceAccess')).toBe(created.id);
    expect(await orgLevel(ownMember.key, orgId)).toBe('CAN_ALWAYS_EDIT');
    expect(await error(RESOURCE, { organizationId: orgId, id: created.id }, ownMember.key, 'resourceAccess')).toEqual(NOT_FOUND);
  });

  it('answers the REST errors', async () => {
    const own = await app.factories.world();
    const orgId = own.organization.id;
    const create = (input: Record<string, unknown>, key = own.owner.key) =>
      error(CREATE_RESOURCE, { organizationId: orgId, input }, key, 'createResourceAccess');
    expect(await create({ resource: 'experiments', accessLevel: 'CAN_ONLY_VIEW' })).toEqual(
      badInput('invalid_choice', '"experiments" is not a valid choice.', 'resource'),
    );
    // A level outside the FlagAccessLevel enum is refused by GraphQL itself.
    expectRefused(
      await app.graphql(CREATE_RESOURCE, { organizationId: orgId, input: { resource: 'feature flags', accessLevel: 5 } }, own.owner.key),
      notAnEnum('input.accessLevel', 5),
    );
    const ownMember = await app.factories.member(own.organization);
    expect(await create({ resource: 'feature flags', accessLevel: 'CAN_ONLY_VIEW' }, ownMember.key)).toEqual(
      forbidden('You need to have admin level or higher.'),
    );
    await ok(CREATE_RESOURCE, { organizationId: orgId, input: { resource: 'feature flags' } }, own.owner.key, 'createResourceAccess');
    expect(await create({ resource: 'feature flags', accessLevel: 'CAN_ONLY_VIEW' })).toEqual(
      badInput('unique', 'This resource access already exists.', 'resource'),
    );
    expect(
      await error(
        UPDATE_RESOURCE,
        { organizationId: orgId, id: 999999, input: { accessLevel: 'CAN_ONLY_VIEW' } },
        own.owner.key,
        'updateResourceAccess',
      ),
    ).toEqual(NOT_FOUND);
  });
});

describe('flag role access', () => {
  it('grants and revokes role access; canEdit and roleAccess follow', async () => {
    const own = await app.factories.world();
    const ownAdmin = await app.factories.member(own.organization, 'admin');
    const viewer = await app.factories.member(own.organization);
    const pid = String(own.project.id);
    await steps.setFlagAccessLevel(own.organization, ownAdmin.key, 21);
    const role = await steps.createRole(own.organization, ownAdmin.key, { name: 'Readers', feature_flags_access_level: 21 });
    await steps.addMember(own.organization, ownAdmin.key, role.id, viewer.user);
    const flag = await steps.createFlag(own.project.id, own.owner.key, { key: 'gql-flag' });

    const before = await ok(FLAG, { projectId: pid, id: flag.id }, viewer.key, 'featureFlag');
    expect(before).toEqual({ id: flag.id, canEdit: false, roleAccess: [] });
    expect(
      await error(UPDATE_FLAG, { projectId: pid, id: flag.id, input: { name: 'by viewer' } }, viewer.key, 'updateFeatureFlag'),
    ).toEqual(forbidden("You don't have edit permissions for this feature flag."));

    const granted = await ok(
      GRANT,
      { projectId: pid, flagId: flag.id, input: { roleId: role.id } },
      ownAdmin.key,
      'grantFeatureFlagRoleAccess',
    );
    expect(granted).toEqual({
      id: expect.any(Number),
      addedAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
      featureFlag: { id: flag.id, key: 'gql-flag', canEdit: true },
      role: { id: role.id, name: 'Readers', featureFlagsAccessLevel: 'CAN_ONLY_VIEW', associatedFlags: [{ id: flag.id, key: 'gql-flag' }] },
    });
    const after = await ok(FLAG, { projectId: pid, id: flag.id }, viewer.key, 'featureFlag');
    expect(after).toEqual({
      id: flag.id,
      canEdit: true,
      roleAccess: [{ id: granted.id, role: { id: role.id, name: 'Readers' }, featureFlag: { id: flag.id } }],
    });
    expect(
      (await ok(UPDATE_FLAG, { projectId: pid, id: flag.id, input: { name: 'by viewer' } }, viewer.key, 'updateFeatureFlag')).name,
    ).toBe('by viewer');

    const page = await ok(ACCESSES, { projectId: pid, flagId: flag.id, limit: 10 }, viewer.key, 'featureFlagRoleAccesses');
    expect(page).toEqual({ count: 1, results: [{ ...granted, featureFlag: { ...granted.featureFlag, canEdit: true } }] });
    expect(await ok(ACCESS, { projectId: pid, flagId: flag.id, id: granted.id }, viewer.key, 'featureFlagRoleAccess')).toEqual(
      page.results[0],
    );

    // A viewer (level-21 role with the record) may edit the flag but not hand out access (§5.4).
    const another = await steps.createRole(own.organization, ownAdmin.key, { name: 'Others', feature_flags_access_level: 21 });
    expect(
      await error(GRANT, { projectId: pid, flagId: flag.id, input: { roleId: another.id } }, viewer.key, 'grantFeatureFlagRoleAccess'),
    ).toEqual(forbidden("You can't edit roles for this feature flag."));
    expect(await error(REVOKE, { projectId: pid, flagId: flag.id, id: granted.id }, viewer.key, 'revokeFeatureFlagRoleAccess')).toEqual(
      forbidden("You can't edit roles for this feature flag."),
    );

    expect(await ok(REVOKE, { projectId: pid, flagId: flag.id, id: granted.id }, ownAdmin.key, 'revokeFeatureFlagRoleAccess')).toBe(
      granted.id,
    );
    expect(await ok(FLAG, { projectId: pid, id: flag.id }, viewer.key, 'featureFlag')).toEqual({
      id: flag.id,
      canEdit: false,
      roleAccess: [],
    });
    expect(await error(ACCESS, { projectId: pid, flagId: flag.id, id: granted.id }, viewer.key, 'featureFlagRoleAccess')).toEqual(
      NOT_FOUND,
    );

    // Deleting the organization's record brings level 37 back: canEdit flips to true for everyone.
    const record = (await app.request(orgPaths(own.organization).resourceAccesses, { key: ownAdmin.key })).body.results[0];
    await ok(DELETE_RESOURCE, { organizationId: own.organization.id, id: record.id }, ownAdmin.key, 'deleteResourceAccess');
    expect((await ok(FLAG, { projectId: pid, id: flag.id }, viewer.key, 'featureFlag')).canEdit).toBe(true);
  });

  it('answers the REST errors', async () => {
    const flag = await createFlag(admin.key, 'gql-errors');
    const role = await createRole({ name: 'Grantable' });
    const grant = (input: Record<string, unknown>, key = admin.key, flagId = flag.id) =>
      error(GRANT, { projectId, flagId, input }, key, 'grantFeatureFlagRoleAccess');
    // `roleId` is required by FeatureFlagRoleAccessInput: GraphQL refuses the variables before the resolver runs.
    expectRefused(await app.graphql(GRANT, { projectId, flagId: flag.id, input: {} }, admin.key), notProvided('roleId', 'String!'));
    expect(await grant({ roleId: 'abc' })).toEqual(badInput('does_not_exist', 'Invalid pk "abc" - object does not exist.', 'role_id'));
    const unknown = randomUUID();
    expect(await grant({ roleId: unknown })).toEqual(
      badInput('does_not_exist', `Invalid pk "${unknown}" - object does not exist.`, 'role_id'),
    );
    const other = await app.factories.world();
    const foreign = await steps.createRole(other.organization, other.owner.key, { name: 'Foreign' });
    expect(await grant({ roleId: foreign.id })).toEqual(
      badInput('does_not_exist', `Invalid pk "${foreign.id}" - object does not exist.`, 'role_id'),
    );
    expect(await grant({ roleId: role.id }, admin.key, 999999)).toEqual(NOT_FOUND);
    await ok(GRANT, { projectId, flagId: flag.id, input: { roleId: role.id } }, admin.key, 'grantFeatureFlagRoleAccess');
    expect(await grant({ roleId: role.id })).toEqual(badInput('unique', 'This role already has access to this feature flag.', 'role_id'));
    expect(await error(REVOKE, { projectId, flagId: flag.id, id: 999999 }, admin.key, 'revokeFeatureFlagRoleAccess')).toEqual(NOT_FOUND);
    expect(await error(ACCESSES, { projectId, flagId: 999999 }, admin.key, 'featureFlagRoleAccesses')).toEqual(NOT_FOUND);

    const outsider = (await app.factories.world()).owner;
    expect(await error(ACCESSES, { projectId, flagId: flag.id }, outsider.key, 'featureFlagRoleAccesses')).toEqual(
      forbidden("You don't have access to the project."),
    );
    const reader = await app.factories.key(admin.user, { scopes: ['feature_flag:read'] });
    expect((await ok(ACCESSES, { projectId, flagId: flag.id }, reader, 'featureFlagRoleAccesses')).count).toBe(1);
    expect(await grant({ roleId: role.id }, reader)).toEqual(forbidden("API key missing required scope 'feature_flag:write'"));
  });

  it('answers the same as REST for the same request', async () => {
    const flag = await createFlag(admin.key, 'gql-parity');
    const role = await createRole({ name: 'Parity' });
    const viaGraphQL = await ok(GRANT, { projectId, flagId: flag.id, input: { roleId: role.id } }, admin.key, 'grantFeatureFlagRoleAccess');
    const viaRest = await app.request(flagPaths(world.project.id).roleAccess(flag.id, viaGraphQL.id), { key: admin.key });
    expect(viaRest.body).toMatchObject({
      id: viaGraphQL.id,
      added_at: viaGraphQL.addedAt,
      updated_at: viaGraphQL.updatedAt,
      feature_flag: { id: flag.id, key: 'gql-parity', can_edit: true },
      role: {
        id: role.id,
        name: 'Parity',
        // GraphQL names the level (FlagAccessLevel), REST keeps the number.
        feature_flags_access_level: { CAN_ONLY_VIEW: 21, CAN_ALWAYS_EDIT: 37 }[viaGraphQL.role.featureFlagsAccessLevel as string],
        associated_flags: [{ id: flag.id, key: 'gql-parity' }],
      },
    });
    expect(viaGraphQL.role.featureFlagsAccessLevel).toBe('CAN_ALWAYS_EDIT');
    const restError = await app.request(flagPaths(world.project.id).roleAccesses(flag.id), {
      method: 'POST',
      key: admin.key,
      body: { role_id: role.id },
    });
    const graphqlError = await error(
      GRANT,
      { projectId, flagId: flag.id, input: { roleId: role.id } },
      admin.key,
      'grantFeatureFlagRoleAccess',
    );
    expect({ message: graphqlError.message, type: graphqlError.type, reason: graphqlError.reason, attr: graphqlError.attr }).toEqual({
      message: restError.body.detail,
      type: restError.body.type,
      reason: restError.body.code,
      attr: restError.body.attr,
    });
  });
});
