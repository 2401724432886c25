import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers/test-app';
import type { Member, World } from '../helpers/factories';
import {
  err,
  flagPaths,
  forbidden,
  invalid,
  methodNotAllowed,
  missingScope,
  NEED_ADMIN,
  NOT_FOUND,
  NOT_IN_ORGANIZATION,
  ORGANIZATION_NOT_FOUND,
  orgPaths,
  restUser,
  roleSteps,
  TIMESTAMP,
  UUID,
} from '../helpers/roles';

/**
 * docs/rest-api.md §5.1–§5.3 over REST: roles, memberships and the organization's resource access;
 * who may read and write them (§5, §2.3, §2.4), and the whole roles scenario end to end. Roles are always on
 * (docs/README.md decision 8).
 */

let app: TestApp;
let steps: ReturnType<typeof roleSteps>;

beforeAll(async () => {
  app = await startTestApp();
  steps = roleSteps(app);
});
afterAll(() => app.close());

const request = (path: string, key: string, method = 'GET', body?: unknown) =>
  app.request(path, { method, key, body: method === 'GET' ? undefined : body });

/** A fresh organization with an admin and a plain member besides its owner. */
async function organizationWithStaff() {
  const world = await app.factories.world();
  const admin = await app.factories.member(world.organization, 'admin');
  const member = await app.factories.member(world.organization, 'member');
  return { world, admin, member, paths: orgPaths(world.organization) };
}

