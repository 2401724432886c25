import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers/test-app';
import type { Member, World } from '../helpers/factories';
import {
  CANNOT_EDIT_FLAG,
  CANNOT_EDIT_ROLES,
  flagPaths,
  forbidden,
  invalid,
  methodNotAllowed,
  missingScope,
  NOT_FOUND,
  orgPaths,
  roleSteps,
  TIMESTAMP,
} from '../helpers/roles';

/**
 * docs/rest-api.md §5.4: a flag's role-access records under `/feature_flags/:id/role_access`: who may
 * grant them, what they grant, and their list, delete and errors. The organization's flag access level is 21 throughout (set by an admin
 * after creating Engineering and Marketing), so the records matter.
 */

let app: TestApp;
let steps: ReturnType<typeof roleSteps>;
let world: World;
let admin: Member;
/** U: an organization member (level 1) with scopes ["*"], the creator of the red_button flag. */
let u: Member;
let engineering: any;
let marketing: any;
let redButton: any;
let paths: ReturnType<typeof flagPaths>;
let org: ReturnType<typeof orgPaths>;

const request = (path: string, key: string, method = 'GET', body?: unknown) =>
  app.request(path, { method, key, body: method === 'GET' ? undefined : body });
const post = (flagId: number | string, key: string, body: unknown) => request(paths.roleAccesses(flagId), key, 'POST', body);

let serial = 0;
const flagBy = (member: Member, body: Record<string, unknown> = {}) =>
  steps.createFlag(world.project.id, member.key, { key: `flag-${++serial}`, ...body });
const roleNamed = (name: string, level?: 21 | 37) =>
  steps.createRole(world.organization, admin.key, level ? { name, feature_flags_access_level: level } : { name });

beforeAll(async () => {
  app = await startTestApp();
  steps = roleSteps(app);
  world = await app.factories.world();
  admin = await app.factories.member(world.organization, 'admin');
  u = await app.factories.member(world.organization, 'member', { scopes: ['*'] });
  paths = flagPaths(world.project.id);
  org = orgPaths(world.organization);
  engineering = await roleNamed('Engineering');
  marketing = await roleNamed('Marketing');
  await steps.setFlagAccessLevel(world.organization, admin.key, 21);
  redButton = await steps.createFlag(world.project.id, u.key, { key: 'red_button' });
});
afterAll(() => app.close());

describe('a role deleted while it is being granted or joined', () => {
  it('answers each grant and membership with 201 or the role gone, never 500, and leaves nothing of the role behind', async () => {
    const flag = await flagBy(world.owner);
    const joiner = await app.factories.member(world.organization);
    for (let round = 0; round < 20; round++) {
      const role = await roleNamed(`Doomed ${round}`);
      const [granted, joined, deleted] = await Promise.all([
        post(flag.id, admin.key, { role_id: role.id }),
        request(org.memberships(role.id), admin.key, 'POST', { user_uuid: joiner.user.uuid }),
        new Promise((resolve) => setTimeout(resolve, round % 5)).then(() => request(org.role(role.id), admin.key, 'DELETE')),
      ]);
      const unexpected = (res: { status: number; body: unknown }, allowed: number[]) =>
        allowed.includes(res.status) ? null : { round, allowed, status: res.status, body: res.body };
      expect(deleted.status).toBe(204);
      // 404: the grant was made, then the role's delete removed it before the answer read it back.
      expect(unexpected(granted, [201, 400, 404])).toBeNull();
      expect(unexpected(joined, [201, 404])).toBeNull();
    }
    const grants = await request(paths.roleAccesses(flag.id), admin.key);
    expect(grants.body.results).toEqual([]);
  });
});

