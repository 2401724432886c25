import { startTestApp, type TestApp } from '../helpers/test-app';
import type { Member, World } from '../helpers/factories';

/** docs/rest-api.md §3.6–§3.9: PATCH, PUT, soft delete and restore, the refused DELETE, versions. */

let app: TestApp;
let world: World;
let member: Member;
let flags: string;

const err = (type: string, code: string, detail: string, attr: string | null = null) => ({ type, code, detail, attr });
const NOT_FOUND = err('invalid_request', 'not_found', 'Not found.');

let serial = 0;
const create = async (body: Record<string, unknown> = {}, key = world.owner.key) => {
  const res = await app.request(flags, { method: 'POST', key, body: { key: `flag-${++serial}`, ...body } });
  expect(res.status).toBe(201);
  return res.body;
};
const write = (method: 'PATCH' | 'PUT', id: number | string, body?: unknown, key = world.owner.key) =>
  app.request(`${flags}/${id}`, { method, key, body });
const patch = (id: number | string, body?: unknown, key = world.owner.key) => write('PATCH', id, body, key);
const put = (id: number | string, body?: unknown, key = world.owner.key) => write('PUT', id, body, key);
const retrieve = async (id: number) => (await app.request(`${flags}/${id}`, { key: world.owner.key })).body;
const listedKeys = async () => (await app.request(`${flags}?limit=1000`, { key: world.owner.key })).body.results.map((f: any) => f.key);

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
  member = await app.factories.member(world.organization);
  flags = `/api/projects/${world.project.id}/feature_flags`;
});
afterAll(() => app.close());