describe('roles, memberships and the flag access level together', () => {
  it('runs the roles scenario end to end', async () => {
    const { world, admin, member: u, paths } = await organizationWithStaff();
    // An admin first creates roles Engineering and Marketing, then sets the flag access level to 21.
    const engineering = await steps.createRole(world.organization, admin.key, { name: 'Engineering' });
    await steps.createRole(world.organization, admin.key, { name: 'Marketing' });
    const record = await steps.setFlagAccessLevel(world.organization, admin.key, 21);

    const byMember = await request(paths.roles, u.key, 'POST', { name: 'Sales' });
    expect([byMember.status, byMember.body]).toEqual([403, NEED_ADMIN]);

    const created = await request(paths.roles, admin.key, 'POST', { name: 'Sales' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Sales', members: [], associated_flags: [], feature_flags_access_level: 21 });

    const duplicate = await request(paths.roles, admin.key, 'POST', { name: 'engineering' });
    expect([duplicate.status, duplicate.body]).toEqual([400, invalid('unique', 'There is already a role with this name.', 'name')]);
    const badLevel = await request(paths.roles, admin.key, 'POST', { name: 'Support', feature_flags_access_level: 5 });
    expect([badLevel.status, badLevel.body]).toEqual([
      400,
      invalid('invalid_choice', '"5" is not a valid choice.', 'feature_flags_access_level'),
    ]);

    const joined = await request(paths.memberships(engineering.id), admin.key, 'POST', { user_uuid: u.user.uuid });
    expect(joined.status).toBe(201);
    const again = await request(paths.memberships(engineering.id), admin.key, 'POST', { user_uuid: u.user.uuid });
    expect([again.status, again.body]).toEqual([400, invalid('invalid_input', 'User is already part of the role.')]);
    const outsider = await app.factories.member(null);
    const notMember = await request(paths.memberships(engineering.id), admin.key, 'POST', { user_uuid: outsider.user.uuid });
    expect([notMember.status, notMember.body]).toEqual([400, invalid('invalid_input', 'User does not exist.')]);
    const left = await request(paths.membership(engineering.id, joined.body.id), admin.key, 'DELETE');
    expect([left.status, left.text]).toEqual([204, '']);

    const second = await request(paths.resourceAccesses, admin.key, 'POST', { resource: 'feature flags', access_level: 21 });
    expect([second.status, second.body]).toEqual([400, invalid('unique', 'This resource access already exists.', 'resource')]);

    // Under level 21, a member sees another user's flag as not editable …
    const flag = await steps.createFlag(world.project.id, world.owner.key, { key: 'roles-scenario' });
    const other = await app.factories.member(world.organization);
    const { flags } = flagPaths(world.project.id);
    for (const key of [u.key, other.key]) {
      expect((await request(`${flags}/${flag.id}`, key)).body.can_edit).toBe(false);
    }
    // … until the record goes: the level is back to 37 for everyone.
    const deleted = await request(paths.resourceAccess(record.id), admin.key, 'DELETE');
    expect([deleted.status, deleted.text]).toEqual([204, '']);
    for (const key of [u.key, other.key, admin.key, world.owner.key]) {
      const list = await request(`${flags}?limit=1000`, key);
      expect(list.body.results.every((f: { can_edit: boolean }) => f.can_edit)).toBe(true);
      expect((await request(`${flags}/${flag.id}`, key)).body.can_edit).toBe(true);
    }
    expect((await request(`${flags}/${flag.id}`, u.key, 'PATCH', { name: 'now editable' })).status).toBe(200);
  });
});

describe('roles (§5.1)', () => {
  let world: World;
  let admin: Member;
  let member: Member;
  let paths: ReturnType<typeof orgPaths>;

  beforeAll(async () => {
    ({ world, admin, member, paths } = await organizationWithStaff());
  });

  it('creates a role: 201 with the documented shape, no members, no flags', async () => {
    const res = await request(paths.roles, admin.key, 'POST', { name: '  Design  ' });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.body).toEqual({
      id: expect.stringMatching(UUID),
      name: 'Design',
      feature_flags_access_level: 37,
      created_at: expect.stringMatching(TIMESTAMP),
      created_by: restUser(admin.user),
      members: [],
      associated_flags: [],
    });
    const retrieved = await request(paths.role(res.body.id), member.key);
    expect([retrieved.status, retrieved.body]).toEqual([200, res.body]);
  });

  it("defaults the level to the organization's flag access level, and takes 21 or 37 when given", async () => {
    const own = await organizationWithStaff();
    const before = await steps.createRole(own.world.organization, own.admin.key, { name: 'Before' });
    expect(before.feature_flags_access_level).toBe(37);
    await steps.setFlagAccessLevel(own.world.organization, own.admin.key, 21);
    expect((await steps.createRole(own.world.organization, own.admin.key, { name: 'After' })).feature_flags_access_level).toBe(21);
    expect(
      (await steps.createRole(own.world.organization, own.admin.key, { name: 'Editors', feature_flags_access_level: 37 }))
        .feature_flags_access_level,
    ).toBe(37);
    expect(
      (await steps.createRole(own.world.organization, own.admin.key, { name: 'As text', feature_flags_access_level: '21' }))
        .feature_flags_access_level,
    ).toBe(21);
    // Changing the organization's level later does not touch existing roles.
    expect((await request(own.paths.role(before.id), own.admin.key)).body.feature_flags_access_level).toBe(37);
  });

  it.each([
    ['missing', {}, invalid('required', 'This field is required.', 'name')],
    ['null', { name: null }, invalid('null', 'This field may not be null.', 'name')],
    ['blank', { name: '   ' }, invalid('blank', 'This field may not be blank.', 'name')],
    ['too long', { name: 'x'.repeat(201) }, invalid('max_length', 'Ensure this field has no more than 200 characters.', 'name')],
    ['not text', { name: ['a'] }, invalid('invalid_input', 'Not a valid string.', 'name')],
    [
      'level 5',
      { name: 'L5', feature_flags_access_level: 5 },
      invalid('invalid_choice', '"5" is not a valid choice.', 'feature_flags_access_level'),
    ],
    [
      'level 38',
      { name: 'L38', feature_flags_access_level: 38 },
      invalid('invalid_choice', '"38" is not a valid choice.', 'feature_flags_access_level'),
    ],
    [
      'level text',
      { name: 'Lx', feature_flags_access_level: 'edit' },
      invalid('invalid_choice', '"edit" is not a valid choice.', 'feature_flags_access_level'),
    ],
  ])('refuses a name or level that is %s', async (_case, body, expected) => {
    const before = (await request(paths.roles, admin.key)).body.count;
    const res = await request(paths.roles, admin.key, 'POST', body);
    expect([res.status, res.body]).toEqual([400, expected]);
    expect((await request(paths.roles, admin.key)).body.count).toBe(before);
  });

  it('accepts a name of exactly 200 characters', async () => {
    const res = await request(paths.roles, admin.key, 'POST', { name: 'n'.repeat(200) });
    expect(res.status).toBe(201);
    expect(res.body.name).toHaveLength(200);
  });

  it('keeps names unique per organization, case-insensitively, on create, PATCH and PUT', async () => {
    const qa = await steps.createRole(world.organization, admin.key, { name: 'Quality' });
    const ops = await steps.createRole(world.organization, admin.key, { name: 'Operations' });
    const taken = invalid('unique', 'There is already a role with this name.', 'name');
    for (const name of ['Quality', 'QUALITY', ' quality ']) {
      const res = await request(paths.roles, admin.key, 'POST', { name });
      expect([name, res.status, res.body]).toEqual([name, 400, taken]);
    }
    const patched = await request(paths.role(ops.id), admin.key, 'PATCH', { name: 'quality' });
    expect([patched.status, patched.body]).toEqual([400, taken]);
    const put = await request(paths.role(ops.id), admin.key, 'PUT', { name: 'QUALITY' });
    expect([put.status, put.body]).toEqual([400, taken]);
    expect((await request(paths.role(ops.id), admin.key)).body.name).toBe('Operations');
    // Excluding itself: a role may change the case of its own name.
    const recased = await request(paths.role(qa.id), admin.key, 'PATCH', { name: 'QUALITY' });
    expect([recased.status, recased.body.name]).toEqual([200, 'QUALITY']);
    // Another organization may use the name.
    const other = await organizationWithStaff();
    expect((await steps.createRole(other.world.organization, other.admin.key, { name: 'quality' })).name).toBe('quality');
  });

  it('PATCH changes what is sent; PUT needs the name', async () => {
    const role = await steps.createRole(world.organization, admin.key, { name: 'Patchable', feature_flags_access_level: 21 });
    const level = await request(paths.role(role.id), admin.key, 'PATCH', { feature_flags_access_level: 37 });
    expect(level.status).toBe(200);
    expect(level.body).toEqual({ ...role, feature_flags_access_level: 37 });
    const renamed = await request(paths.role(role.id), admin.key, 'PATCH', { name: 'Patched' });
    expect(renamed.body).toEqual({ ...role, name: 'Patched', feature_flags_access_level: 37 });
    const empty = await request(paths.role(role.id), admin.key, 'PATCH', {});
    expect([empty.status, empty.body.name]).toEqual([200, 'Patched']);
    const badLevel = await request(paths.role(role.id), admin.key, 'PATCH', { feature_flags_access_level: 1 });
    expect([badLevel.status, badLevel.body]).toEqual([
      400,
      invalid('invalid_choice', '"1" is not a valid choice.', 'feature_flags_access_level'),
    ]);
    const blank = await request(paths.role(role.id), admin.key, 'PATCH', { name: '' });
    expect([blank.status, blank.body]).toEqual([400, invalid('blank', 'This field may not be blank.', 'name')]);

    const noName = await request(paths.role(role.id), admin.key, 'PUT', { feature_flags_access_level: 21 });
    expect([noName.status, noName.body]).toEqual([400, invalid('required', 'This field is required.', 'name')]);
    const put = await request(paths.role(role.id), admin.key, 'PUT', { name: 'Replaced', feature_flags_access_level: 21 });
    expect([put.status, put.body]).toEqual([200, { ...role, name: 'Replaced', feature_flags_access_level: 21 }]);
  });

  it('lists oldest first, paginated', async () => {
    const own = await organizationWithStaff();
    const names = ['First', 'Second', 'Third'];
    for (const name of names) await steps.createRole(own.world.organization, own.admin.key, { name });
    const all = await request(own.paths.roles, own.member.key);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ count: 3, next: null, previous: null });
    expect(all.body.results.map((r: { name: string }) => r.name)).toEqual(names);

    const first = await request(`${own.paths.roles}?limit=2`, own.member.key);
    expect(first.body.results.map((r: { name: string }) => r.name)).toEqual(['First', 'Second']);
    expect(first.body.next).toBe(`${app.baseUrl}${own.paths.roles}?limit=2&offset=2`);
    expect(first.body.previous).toBeNull();
    const second = await request(`${own.paths.roles}/?limit=2&offset=2`, own.member.key);
    expect(second.body).toMatchObject({ count: 3, next: null, previous: `${app.baseUrl}${own.paths.roles}/?limit=2` });
    expect(second.body.results.map((r: { name: string }) => r.name)).toEqual(['Third']);
    const past = await request(`${own.paths.roles}?offset=10`, own.member.key);
    expect(past.body).toMatchObject({ count: 3, results: [] });
  });

  it('shows members by joining time and associated flags by ascending id', async () => {
    const own = await organizationWithStaff();
    const role = await steps.createRole(own.world.organization, own.admin.key, { name: 'Shown' });
    const joinedFirst = await steps.addMember(own.world.organization, own.admin.key, role.id, own.member.user);
    const joinedSecond = await steps.addMember(own.world.organization, own.admin.key, role.id, own.admin.user);
    const project = own.world.project.id;
    const flagA = await steps.createFlag(project, own.world.owner.key, { key: 'assoc-a' });
    const flagB = await steps.createFlag(project, own.world.owner.key, { key: 'assoc-b' });
    await steps.grant(project, own.world.owner.key, flagB.id, role.id);
    await steps.grant(project, own.world.owner.key, flagA.id, role.id);
    // A flag of another project of the organization counts too.
    const otherProject = await app.factories.project(own.world.organization);
    const flagC = await steps.createFlag(otherProject.id, own.world.owner.key, { key: 'assoc-c' });
    await steps.grant(otherProject.id, own.world.owner.key, flagC.id, role.id);

    const res = await request(own.paths.role(role.id), own.member.key);
    expect(res.body.members).toEqual([joinedFirst, joinedSecond]);
    expect(res.body.members[0]).toEqual({
      id: expect.stringMatching(UUID),
      role_id: role.id,
      user: restUser(own.member.user),
      joined_at: expect.stringMatching(TIMESTAMP),
      updated_at: expect.stringMatching(TIMESTAMP),
    });
    expect(res.body.associated_flags).toEqual([
      { id: flagA.id, key: 'assoc-a' },
      { id: flagB.id, key: 'assoc-b' },
      { id: flagC.id, key: 'assoc-c' },
    ]);
    const listed = await request(own.paths.roles, own.member.key);
    expect(listed.body.results).toEqual([res.body]);
  });

  it('DELETE answers 204 and removes the memberships and role access with the role', async () => {
    const own = await organizationWithStaff();
    const role = await steps.createRole(own.world.organization, own.admin.key, { name: 'Doomed' });
    const keep = await steps.createRole(own.world.organization, own.admin.key, { name: 'Kept' });
    await steps.addMember(own.world.organization, own.admin.key, role.id, own.member.user);
    await steps.addMember(own.world.organization, own.admin.key, keep.id, own.member.user);
    const flag = await steps.createFlag(own.world.project.id, own.world.owner.key, { key: 'with-roles' });
    await steps.grant(own.world.project.id, own.world.owner.key, flag.id, role.id);
    const kept = await steps.grant(own.world.project.id, own.world.owner.key, flag.id, keep.id);

    const res = await request(own.paths.role(role.id), own.admin.key, 'DELETE');
    expect([res.status, res.text]).toEqual([204, '']);
    expect(await app.factories.sql('select count(*)::int as n from role_membership where role_id = ?', [role.id])).toEqual([{ n: 0 }]);
    const access = await request(flagPaths(own.world.project.id).roleAccesses(flag.id), own.admin.key);
    expect(access.body.results.map((r: { id: number }) => r.id)).toEqual([kept.id]);
    expect((await request(own.paths.role(role.id), own.admin.key)).status).toBe(404);
    expect((await request(own.paths.role(role.id), own.admin.key, 'DELETE')).status).toBe(404);
    expect((await request(own.paths.role(keep.id), own.admin.key)).body.members).toHaveLength(1);
  });

  it('answers 404 for unknown and malformed role ids, and for roles of other organizations', async () => {
    const other = await organizationWithStaff();
    const foreign = await steps.createRole(other.world.organization, other.admin.key, { name: 'Foreign' });
    for (const id of [randomUUID(), 'abc', '1', foreign.id]) {
      for (const method of ['GET', 'PATCH', 'PUT', 'DELETE']) {
        const res = await request(paths.role(id), admin.key, method, { name: 'x' });
        expect([id, method, res.status, res.body]).toEqual([id, method, 404, NOT_FOUND]);
      }
    }
    expect((await request(other.paths.role(foreign.id), other.admin.key)).body.name).toBe('Foreign');
  });

  it('checks the role (404) before admin rights (403) on PATCH and DELETE', async () => {
    const patch = await request(paths.role(randomUUID()), member.key, 'PATCH', { name: 'x' });
    expect([patch.status, patch.body]).toEqual([404, NOT_FOUND]);
  });

  it('refuses other methods with 405 and Allow', async () => {
    const onList = await request(paths.roles, admin.key, 'PATCH', {});
    expect([onList.status, onList.body, onList.headers.get('allow')]).toEqual([405, methodNotAllowed('PATCH'), 'GET, POST']);
    const role = await steps.createRole(world.organization, admin.key, { name: 'Posted at' });
    const onRole = await request(paths.role(role.id), admin.key, 'POST', {});
    expect([onRole.status, onRole.body, onRole.headers.get('allow')]).toEqual([405, methodNotAllowed('POST'), 'GET, PATCH, PUT, DELETE']);
  });

  it('answers with and without the trailing slash', async () => {
    const role = await steps.createRole(world.organization, admin.key, { name: 'Slashed' });
    expect((await request(`${paths.roles}/`, member.key)).status).toBe(200);
    expect((await request(`${paths.role(role.id)}/`, member.key)).body.name).toBe('Slashed');
    expect((await request(`${paths.role(role.id)}/`, admin.key, 'PATCH', { name: 'Slashed 2' })).body.name).toBe('Slashed 2');
    expect((await request(`${paths.roles}/`, admin.key, 'POST', { name: 'Posted with slash' })).status).toBe(201);
  });

  it('reads a form body', async () => {
    const res = await app.request(paths.roles, {
      method: 'POST',
      key: admin.key,
      body: 'name=From+a+form&feature_flags_access_level=21',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'From a form', feature_flags_access_level: 21 });
  });

  it.each([
    ['[1]', 'list'],
    ['"text"', 'str'],
    ['5', 'int'],
  ])('refuses a non-object body %s with 400 Invalid data (§1.2), on every write', async (body, type) => {
    const role = await steps.createRole(world.organization, admin.key, { name: `Body ${type}` });
    const record = await steps.setFlagAccessLevel(world.organization, admin.key, 37);
    for (const [method, path] of [
      ['POST', paths.roles],
      ['PATCH', paths.role(role.id)],
      ['PUT', paths.role(role.id)],
      ['POST', paths.memberships(role.id)],
      ['POST', paths.resourceAccesses],
      ['PATCH', paths.resourceAccess(record.id)],
      ['PUT', paths.resourceAccess(record.id)],
    ]) {
      const res = await app.request(path, { method, key: admin.key, body, headers: { 'content-type': 'application/json' } });
      expect([method, path, res.status, res.body]).toEqual([
        method,
        path,
        400,
        invalid('invalid_input', `Invalid data. Expected a dictionary, but got ${type}.`),
      ]);
    }
  });
});