describe('role access on one flag, step by step', () => {
  it('the creator (a member without roles) grants a role: 201 with the role and the flag', async () => {
    expect(engineering.feature_flags_access_level).toBe(37);
    const res = await post(redButton.id, u.key, { role_id: engineering.id });
    expect(res.status).toBe(201);
    expect(res.body.role.name).toBe('Engineering');
    expect(res.body.feature_flag.id).toBe(redButton.id);
    expect(res.body.role.associated_flags).toContainEqual({ id: redButton.id, key: 'red_button' });
    expect((await request(org.role(engineering.id), u.key)).body.associated_flags).toContainEqual({ id: redButton.id, key: 'red_button' });
  });

  it('members without rights are refused; a level-37 role or admin rights allow it', async () => {
    const m = await app.factories.member(world.organization);
    const orphan = await flagBy(world.owner);
    await app.factories.sql('update feature_flag set created_by_id = null where id = ?', [orphan.id]);
    const byOwner = await flagBy(world.owner);

    const noCreator = await post(orphan.id, m.key, { role_id: marketing.id });
    expect([noCreator.status, noCreator.body]).toEqual([403, CANNOT_EDIT_ROLES]);
    const othersFlag = await post(byOwner.id, m.key, { role_id: marketing.id });
    expect(othersFlag.status).toBe(403);
    expect(othersFlag.body).toEqual({
      type: 'authentication_error',
      code: 'permission_denied',
      detail: "You can't edit roles for this feature flag.",
      attr: null,
    });

    await steps.addMember(world.organization, admin.key, engineering.id, m.user);
    const inLevel37Role = await post(byOwner.id, m.key, { role_id: marketing.id });
    expect(inLevel37Role.status).toBe(201);

    const otherAdmin = await app.factories.member(world.organization, 'admin');
    const byAdmin = await post(orphan.id, otherAdmin.key, { role_id: marketing.id });
    expect(byAdmin.status).toBe(201);
    await steps.setMembershipLevel(world.organization, otherAdmin.user, 1);
    const demoted = await post(orphan.id, otherAdmin.key, { role_id: engineering.id });
    expect([demoted.status, demoted.body]).toEqual([403, CANNOT_EDIT_ROLES]);
  });

  it('a level-21 role with role access to the flag gives edit rights', async () => {
    const m = await app.factories.member(world.organization);
    const flag = await flagBy(world.owner);
    const flagPath = paths.flag(flag.id);
    expect((await request(flagPath, m.key)).body.can_edit).toBe(false);
    const refused = await request(flagPath, m.key, 'PATCH', { name: 'by m' });
    expect([refused.status, refused.body]).toEqual([403, CANNOT_EDIT_FLAG]);

    const viewers = await roleNamed('Level-21 viewers', 21);
    expect(viewers.feature_flags_access_level).toBe(21);
    await steps.addMember(world.organization, admin.key, viewers.id, m.user);
    // Joining a level-21 role alone changes nothing.
    expect((await request(flagPath, m.key)).body.can_edit).toBe(false);
    await steps.grant(world.project.id, admin.key, flag.id, viewers.id);
    expect((await request(flagPath, m.key)).body.can_edit).toBe(true);
    const allowed = await request(flagPath, m.key, 'PATCH', { name: 'by m' });
    expect([allowed.status, allowed.body.name, allowed.body.can_edit]).toEqual([200, 'by m', true]);
  });

  it("a role's level changed through the API shows in the member's next read, though the member's standing is remembered", async () => {
    const m = await app.factories.member(world.organization);
    const flag = await flagBy(world.owner);
    const editors = await roleNamed('Soon editors', 21);
    await steps.addMember(world.organization, admin.key, editors.id, m.user);
    // This read remembers m's standing (role level 21) for a second on the app's clock, which stands still here.
    expect((await request(paths.flag(flag.id), m.key)).body.can_edit).toBe(false);
    const raised = await request(org.role(editors.id), admin.key, 'PATCH', { feature_flags_access_level: 37 });
    expect(raised.status).toBe(200);
    expect((await request(paths.flag(flag.id), m.key)).body.can_edit).toBe(true);
    expect((await request(org.role(editors.id), admin.key, 'DELETE')).status).toBe(204);
    expect((await request(paths.flag(flag.id), m.key)).body.can_edit).toBe(false);
  });

  it("a member taken out of a role through the API loses its rights in the member's next read", async () => {
    const m = await app.factories.member(world.organization);
    const flag = await flagBy(world.owner);
    const editors = await roleNamed('Editors for a moment', 37);
    const membership = await steps.addMember(world.organization, admin.key, editors.id, m.user);
    expect((await request(paths.flag(flag.id), m.key)).body.can_edit).toBe(true);
    expect((await request(org.membership(editors.id, membership.id), admin.key, 'DELETE')).status).toBe(204);
    expect((await request(paths.flag(flag.id), m.key)).body.can_edit).toBe(false);
  });

  it('lists and deletes records, answers 405 to PATCH, and refuses bad POSTs', async () => {
    const flag = await flagBy(u);
    const first = await post(flag.id, u.key, { role_id: engineering.id });
    const second = await post(flag.id, u.key, { role_id: marketing.id });
    expect([first.status, second.status]).toEqual([201, 201]);

    const page = await request(`${paths.roleAccesses(flag.id)}?limit=1`, u.key);
    expect(page.status).toBe(200);
    expect(page.body).toEqual({
      count: 2,
      next: `${app.baseUrl}${paths.roleAccesses(flag.id)}?limit=1&offset=1`,
      previous: null,
      results: [first.body],
    });
    expect(page.body.results[0].role).toMatchObject({ id: engineering.id, name: 'Engineering' });
    expect(page.body.results[0].feature_flag).toMatchObject({ id: flag.id, key: flag.key });

    const deleted = await request(paths.roleAccess(flag.id, first.body.id), u.key, 'DELETE');
    expect([deleted.status, deleted.text]).toEqual([204, '']);
    const gone = await request(paths.roleAccess(flag.id, first.body.id), u.key);
    expect([gone.status, gone.body]).toEqual([404, NOT_FOUND]);
    const patch = await request(paths.roleAccess(flag.id, second.body.id), u.key, 'PATCH', { role_id: engineering.id });
    expect([patch.status, patch.body]).toEqual([405, methodNotAllowed('PATCH')]);

    const twice = await post(flag.id, u.key, { role_id: marketing.id });
    expect([twice.status, twice.body]).toEqual([400, invalid('unique', 'This role already has access to this feature flag.', 'role_id')]);
    const unknownId = randomUUID();
    const unknown = await post(flag.id, u.key, { role_id: unknownId });
    expect([unknown.status, unknown.body]).toEqual([
      400,
      invalid('does_not_exist', `Invalid pk "${unknownId}" - object does not exist.`, 'role_id'),
    ]);
    const other = await app.factories.world();
    const foreign = await steps.createRole(other.organization, other.owner.key, { name: 'Engineering' });
    const otherOrg = await post(flag.id, u.key, { role_id: foreign.id });
    expect([otherOrg.status, otherOrg.body]).toEqual([
      400,
      invalid('does_not_exist', `Invalid pk "${foreign.id}" - object does not exist.`, 'role_id'),
    ]);
    const missing = await post(flag.id, u.key, {});
    expect([missing.status, missing.body]).toEqual([400, invalid('required', 'This field is required.', 'role_id')]);
    const noParent = await post(999999, u.key, { role_id: engineering.id });
    expect([noParent.status, noParent.body]).toEqual([404, NOT_FOUND]);
  });
});