describe('PATCH (§3.6)', () => {
  it('changes what is sent, keeps the rest, and counts the version', async () => {
    const flag = await create({ name: 'original name', key: 'a-feature-flag-that-is-updated', tags: ['keep'] });
    const filters = {
      groups: [{ properties: [{ key: 'email', value: 'x@y.z', type: 'person', operator: 'exact' }], rollout_percentage: 65 }],
    };
    const res = await patch(flag.id, { name: 'Updated name', filters });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...flag, name: 'Updated name', filters, is_simple_flag: false, rollout_percentage: null, version: 2 });
    expect(await retrieve(flag.id)).toEqual(res.body);
  });

  it('ignores filters without groups', async () => {
    const filters = { groups: [{ rollout_percentage: 30 }] };
    const flag = await create({ filters });
    const res = await patch(flag.id, { filters: { payloads: { true: 1 } } });
    expect(res.status).toBe(200);
    expect(res.body.filters).toEqual(filters);
    const notChecked = await patch(flag.id, { filters: { payloads: 'not even a dictionary', multivariate: 5 } });
    expect(notChecked.status).toBe(200);
    expect(notChecked.body.filters).toEqual(filters);
  });

  it('reads a form body, leaving filters untouched', async () => {
    const filters = { groups: [{ rollout_percentage: 40 }] };
    const flag = await create({ filters });
    const form = await app.request(`${flags}/${flag.id}`, {
      method: 'PATCH',
      key: world.owner.key,
      body: 'active=False&name=replaced',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(200);
    expect(form.body).toMatchObject({ active: false, name: 'replaced', filters, version: 2 });
  });

  it('resets performed_rollback when active is set true', async () => {
    const flag = await create({ performed_rollback: true, active: false });
    expect(flag.performed_rollback).toBe(true);
    expect((await patch(flag.id, { active: false })).body.performed_rollback).toBe(true);
    expect((await patch(flag.id, { name: 'x' })).body.performed_rollback).toBe(true);
    const res = await patch(flag.id, { active: true });
    expect(res.body).toMatchObject({ active: true, performed_rollback: false });
  });

  it('clears nullable fields with null and refuses null elsewhere', async () => {
    const flag = await create({
      ensure_experience_continuity: true,
      rollback_conditions: [{ a: 1 }],
      performed_rollback: true,
      has_enriched_analytics: true,
    });
    const cleared = await patch(flag.id, {
      ensure_experience_continuity: null,
      rollback_conditions: null,
      performed_rollback: null,
      has_enriched_analytics: null,
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({
      ensure_experience_continuity: null,
      rollback_conditions: null,
      performed_rollback: null,
      has_enriched_analytics: null,
    });
    for (const field of ['name', 'key', 'filters', 'deleted', 'active', 'created_at', 'tags', 'analytics_dashboards']) {
      const res = await patch(flag.id, { [field]: null });
      expect([field, res.status, res.body]).toEqual([field, 400, err('validation_error', 'null', 'This field may not be null.', field)]);
    }
    expect((await retrieve(flag.id)).version).toBe(2);
  });

  it('replaces tags, cleaned', async () => {
    const flag = await create({ tags: ['old'] });
    expect((await patch(flag.id, { tags: [' Beta ', 'beta', 'ops'] })).body.tags).toEqual(['beta', 'ops']);
    expect((await patch(flag.id, { name: 'no tags sent' })).body.tags).toEqual(['beta', 'ops']);
    expect((await patch(flag.id, { tags: [] })).body.tags).toEqual([]);
  });

  it('ignores unknown keys and read-only fields', async () => {
    const flag = await create();
    const res = await patch(flag.id, {
      id: 1,
      created_by: null,
      can_edit: false,
      is_simple_flag: false,
      usage_dashboard: 3,
      experiment_set: [9],
      features: [1],
      original_flag: {},
      whatever: 1,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...flag, version: 2 });
  });

  it('changes created_at when sent', async () => {
    const flag = await create();
    const res = await patch(flag.id, { created_at: '2020-05-01T10:00:00Z' });
    expect(res.body.created_at).toBe('2020-05-01T10:00:00.000000Z');
  });

  it('counts a PATCH with an empty body as an update', async () => {
    const flag = await create();
    const res = await patch(flag.id, {});
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...flag, version: 2 });
  });

  it('regression: a non-object body on an unknown id answered 400 before the 404 lookup', async () => {
    for (const id of ['999999', 'abc', '0', '99999999999']) {
      for (const body of [{ name: null }, { key: 'bad key' }, [1], 'null']) {
        const res = await patch(id, body);
        expect([id, body, res.status, res.body]).toEqual([id, body, 404, NOT_FOUND]);
      }
    }
  });

  it('lets any member edit under the default flag access level (§2.5)', async () => {
    const flag = await create();
    const res = await patch(flag.id, { name: 'by a member' }, member.key);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'by a member', can_edit: true, created_by: { id: world.owner.user.id } });
  });
});

describe('PUT (§3.6)', () => {
  it('needs key and groups, and otherwise behaves as PATCH', async () => {
    const flag = await create({ name: 'before', filters: { groups: [{ rollout_percentage: 10 }] } });
    const noKey = await put(flag.id, { name: 'after' });
    expect(noKey.status).toBe(400);
    expect(noKey.body).toEqual(err('validation_error', 'required', 'This field is required.', 'key'));
    const noGroups = await put(flag.id, { key: flag.key, filters: { payloads: {} } });
    expect(noGroups.body).toEqual(
      err('validation_error', 'invalid_input', 'Feature flags must have at least one condition set (group).', 'filters'),
    );
    const res = await put(flag.id, { key: flag.key, name: 'after' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ key: flag.key, name: 'after', filters: { groups: [{ rollout_percentage: 10 }] }, version: 2 });
  });

  it('refuses a key another flag holds', async () => {
    const a = await create();
    const b = await create();
    const res = await put(b.id, { key: a.key });
    expect(res.body).toEqual(err('validation_error', 'unique', 'There is already a feature flag with this key.', 'key'));
  });

  it('answers 404 before validating', async () => {
    for (const body of [{}, [1], { key: null }]) {
      const res = await put(999999, body);
      expect([body, res.status, res.body]).toEqual([body, 404, NOT_FOUND]);
    }
  });
});