describe('memberships (§5.2)', () => {
  let world: World;
  let admin: Member;
  let member: Member;
  let paths: ReturnType<typeof orgPaths>;
  let role: { id: string };

  beforeAll(async () => {
    ({ world, admin, member, paths } = await organizationWithStaff());
    role = await steps.createRole(world.organization, admin.key, { name: 'Members' });
  });

  it('adds a member: 201 with the membership; the role lists it', async () => {
    const user = (await app.factories.member(world.organization)).user;
    const res = await request(paths.memberships(role.id), admin.key, 'POST', { user_uuid: user.uuid.toUpperCase() });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(UUID),
      role_id: role.id,
      user: restUser(user),
      joined_at: expect.stringMatching(TIMESTAMP),
      updated_at: expect.stringMatching(TIMESTAMP),
    });
    const list = await request(paths.memberships(role.id), member.key);
    expect(list.status).toBe(200);
    expect(list.body.results).toContainEqual(res.body);
    expect((await request(paths.role(role.id), member.key)).body.members).toContainEqual(res.body);
  });

  it('lists by joining time, paginated', async () => {
    const own = await steps.createRole(world.organization, admin.key, { name: 'Ordered' });
    const users = [];
    for (let i = 0; i < 3; i++) users.push((await app.factories.member(world.organization)).user);
    for (const user of users) await steps.addMember(world.organization, admin.key, own.id, user);
    const page = await request(`${paths.memberships(own.id)}?limit=2`, member.key);
    expect(page.body.count).toBe(3);
    expect(page.body.results.map((m: { user: { id: number } }) => m.user.id)).toEqual([users[0].id, users[1].id]);
    expect(page.body.next).toBe(`${app.baseUrl}${paths.memberships(own.id)}?limit=2&offset=2`);
    const rest = await request(`${paths.memberships(own.id)}?limit=2&offset=2`, member.key);
    expect(rest.body.results.map((m: { user: { id: number } }) => m.user.id)).toEqual([users[2].id]);
  });

  it.each([
    ['missing', {}, invalid('required', 'This field is required.', 'user_uuid')],
    ['not a UUID', { user_uuid: 'not-a-uuid' }, invalid('invalid_input', 'Must be a valid UUID.', 'user_uuid')],
    ['a number', { user_uuid: 5 }, invalid('invalid_input', 'Must be a valid UUID.', 'user_uuid')],
    ['null', { user_uuid: null }, invalid('null', 'This field may not be null.', 'user_uuid')],
    ['unknown', { user_uuid: randomUUID() }, invalid('invalid_input', 'User does not exist.')],
  ])('refuses a user_uuid that is %s', async (_case, body, expected) => {
    const res = await request(paths.memberships(role.id), admin.key, 'POST', body);
    expect([res.status, res.body]).toEqual([400, expected]);
  });

  it('refuses users outside the organization, inactive members and duplicates', async () => {
    const outsider = await app.factories.member(null);
    const otherOrg = await app.factories.world();
    for (const user of [outsider.user, otherOrg.owner.user]) {
      const res = await request(paths.memberships(role.id), admin.key, 'POST', { user_uuid: user.uuid });
      expect([res.status, res.body]).toEqual([400, invalid('invalid_input', 'User does not exist.')]);
    }
    const inactive = await app.factories.member(world.organization);
    await app.factories.sql('update app_user set is_active = false where id = ?', [inactive.user.id]);
    const res = await request(paths.memberships(role.id), admin.key, 'POST', { user_uuid: inactive.user.uuid });
    expect([res.status, res.body]).toEqual([400, invalid('invalid_input', 'User does not exist.')]);

    const twice = await app.factories.member(world.organization);
    await steps.addMember(world.organization, admin.key, role.id, twice.user);
    const again = await request(paths.memberships(role.id), admin.key, 'POST', { user_uuid: twice.user.uuid });
    expect([again.status, again.body]).toEqual([400, invalid('invalid_input', 'User is already part of the role.')]);
    const count = await app.factories.sql('select count(*)::int as n from role_membership where role_id = ? and user_id = ?', [
      role.id,
      twice.user.id,
    ]);
    expect(count).toEqual([{ n: 1 }]);
  });

  it('DELETE answers 204, then 404; the user can join again', async () => {
    const user = (await app.factories.member(world.organization)).user;
    const membership = await steps.addMember(world.organization, admin.key, role.id, user);
    const res = await request(paths.membership(role.id, membership.id), admin.key, 'DELETE');
    expect([res.status, res.text]).toEqual([204, '']);
    expect((await request(paths.membership(role.id, membership.id), admin.key, 'DELETE')).status).toBe(404);
    const list = await request(`${paths.memberships(role.id)}?limit=1000`, admin.key);
    expect(list.body.results.map((m: { id: string }) => m.id)).not.toContain(membership.id);
    expect((await request(paths.memberships(role.id), admin.key, 'POST', { user_uuid: user.uuid })).status).toBe(201);
  });

  it('answers 404 for a role of another organization, an unknown role, or a membership of another role', async () => {
    const other = await organizationWithStaff();
    const foreign = await steps.createRole(other.world.organization, other.admin.key, { name: 'Foreign' });
    const foreignMembership = await steps.addMember(other.world.organization, other.admin.key, foreign.id, other.member.user);
    for (const roleId of [foreign.id, randomUUID(), 'abc']) {
      const list = await request(paths.memberships(roleId), admin.key);
      expect([roleId, list.status, list.body]).toEqual([roleId, 404, NOT_FOUND]);
      const post = await request(paths.memberships(roleId), admin.key, 'POST', { user_uuid: member.user.uuid });
      expect([roleId, post.status, post.body]).toEqual([roleId, 404, NOT_FOUND]);
    }
    const viaWrongOrg = await request(paths.membership(foreign.id, foreignMembership.id), admin.key, 'DELETE');
    expect([viaWrongOrg.status, viaWrongOrg.body]).toEqual([404, NOT_FOUND]);
    const viaWrongRole = await request(paths.membership(role.id, foreignMembership.id), admin.key, 'DELETE');
    expect([viaWrongRole.status, viaWrongRole.body]).toEqual([404, NOT_FOUND]);
    for (const id of [randomUUID(), 'abc', '1']) {
      expect((await request(paths.membership(role.id, id), admin.key, 'DELETE')).status).toBe(404);
    }
  });

  it('refuses other methods with 405', async () => {
    const membership = await steps.addMember(world.organization, admin.key, role.id, (await app.factories.member(world.organization)).user);
    for (const method of ['GET', 'PATCH', 'PUT']) {
      const res = await request(paths.membership(role.id, membership.id), admin.key, method, {});
      expect([method, res.status, res.body, res.headers.get('allow')]).toEqual([method, 405, methodNotAllowed(method), 'DELETE']);
    }
    const onList = await request(paths.memberships(role.id), admin.key, 'DELETE');
    expect([onList.status, onList.headers.get('allow')]).toEqual([405, 'GET, POST']);
  });
});