describe('the record (§5.4)', () => {
  it('is {id, feature_flag, role, added_at, updated_at} with the full flag and role', async () => {
    const flag = await flagBy(u);
    const role = await roleNamed('Shape', 21);
    const joined = await steps.addMember(world.organization, admin.key, role.id, u.user);
    const res = await post(flag.id, u.key, { role_id: role.id });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['added_at', 'feature_flag', 'id', 'role', 'updated_at']);
    expect(res.body).toEqual({
      id: expect.any(Number),
      feature_flag: (await request(paths.flag(flag.id), u.key)).body,
      role: (await request(org.role(role.id), u.key)).body,
      added_at: expect.stringMatching(TIMESTAMP),
      updated_at: expect.stringMatching(TIMESTAMP),
    });
    expect(res.body.role.members).toEqual([joined]);
    expect(res.body.role.associated_flags).toEqual([{ id: flag.id, key: flag.key }]);
    expect(res.body.feature_flag).toMatchObject({ id: flag.id, key: flag.key, can_edit: true, created_by: { id: u.user.id } });
    const retrieved = await request(paths.roleAccess(flag.id, res.body.id), u.key);
    expect([retrieved.status, retrieved.body]).toEqual([200, res.body]);
    expect((await request(`${paths.roleAccess(flag.id, res.body.id)}/`, u.key)).body).toEqual(res.body);
  });

  it("shows the flag's can_edit for the caller", async () => {
    const flag = await flagBy(world.owner);
    const readers = await roleNamed('Readers', 21);
    const record = await steps.grant(world.project.id, admin.key, flag.id, readers.id);
    const outsiderToRole = await app.factories.member(world.organization);
    expect(record.feature_flag.can_edit).toBe(true);
    const asMember = await request(paths.roleAccess(flag.id, record.id), outsiderToRole.key);
    expect(asMember.status).toBe(200);
    expect(asMember.body.feature_flag.can_edit).toBe(false);
    const listed = await request(paths.roleAccesses(flag.id), outsiderToRole.key);
    expect(listed.body.results.map((r: any) => r.feature_flag.can_edit)).toEqual([false]);
    // In the role with the record, the same member may edit.
    await steps.addMember(world.organization, admin.key, readers.id, outsiderToRole.user);
    expect((await request(paths.roleAccess(flag.id, record.id), outsiderToRole.key)).body.feature_flag.can_edit).toBe(true);
  });
});