describe('soft delete and restore (§3.7)', () => {
  it('hides a deleted flag from the list, keeps it retrievable and editable, and restores it', async () => {
    const flag = await create({ key: 'soft-deleted' });
    const before = (await app.request(flags, { key: world.owner.key })).body.count;

    const deleted = await patch(flag.id, { deleted: true });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ deleted: true, version: 2 });
    expect(await listedKeys()).not.toContain('soft-deleted');
    expect((await app.request(flags, { key: world.owner.key })).body.count).toBe(before - 1);
    expect(await retrieve(flag.id)).toMatchObject({ id: flag.id, deleted: true });

    const edited = await patch(flag.id, { name: 'edited while deleted' });
    expect(edited.body).toMatchObject({ deleted: true, name: 'edited while deleted' });

    const restored = await patch(flag.id, { deleted: false });
    expect(restored.body).toMatchObject({ deleted: false, version: 4 });
    expect(await listedKeys()).toContain('soft-deleted');
  });
});

describe('DELETE (§3.8)', () => {
  it('is always 405 with an empty body, and changes nothing', async () => {
    const flag = await create({ key: 'red_button' });
    for (const [key, id] of [
      [world.owner.key, flag.id],
      [member.key, flag.id],
      [world.owner.key, 999999],
      [world.owner.key, 'abc'],
    ] as const) {
      for (const slash of ['', '/']) {
        const res = await app.request(`${flags}/${id}${slash}`, { method: 'DELETE', key });
        expect([id, res.status, res.text]).toEqual([id, 405, '']);
        expect(res.headers.get('content-type')).toBeNull();
      }
    }
    expect(await retrieve(flag.id)).toEqual(flag);
    expect(await listedKeys()).toContain('red_button');
  });

  it('authenticates and checks the scope first', async () => {
    const flag = await create();
    expect((await app.request(`${flags}/${flag.id}`, { method: 'DELETE' })).status).toBe(401);
    const reader = await app.factories.member(world.organization, 'member', { scopes: ['feature_flag:read'] });
    const res = await app.request(`${flags}/${flag.id}`, { method: 'DELETE', key: reader.key });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(err('authentication_error', 'permission_denied', "API key missing required scope 'feature_flag:write'"));
  });
});

describe('version (§3.9)', () => {
  it('refuses a stale version with 409 naming the last writer, and writes nothing', async () => {
    const flag = await create({ name: 'v1' });
    await patch(flag.id, { name: 'v2 by member' }, member.key);
    const stale = await patch(flag.id, { name: 'a', version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual(
      err(
        'server_error',
        'conflict',
        `The feature flag was updated by ${member.user.email} since you started editing it. Please refresh and try again.`,
      ),
    );
    expect(await retrieve(flag.id)).toMatchObject({ name: 'v2 by member', version: 2 });

    const current = await patch(flag.id, { name: 'a', version: 2 });
    expect(current.status).toBe(200);
    expect(current.body).toMatchObject({ name: 'a', version: 3 });
    expect((await patch(flag.id, { name: 'b' })).body.version).toBe(4);
    expect((await patch(flag.id, { name: 'c', version: null })).body.version).toBe(5);
    expect((await patch(flag.id, { name: 'd', version: '5' })).body.version).toBe(6);
  });

  it('names the creator when the flag was never updated', async () => {
    const flag = await create({}, member.key);
    const res = await put(flag.id, { key: flag.key, version: 9 });
    expect(res.status).toBe(409);
    expect(res.body.detail).toBe(
      `The feature flag was updated by ${member.user.email} since you started editing it. Please refresh and try again.`,
    );
  });

  it("says 'another user' when the last writer is unknown", async () => {
    const flag = await create();
    await app.factories.sql('update feature_flag set last_modified_by_id = null where id = ?', [flag.id]);
    const res = await patch(flag.id, { version: 5 });
    expect(res.body.detail).toBe(
      'The feature flag was updated by another user since you started editing it. Please refresh and try again.',
    );
  });

  it('validates the body before the version (400 before 409)', async () => {
    const flag = await create();
    const res = await patch(flag.id, { name: {}, version: 7 });
    expect(res.status).toBe(400);
    expect(res.body.attr).toBe('name');
  });
});