describe('resource access (§5.3)', () => {
  it('creates the feature flags record: 201 with the documented shape', async () => {
    const { world, admin, member, paths } = await organizationWithStaff();
    const res = await request(paths.resourceAccesses, admin.key, 'POST', { resource: 'feature flags', access_level: 21 });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      resource: 'feature flags',
      access_level: 21,
      created_at: expect.stringMatching(TIMESTAMP),
      updated_at: expect.stringMatching(TIMESTAMP),
      created_by: restUser(admin.user),
    });
    const list = await request(paths.resourceAccesses, member.key);
    expect(list.body).toEqual({ count: 1, next: null, previous: null, results: [res.body] });
    expect((await request(paths.resourceAccess(res.body.id), member.key)).body).toEqual(res.body);
    expect((await request(`${flagPaths(world.project.id).flags}`, member.key)).status).toBe(200);
  });

  it('defaults the level to 37', async () => {
    const { admin, paths } = await organizationWithStaff();
    const res = await request(paths.resourceAccesses, admin.key, 'POST', { resource: 'feature flags' });
    expect([res.status, res.body.access_level]).toEqual([201, 37]);
  });

  it.each([
    ['no resource', { access_level: 21 }, invalid('required', 'This field is required.', 'resource')],
    [
      'another resource',
      { resource: 'experiments', access_level: 21 },
      invalid('invalid_choice', '"experiments" is not a valid choice.', 'resource'),
    ],
    [
      'a resource in other case',
      { resource: 'Feature Flags', access_level: 21 },
      invalid('invalid_choice', '"Feature Flags" is not a valid choice.', 'resource'),
    ],
    ['level 5', { resource: 'feature flags', access_level: 5 }, invalid('invalid_choice', '"5" is not a valid choice.', 'access_level')],
    [
      'level text',
      { resource: 'feature flags', access_level: 'view' },
      invalid('invalid_choice', '"view" is not a valid choice.', 'access_level'),
    ],
  ])('refuses %s', async (_case, body, expected) => {
    const { admin, paths } = await organizationWithStaff();
    const res = await request(paths.resourceAccesses, admin.key, 'POST', body);
    expect([res.status, res.body]).toEqual([400, expected]);
    expect((await request(paths.resourceAccesses, admin.key)).body.count).toBe(0);
  });

  it('refuses a second record', async () => {
    const { world, admin, paths } = await organizationWithStaff();
    await steps.setFlagAccessLevel(world.organization, admin.key, 37);
    for (const level of [21, 37]) {
      const res = await request(paths.resourceAccesses, admin.key, 'POST', { resource: 'feature flags', access_level: level });
      expect([res.status, res.body]).toEqual([400, invalid('unique', 'This resource access already exists.', 'resource')]);
    }
    expect((await request(paths.resourceAccesses, admin.key)).body.count).toBe(1);
  });

  it('PATCH and PUT change the level; PUT needs it', async () => {
    const { world, admin, member, paths } = await organizationWithStaff();
    const record = await steps.setFlagAccessLevel(world.organization, admin.key, 37);
    const flag = await steps.createFlag(world.project.id, world.owner.key, { key: 'levelled' });
    const flagPath = flagPaths(world.project.id).flag(flag.id);
    expect((await request(flagPath, member.key)).body.can_edit).toBe(true);

    const patched = await request(paths.resourceAccess(record.id), admin.key, 'PATCH', { access_level: 21 });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: record.id, resource: 'feature flags', access_level: 21, created_at: record.created_at });
    expect((await request(flagPath, member.key)).body.can_edit).toBe(false);

    const bad = await request(paths.resourceAccess(record.id), admin.key, 'PATCH', { access_level: 30 });
    expect([bad.status, bad.body]).toEqual([400, invalid('invalid_choice', '"30" is not a valid choice.', 'access_level')]);
    const otherResource = await request(paths.resourceAccess(record.id), admin.key, 'PATCH', { resource: 'dashboards' });
    expect([otherResource.status, otherResource.body]).toEqual([
      400,
      invalid('invalid_choice', '"dashboards" is not a valid choice.', 'resource'),
    ]);
    const noLevel = await request(paths.resourceAccess(record.id), admin.key, 'PUT', { resource: 'feature flags' });
    expect([noLevel.status, noLevel.body]).toEqual([400, invalid('required', 'This field is required.', 'access_level')]);

    const put = await request(paths.resourceAccess(record.id), admin.key, 'PUT', { resource: 'feature flags', access_level: 37 });
    expect([put.status, put.body.access_level]).toEqual([200, 37]);
    expect((await request(flagPath, member.key)).body.can_edit).toBe(true);
  });

  it('DELETE answers 204 and restores level 37 for everyone; a new record may then be created', async () => {
    const { world, admin, member, paths } = await organizationWithStaff();
    const record = await steps.setFlagAccessLevel(world.organization, admin.key, 21);
    const flag = await steps.createFlag(world.project.id, world.owner.key, { key: 'restored' });
    const flagPath = flagPaths(world.project.id).flag(flag.id);
    const patch = await request(flagPath, member.key, 'PATCH', { name: 'not yet' });
    expect(patch.status).toBe(403);

    const res = await request(paths.resourceAccess(record.id), admin.key, 'DELETE');
    expect([res.status, res.text]).toEqual([204, '']);
    expect((await request(paths.resourceAccess(record.id), admin.key)).status).toBe(404);
    expect((await request(paths.resourceAccesses, admin.key)).body.count).toBe(0);
    expect((await request(flagPath, member.key)).body.can_edit).toBe(true);
    expect((await request(flagPath, member.key, 'PATCH', { name: 'now' })).status).toBe(200);
    // Roles created now default to 37 again.
    expect((await steps.createRole(world.organization, admin.key, { name: 'After delete' })).feature_flags_access_level).toBe(37);
    expect((await request(paths.resourceAccesses, admin.key, 'POST', { resource: 'feature flags', access_level: 21 })).status).toBe(201);
  });

  it("answers 404 for unknown, malformed and other organizations' records", async () => {
    const { admin, paths } = await organizationWithStaff();
    const other = await organizationWithStaff();
    const foreign = await steps.setFlagAccessLevel(other.world.organization, other.admin.key, 21);
    for (const id of [String(foreign.id), '999999', 'abc', '0', '99999999999']) {
      for (const method of ['GET', 'PATCH', 'PUT', 'DELETE']) {
        const res = await request(paths.resourceAccess(id), admin.key, method, { access_level: 37 });
        expect([id, method, res.status, res.body]).toEqual([id, method, 404, NOT_FOUND]);
      }
    }
    expect((await request(other.paths.resourceAccess(foreign.id), other.admin.key)).body.access_level).toBe(21);
  });

  it('refuses other methods with 405', async () => {
    const { admin, paths } = await organizationWithStaff();
    const onList = await request(paths.resourceAccesses, admin.key, 'PUT', {});
    expect([onList.status, onList.body, onList.headers.get('allow')]).toEqual([405, methodNotAllowed('PUT'), 'GET, POST']);
  });
});