describe('list and retrieve (§5.4)', () => {
  it("lists only this flag's records, by added_at then id, paginated; other query parameters are ignored", async () => {
    const a = await flagBy(u);
    const b = await flagBy(u);
    const roles = [engineering, marketing, await roleNamed('Third on A', 21)];
    const onA = [];
    for (const role of roles) onA.push((await post(a.id, u.key, { role_id: role.id })).body);
    const onB = (await post(b.id, u.key, { role_id: engineering.id })).body;

    const list = await request(`${paths.roleAccesses(a.id)}?search=zzz&role_id=${engineering.id}&limit=10`, u.key);
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(3);
    expect(list.body.results.map((r: any) => r.id)).toEqual(onA.map((r) => r.id));
    expect(list.body.results.every((r: any) => r.feature_flag.id === a.id)).toBe(true);
    const listB = await request(paths.roleAccesses(b.id), u.key);
    expect(listB.body).toEqual({ count: 1, next: null, previous: null, results: [onB] });

    const second = await request(`${paths.roleAccesses(a.id)}/?limit=1&offset=1`, u.key);
    expect(second.body.results.map((r: any) => r.id)).toEqual([onA[1].id]);
    expect(second.body.previous).toBe(`${app.baseUrl}${paths.roleAccesses(a.id)}/?limit=1`);
    expect(second.body.next).toBe(`${app.baseUrl}${paths.roleAccesses(a.id)}/?limit=1&offset=2`);
    const empty = await request(paths.roleAccesses((await flagBy(u)).id), u.key);
    expect(empty.body).toEqual({ count: 0, next: null, previous: null, results: [] });
  });

  it('answers 404 for a record under another flag, unknown or malformed ids, and flags of other projects', async () => {
    const a = await flagBy(u);
    const b = await flagBy(u);
    const onA = (await post(a.id, u.key, { role_id: engineering.id })).body;
    for (const method of ['GET', 'DELETE']) {
      const res = await request(paths.roleAccess(b.id, onA.id), u.key, method);
      expect([method, res.status, res.body]).toEqual([method, 404, NOT_FOUND]);
    }
    for (const id of ['999999', 'abc', '0', '99999999999']) {
      for (const method of ['GET', 'DELETE']) {
        const res = await request(paths.roleAccess(a.id, id), u.key, method);
        expect([id, method, res.status, res.body]).toEqual([id, method, 404, NOT_FOUND]);
      }
    }
    for (const flagId of ['999999', 'abc', '0']) {
      expect((await request(paths.roleAccesses(flagId), u.key)).status).toBe(404);
      expect((await request(paths.roleAccess(flagId, onA.id), u.key)).status).toBe(404);
      expect((await post(flagId, u.key, { role_id: engineering.id })).status).toBe(404);
    }
    // The same flag id under another project of the organization, and another organization's flag.
    const otherProject = await app.factories.project(world.organization);
    const elsewhere = flagPaths(otherProject.id);
    expect((await request(elsewhere.roleAccesses(a.id), u.key)).status).toBe(404);
    expect((await request(elsewhere.roleAccess(a.id, onA.id), u.key)).status).toBe(404);
    const other = await app.factories.world();
    const foreignFlag = await steps.createFlag(other.project.id, other.owner.key, { key: 'foreign' });
    expect((await request(paths.roleAccesses(foreignFlag.id), u.key)).status).toBe(404);
    expect((await request(paths.roleAccess(a.id, onA.id), u.key)).status).toBe(200);
  });

  it('works under a soft-deleted parent flag', async () => {
    const flag = await flagBy(u);
    const kept = (await post(flag.id, u.key, { role_id: engineering.id })).body;
    expect((await request(paths.flag(flag.id), u.key, 'PATCH', { deleted: true })).status).toBe(200);
    expect((await request(paths.roleAccesses(flag.id), u.key)).body.results.map((r: any) => r.id)).toEqual([kept.id]);
    const retrieved = await request(paths.roleAccess(flag.id, kept.id), u.key);
    expect([retrieved.status, retrieved.body.feature_flag.deleted]).toEqual([200, true]);
    const added = await post(flag.id, u.key, { role_id: marketing.id });
    expect(added.status).toBe(201);
    expect((await request(paths.roleAccess(flag.id, kept.id), u.key, 'DELETE')).status).toBe(204);
    expect((await request(paths.roleAccesses(flag.id), u.key)).body.count).toBe(1);
  });
});