describe('who may read and write (§5, §2.3)', () => {
  let world: World;
  let admin: Member;
  let member: Member;
  let paths: ReturnType<typeof orgPaths>;
  let role: { id: string };
  let membership: { id: string };
  let record: { id: number };

  beforeAll(async () => {
    ({ world, admin, member, paths } = await organizationWithStaff());
    role = await steps.createRole(world.organization, admin.key, { name: 'Guarded' });
    membership = await steps.addMember(world.organization, admin.key, role.id, member.user);
    record = await steps.setFlagAccessLevel(world.organization, admin.key, 37);
  });

  const writes = () =>
    [
      ['POST', paths.roles, { name: 'By a member' }],
      ['PATCH', paths.role(role.id), { name: 'Renamed' }],
      ['PUT', paths.role(role.id), { name: 'Renamed' }],
      ['DELETE', paths.role(role.id), undefined],
      ['POST', paths.memberships(role.id), { user_uuid: admin.user.uuid }],
      ['DELETE', paths.membership(role.id, membership.id), undefined],
      ['POST', paths.resourceAccesses, { resource: 'feature flags', access_level: 21 }],
      ['PATCH', paths.resourceAccess(record.id), { access_level: 21 }],
      ['PUT', paths.resourceAccess(record.id), { resource: 'feature flags', access_level: 21 }],
      ['DELETE', paths.resourceAccess(record.id), undefined],
    ] as const;

  const reads = () => [
    paths.roles,
    paths.role(role.id),
    paths.memberships(role.id),
    paths.resourceAccesses,
    paths.resourceAccess(record.id),
  ];

  it('lets any member read', async () => {
    for (const path of reads()) {
      const res = await request(path, member.key);
      expect([path, res.status]).toEqual([path, 200]);
    }
  });

  it('refuses every write by a plain member, changing nothing', async () => {
    for (const [method, path, body] of writes()) {
      const res = await request(path, member.key, method, body);
      expect([method, path, res.status, res.body]).toEqual([method, path, 403, NEED_ADMIN]);
    }
    // Validation comes after the permission: an invalid body by a member is still 403.
    const invalidBody = await request(paths.roles, member.key, 'POST', {});
    expect([invalidBody.status, invalidBody.body]).toEqual([403, NEED_ADMIN]);
    const roleNow = (await request(paths.role(role.id), member.key)).body;
    expect(roleNow).toMatchObject({ name: 'Guarded', members: [{ id: membership.id }] });
    expect((await request(paths.resourceAccess(record.id), member.key)).body.access_level).toBe(37);
    expect((await request(paths.roles, member.key)).body.count).toBe(1);
  });

  it('lets admins and owners write', async () => {
    for (const writer of [admin, world.owner]) {
      const created = await request(paths.roles, writer.key, 'POST', { name: `By ${writer.user.email}` });
      expect(created.status).toBe(201);
      expect((await request(paths.role(created.body.id), writer.key, 'DELETE')).status).toBe(204);
    }
    const patched = await request(paths.resourceAccess(record.id), world.owner.key, 'PATCH', { access_level: 37 });
    expect(patched.status).toBe(200);
  });

  it("refuses users outside the organization: 403 You don't belong to the organization.", async () => {
    const outsider = await app.factories.member(null);
    const otherAdmin = (await organizationWithStaff()).admin;
    for (const caller of [outsider, otherAdmin]) {
      for (const path of reads()) {
        const res = await request(path, caller.key);
        expect([path, res.status, res.body]).toEqual([path, 403, NOT_IN_ORGANIZATION]);
      }
      for (const [method, path, body] of writes()) {
        const res = await request(path, caller.key, method, body);
        expect([method, path, res.status, res.body]).toEqual([method, path, 403, NOT_IN_ORGANIZATION]);
      }
    }
  });

  it('answers 404 Organization not found. for unknown or malformed organization ids, whoever asks', async () => {
    for (const organizationId of [randomUUID(), 'abc', '1']) {
      const unknown = orgPaths(organizationId);
      for (const [method, path, body] of [
        ['GET', unknown.roles, undefined],
        ['POST', unknown.roles, { name: 'x' }],
        ['GET', unknown.memberships(role.id), undefined],
        ['GET', unknown.resourceAccesses, undefined],
        ['DELETE', unknown.resourceAccess(record.id), undefined],
      ] as const) {
        const res = await request(path, admin.key, method, body);
        expect([path, res.status, res.body]).toEqual([path, 404, ORGANIZATION_NOT_FOUND]);
      }
    }
  });

  it("resolves @current to the current project's organization", async () => {
    const current = orgPaths('@current');
    const list = await request(current.roles, member.key);
    expect(list.status).toBe(200);
    expect(list.body.results.map((r: { id: string }) => r.id)).toContain(role.id);
    expect((await request(`${current.roles}/`, member.key)).status).toBe(200);
    expect((await request(current.role(role.id), member.key)).body.name).toBe('Guarded');
    expect((await request(current.resourceAccesses, member.key)).body.count).toBe(1);
    const created = await request(current.roles, admin.key, 'POST', { name: 'Via current' });
    expect(created.status).toBe(201);
    expect((await request(paths.role(created.body.id), admin.key)).status).toBe(200);
    // Someone without a current project: no organization to resolve.
    const outsider = await app.factories.member(null);
    const none = await request(current.roles, outsider.key);
    expect([none.status, none.body]).toEqual([404, ORGANIZATION_NOT_FOUND]);
  });

  it('authenticates first', async () => {
    const none = await app.request(paths.roles);
    expect([none.status, none.body.code, none.headers.get('www-authenticate')]).toEqual([401, 'not_authenticated', 'Bearer']);
    const wrong = await app.request(paths.roles, { key: 'phx_wrong' });
    expect([wrong.status, wrong.body.code]).toEqual([401, 'authentication_failed']);
    const unknownOrg = await app.request(orgPaths(randomUUID()).roles);
    expect(unknownOrg.status).toBe(401);
  });
});

describe('keys and scopes on organization routes (§2.3, §2.4)', () => {
  let world: World;
  let paths: ReturnType<typeof orgPaths>;
  let role: { id: string };

  beforeAll(async () => {
    world = await app.factories.world();
    paths = orgPaths(world.organization);
    role = await steps.createRole(world.organization, world.owner.key, { name: 'Scoped' });
  });

  const keyFor = (options: Parameters<TestApp['factories']['member']>[2], level: 'member' | 'admin' = 'admin') =>
    app.factories.member(world.organization, level, options);

  it("refuses a key limited to projects, even for its own project's organization", async () => {
    const scoped = await keyFor({ projects: [world.project.id] });
    const expected = forbidden('API keys with scoped projects are only supported on project-based endpoints.');
    for (const path of [paths.roles, orgPaths('@current').roles, paths.role(role.id), paths.resourceAccesses]) {
      const res = await request(path, scoped.key);
      expect([path, res.status, res.body]).toEqual([path, 403, expected]);
    }
    const write = await request(paths.roles, scoped.key, 'POST', { name: 'x' });
    expect([write.status, write.body]).toEqual([403, expected]);
    // The project route itself still works.
    expect((await request(flagPaths(world.project.id).flags, scoped.key)).status).toBe(200);
    // The organization is resolved first (404 before 403).
    const unknown = await request(orgPaths(randomUUID()).roles, scoped.key);
    expect([unknown.status, unknown.body]).toEqual([404, ORGANIZATION_NOT_FOUND]);
  });

  it('refuses an organization outside scoped_organizations, naming it', async () => {
    const other = await app.factories.world();
    const scoped = await keyFor({ organizations: [other.organization.id] });
    const res = await request(paths.roles, scoped.key);
    expect([res.status, res.body]).toEqual([
      403,
      forbidden(`API key does not have access to the requested organization: ID ${world.organization.id}.`),
    ]);
    const allowed = await keyFor({ organizations: [world.organization.id] });
    expect((await request(paths.roles, allowed.key)).status).toBe(200);
  });

  it('needs organization:read to read and organization:write to write', async () => {
    const reader = await keyFor({ scopes: ['organization:read'] });
    expect((await request(paths.roles, reader.key)).status).toBe(200);
    expect((await request(paths.memberships(role.id), reader.key)).status).toBe(200);
    expect((await request(paths.resourceAccesses, reader.key)).status).toBe(200);
    for (const [method, path, body] of [
      ['POST', paths.roles, { name: 'x' }],
      ['PATCH', paths.role(role.id), { name: 'x' }],
      ['DELETE', paths.role(role.id), undefined],
      ['POST', paths.memberships(role.id), { user_uuid: reader.user.uuid }],
      ['POST', paths.resourceAccesses, { resource: 'feature flags' }],
    ] as const) {
      const res = await request(path, reader.key, method, body);
      expect([method, path, res.status, res.body]).toEqual([method, path, 403, missingScope('organization:write')]);
    }

    const writer = await keyFor({ scopes: ['organization:write'] });
    expect((await request(paths.roles, writer.key)).status).toBe(200);
    const created = await request(paths.roles, writer.key, 'POST', { name: 'By a writer' });
    expect(created.status).toBe(201);

    const flagsOnly = await keyFor({ scopes: ['feature_flag:write'] });
    const refused = await request(paths.roles, flagsOnly.key);
    expect([refused.status, refused.body]).toEqual([403, missingScope('organization:read')]);
    const refusedWrite = await request(paths.roles, flagsOnly.key, 'POST', { name: 'x' });
    expect([refusedWrite.status, refusedWrite.body]).toEqual([403, missingScope('organization:write')]);

    for (const scopes of [['*'], []]) {
      const any = await keyFor({ scopes });
      expect((await request(paths.roles, any.key)).status).toBe(200);
    }
  });

  it('checks the scope before membership and before the admin check', async () => {
    const outsider = await app.factories.member(null, 'member', { scopes: ['organization:read'] });
    const res = await request(paths.roles, outsider.key, 'POST', { name: 'x' });
    expect([res.status, res.body]).toEqual([403, missingScope('organization:write')]);
    const memberReader = await keyFor({ scopes: ['organization:read'] }, 'member');
    const write = await request(paths.roles, memberReader.key, 'POST', { name: 'x' });
    expect(write.body).toEqual(missingScope('organization:write'));
  });
});