describe('create and delete (§5.4)', () => {
  it('accepts an upper-case role id', async () => {
    const flag = await flagBy(u);
    const res = await post(flag.id, u.key, { role_id: engineering.id.toUpperCase() });
    expect([res.status, res.body.role.id]).toEqual([201, engineering.id]);
  });

  it.each([
    ['malformed', { role_id: 'abc' }, 'abc'],
    ['a number', { role_id: 5 }, '5'],
    ['a float', { role_id: 1.5 }, '1.5'],
    ['a boolean', { role_id: true }, 'True'],
    ['a list', { role_id: ['x'] }, "['x']"],
    ['an object', { role_id: { id: 'x' } }, "{'id': 'x'}"],
    ['an empty string', { role_id: '' }, ''],
  ])('refuses a role_id that is %s with 400 does_not_exist', async (_case, body, shown) => {
    const flag = await flagBy(u);
    const res = await post(flag.id, u.key, body);
    expect([res.status, res.body]).toEqual([400, invalid('does_not_exist', `Invalid pk "${shown}" - object does not exist.`, 'role_id')]);
    expect((await request(paths.roleAccesses(flag.id), u.key)).body.count).toBe(0);
  });

  it('refuses a null role_id with a 400 on role_id', async () => {
    const flag = await flagBy(u);
    const res = await post(flag.id, u.key, { role_id: null });
    expect([res.status, res.body.type, res.body.attr]).toEqual([400, 'validation_error', 'role_id']);
  });

  it.each([
    ['[1]', 'list'],
    ['["role_id"]', 'list'],
    ['"text"', 'str'],
    ['5', 'int'],
  ])('refuses the non-object body %s with 400 Invalid data (§1.2)', async (body, type) => {
    const flag = await flagBy(u);
    const res = await app.request(paths.roleAccesses(flag.id), {
      method: 'POST',
      key: u.key,
      body,
      headers: { 'content-type': 'application/json' },
    });
    expect([res.status, res.body]).toEqual([400, invalid('invalid_input', `Invalid data. Expected a dictionary, but got ${type}.`)]);
  });

  it('reads a form body', async () => {
    const flag = await flagBy(u);
    const res = await app.request(paths.roleAccesses(flag.id), {
      method: 'POST',
      key: u.key,
      body: `role_id=${engineering.id}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect([res.status, res.body.role?.id]).toEqual([201, engineering.id]);
  });

  it('checks the flag (404), then the permission (403), then the body (400)', async () => {
    const m = await app.factories.member(world.organization);
    const flag = await flagBy(world.owner);
    expect((await post(999999, m.key, {})).status).toBe(404);
    for (const body of [{}, { role_id: 'abc' }, [1]]) {
      const res = await post(flag.id, m.key, body);
      expect([body, res.status, res.body]).toEqual([body, 403, CANNOT_EDIT_ROLES]);
    }
    const record = await steps.grant(world.project.id, admin.key, flag.id, engineering.id);
    const missingRecord = await request(paths.roleAccess(flag.id, 999999), m.key, 'DELETE');
    expect([missingRecord.status, missingRecord.body]).toEqual([404, NOT_FOUND]);
    const refused = await request(paths.roleAccess(flag.id, record.id), m.key, 'DELETE');
    expect([refused.status, refused.body]).toEqual([403, CANNOT_EDIT_ROLES]);
    expect((await request(paths.roleAccess(flag.id, record.id), m.key)).status).toBe(200);
  });

  it('deleting a record takes the edit rights it gave, and the flag leaves the role', async () => {
    const m = await app.factories.member(world.organization);
    const role = await roleNamed('Temporary', 21);
    await steps.addMember(world.organization, admin.key, role.id, m.user);
    const flag = await flagBy(world.owner);
    const record = await steps.grant(world.project.id, admin.key, flag.id, role.id);
    expect((await request(paths.flag(flag.id), m.key)).body.can_edit).toBe(true);
    expect((await request(org.role(role.id), m.key)).body.associated_flags).toEqual([{ id: flag.id, key: flag.key }]);
    expect((await request(paths.roleAccess(flag.id, record.id), admin.key, 'DELETE')).status).toBe(204);
    expect((await request(paths.flag(flag.id), m.key)).body.can_edit).toBe(false);
    expect((await request(paths.flag(flag.id), m.key, 'PATCH', { name: 'x' })).status).toBe(403);
    expect((await request(org.role(role.id), m.key)).body.associated_flags).toEqual([]);
  });

  it('answers PATCH and PUT with 405 and Allow, on the record and on the list', async () => {
    const flag = await flagBy(u);
    const record = (await post(flag.id, u.key, { role_id: engineering.id })).body;
    for (const method of ['PATCH', 'PUT']) {
      const onRecord = await request(paths.roleAccess(flag.id, record.id), u.key, method, { role_id: marketing.id });
      expect([method, onRecord.status, onRecord.body, onRecord.headers.get('allow')]).toEqual([
        method,
        405,
        methodNotAllowed(method),
        'GET, DELETE',
      ]);
      const onList = await request(paths.roleAccesses(flag.id), u.key, method, { role_id: marketing.id });
      expect([method, onList.status, onList.body, onList.headers.get('allow')]).toEqual([
        method,
        405,
        methodNotAllowed(method),
        'GET, POST',
      ]);
    }
    const post405 = await request(paths.roleAccess(flag.id, record.id), u.key, 'POST', {});
    expect(post405.status).toBe(405);
    // The method is checked before the objects (§1.3: 7 before 8).
    expect((await request(paths.roleAccess(flag.id, 999999), u.key, 'PATCH', {})).status).toBe(405);
    expect((await request(paths.roleAccess(999999, 1), u.key, 'PUT', {})).status).toBe(405);
    expect((await request(paths.roleAccess(flag.id, record.id), u.key)).body).toEqual(record);
  });
});

describe('access (§2.3, §2.4)', () => {
  it("refuses users outside the organization: 403 You don't have access to the project.", async () => {
    const flag = await flagBy(u);
    const record = (await post(flag.id, u.key, { role_id: engineering.id })).body;
    const outsider = (await app.factories.world()).owner;
    const expected = forbidden("You don't have access to the project.");
    for (const [method, path] of [
      ['GET', paths.roleAccesses(flag.id)],
      ['POST', paths.roleAccesses(flag.id)],
      ['GET', paths.roleAccess(flag.id, record.id)],
      ['DELETE', paths.roleAccess(flag.id, record.id)],
      ['PATCH', paths.roleAccess(flag.id, record.id)],
    ]) {
      const res = await request(path, outsider.key, method, { role_id: engineering.id });
      expect([method, path, res.status, res.body]).toEqual([method, path, 403, expected]);
    }
  });

  it('needs feature_flag:read to read and feature_flag:write to write (PATCH and PUT included)', async () => {
    const flag = await flagBy(u);
    const record = (await post(flag.id, u.key, { role_id: engineering.id })).body;
    const reader = await app.factories.member(world.organization, 'admin', { scopes: ['feature_flag:read'] });
    expect((await request(paths.roleAccesses(flag.id), reader.key)).status).toBe(200);
    expect((await request(paths.roleAccess(flag.id, record.id), reader.key)).status).toBe(200);
    for (const [method, path] of [
      ['POST', paths.roleAccesses(flag.id)],
      ['DELETE', paths.roleAccess(flag.id, record.id)],
      ['PATCH', paths.roleAccess(flag.id, record.id)],
      ['PUT', paths.roleAccess(flag.id, record.id)],
    ]) {
      const res = await request(path, reader.key, method, { role_id: marketing.id });
      expect([method, res.status, res.body]).toEqual([method, 403, missingScope('feature_flag:write')]);
    }
    const orgOnly = await app.factories.member(world.organization, 'admin', { scopes: ['organization:write'] });
    expect((await request(paths.roleAccesses(flag.id), orgOnly.key)).body).toEqual(missingScope('feature_flag:read'));
    const writer = await app.factories.member(world.organization, 'admin', { scopes: ['feature_flag:write'] });
    expect((await request(paths.roleAccesses(flag.id), writer.key)).status).toBe(200);
    expect((await post(flag.id, writer.key, { role_id: marketing.id })).status).toBe(201);
    expect((await request(paths.roleAccess(flag.id, record.id), writer.key, 'DELETE')).status).toBe(204);
  });

  it('works through /api/projects/@current', async () => {
    const flag = await flagBy(u);
    const current = flagPaths('@current');
    const res = await request(current.roleAccesses(flag.id), u.key, 'POST', { role_id: engineering.id });
    expect(res.status).toBe(201);
    expect((await request(current.roleAccesses(flag.id), u.key)).body.count).toBe(1);
    expect((await request(current.roleAccess(flag.id, res.body.id), u.key)).body).toEqual(res.body);
  });

  it('authenticates first', async () => {
    const none = await app.request(paths.roleAccesses(redButton.id));
    expect([none.status, none.body.code]).toEqual([401, 'not_authenticated']);
    const wrong = await app.request(paths.roleAccesses(redButton.id), { method: 'POST', key: 'phx_wrong', body: {} });
    expect([wrong.status, wrong.body.code]).toEqual([401, 'authentication_failed']);
  });
});