describe('errors never 500', () => {
  it('answers odd values with 400s', async () => {
    const { world, admin, paths } = await organizationWithStaff();
    const role = await steps.createRole(world.organization, admin.key, { name: 'Odd' });
    const bodies: Array<[string, unknown]> = [
      [paths.roles, { name: { a: 1 } }],
      [paths.roles, { name: 'x', feature_flags_access_level: [37] }],
      [paths.roles, { name: 'x', feature_flags_access_level: null }],
      [paths.roles, { name: 'x', feature_flags_access_level: 37.5 }],
      [paths.roles, { name: 'nul\u0000' }],
      [paths.memberships(role.id), { user_uuid: ['a'] }],
      [paths.memberships(role.id), { user_uuid: {} }],
      [paths.memberships(role.id), [1]],
      [paths.resourceAccesses, { resource: null }],
      [paths.resourceAccesses, { resource: ['feature flags'] }],
      [paths.resourceAccesses, { resource: 'feature flags', access_level: {} }],
      [paths.resourceAccesses, 'null'],
    ];
    for (const [path, body] of bodies) {
      const res = await request(path, admin.key, 'POST', body);
      expect([path, body, res.status, res.body.type]).toEqual([path, body, 400, 'validation_error']);
    }
    const bad = await app.request(paths.roles, {
      method: 'POST',
      key: admin.key,
      body: '{bad',
      headers: { 'content-type': 'application/json' },
    });
    expect([bad.status, bad.body]).toEqual([
      400,
      err('invalid_request', 'parse_error', 'JSON parse error - request body is not valid JSON.'),
    ]);
  });
});

describe('concurrent duplicates (never 500)', () => {
  const race = async (n: number, send: () => Promise<{ status: number; body: any }>) => {
    const answers = await Promise.all(Array.from({ length: n }, send));
    return answers;
  };

  it('one of several identical membership POSTs wins; the others hear "User is already part of the role."', async () => {
    const { world, admin, member, paths } = await organizationWithStaff();
    const role = await steps.createRole(world.organization, admin.key, { name: 'Raced' });
    const answers = await race(8, () => request(paths.memberships(role.id), admin.key, 'POST', { user_uuid: member.user.uuid }));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 400, 400, 400, 400, 400, 400, 400]);
    for (const answer of answers.filter((a) => a.status === 400)) {
      expect(answer.body).toEqual(invalid('invalid_input', 'User is already part of the role.'));
    }
  });

  it('one of several resource-access POSTs wins; the others hear unique', async () => {
    const { admin, paths } = await organizationWithStaff();
    const answers = await race(8, () =>
      request(paths.resourceAccesses, admin.key, 'POST', { resource: 'feature flags', access_level: 21 }),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 400, 400, 400, 400, 400, 400, 400]);
    for (const answer of answers.filter((a) => a.status === 400)) {
      expect(answer.body).toEqual(invalid('unique', 'This resource access already exists.', 'resource'));
    }
  });

  it('one of several roles with the same name wins', async () => {
    const { admin, paths } = await organizationWithStaff();
    const answers = await race(8, () => request(paths.roles, admin.key, 'POST', { name: 'Same' }));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 400, 400, 400, 400, 400, 400, 400]);
    for (const answer of answers.filter((a) => a.status === 400)) {
      expect(answer.body).toEqual(invalid('unique', 'There is already a role with this name.', 'name'));
    }
  });

  it('one of several grants of the same role to a flag wins', async () => {
    const { world, admin } = await organizationWithStaff();
    const role = await steps.createRole(world.organization, admin.key, { name: 'Granted once' });
    const flag = await steps.createFlag(world.project.id, admin.key, { key: 'raced-flag' });
    const path = flagPaths(world.project.id).roleAccesses(flag.id);
    const answers = await race(8, () => request(path, admin.key, 'POST', { role_id: role.id }));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 400, 400, 400, 400, 400, 400, 400]);
    for (const answer of answers.filter((a) => a.status === 400)) {
      expect(answer.body).toEqual(invalid('unique', 'This role already has access to this feature flag.', 'role_id'));
    }
  });
});
