import type { Member, World } from '../helpers/factories';
import { flagPaths, missingScope, NOT_FOUND, orgPaths, roleSteps, TIMESTAMP } from '../helpers/roles';
import { startTestApp, type ApiResponse, type TestApp } from '../helpers/test-app';

/**
 * The activity log over REST (docs/activity.md):
 * what each write records, the entry shape, paging, and that entries are never lost or invented.
 */

let app: TestApp;
let world: World;
let paths: ReturnType<typeof flagPaths>;
let steps: ReturnType<typeof roleSteps>;
let key: string;
let serial = 0;

beforeAll(async () => {
  // The index test reads query plans, which depend on the visibility map that synchronous commits keep current.
  app = await startTestApp({ synchronousCommit: true });
  world = await app.factories.world();
  key = world.owner.key;
  paths = flagPaths(world.project.id);
  steps = roleSteps(app);
});
afterAll(() => app.close());

const expectOk = <T extends ApiResponse>(res: T, status = 200): T => {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status} ${res.text}`);
  return res;
};
const createFlag = async (body: Record<string, unknown> = {}, projectId = world.project.id, as = key) =>
  expectOk(
    await app.request(flagPaths(projectId).flags, { method: 'POST', key: as, body: { key: `activity-flag-${++serial}`, ...body } }),
    201,
  ).body;
const patchFlag = (id: number, body: unknown, as = key) => app.request(paths.flag(id), { method: 'PATCH', key: as, body });
const flagActivity = async (id: number, query = '', as = key) =>
  expectOk(await app.request(`${paths.flag(id)}/activity${query}`, { key: as })).body;
const ownerShown = () => ({ first_name: world.owner.user.firstName, email: world.owner.user.email });

describe('the entry shape and what a flag write records', () => {
  it('records a create and an update with per-field changes, newest first', async () => {
    const flag = await createFlag({ name: 'original name', key: 'a-feature-flag-that-is-updated' });
    const filters = { groups: [{ properties: [{ key: 'email', value: 'x@y.z', type: 'person' }], rollout_percentage: 65 }] };
    const res = expectOk(await patchFlag(flag.id, { name: 'Updated name', filters }));
    expect(res.body.version).toBe(2);

    const page = await flagActivity(flag.id);
    expect(Object.keys(page)).toEqual(['results', 'next', 'previous', 'total_count']);
    expect(page).toMatchObject({ next: null, previous: null, total_count: 2 });
    expect(page.results).toEqual([
      {
        user: ownerShown(),
        activity: 'updated',
        scope: 'FeatureFlag',
        item_id: String(flag.id),
        detail: {
          changes: [
            { type: 'FeatureFlag', action: 'changed', field: 'name', before: 'original name', after: 'Updated name' },
            { type: 'FeatureFlag', action: 'changed', field: 'filters', before: {}, after: filters },
          ],
          trigger: null,
          type: null,
          name: 'a-feature-flag-that-is-updated',
          short_id: null,
        },
        created_at: expect.stringMatching(TIMESTAMP),
      },
      {
        user: ownerShown(),
        activity: 'created',
        scope: 'FeatureFlag',
        item_id: String(flag.id),
        detail: { changes: null, trigger: null, type: null, name: 'a-feature-flag-that-is-updated', short_id: null },
        created_at: expect.stringMatching(TIMESTAMP),
      },
    ]);
    expect(Object.keys(page.results[0])).toEqual(['user', 'activity', 'scope', 'item_id', 'detail', 'created_at']);
    expect(Object.keys(page.results[0].detail)).toEqual(['changes', 'trigger', 'type', 'name', 'short_id']);
  });

  it('records a soft delete as `deleted` and an undelete as `restored`', async () => {
    const flag = await createFlag();
    expectOk(await patchFlag(flag.id, { deleted: true }));
    expectOk(await patchFlag(flag.id, { deleted: false }));
    const { results } = await flagActivity(flag.id);
    expect(results.map((entry: any) => entry.activity)).toEqual(['restored', 'deleted', 'created']);
    expect(results[1].detail.changes).toEqual([{ type: 'FeatureFlag', action: 'changed', field: 'deleted', before: false, after: true }]);
    expect(results[0].detail.changes).toEqual([{ type: 'FeatureFlag', action: 'changed', field: 'deleted', before: true, after: false }]);
  });

  it('lists every logged field that changed, in the documented order, with created/deleted for null ends', async () => {
    const flag = await createFlag({ name: 'n' });
    expectOk(
      await patchFlag(flag.id, {
        tags: [' Beta ', 'beta', 'ops'],
        has_enriched_analytics: true,
        performed_rollback: true,
        rollback_conditions: [{ threshold: 5 }],
        ensure_experience_continuity: null,
        active: false,
        deleted: true,
        key: `${flag.key}-renamed`,
        name: 'm',
      }),
    );
    const [entry] = (await flagActivity(flag.id)).results;
    expect(entry.activity).toBe('deleted');
    expect(entry.detail.name).toBe(`${flag.key}-renamed`);
    expect(entry.detail.changes).toEqual([
      { type: 'FeatureFlag', action: 'changed', field: 'name', before: 'n', after: 'm' },
      { type: 'FeatureFlag', action: 'changed', field: 'key', before: flag.key, after: `${flag.key}-renamed` },
      { type: 'FeatureFlag', action: 'changed', field: 'deleted', before: false, after: true },
      { type: 'FeatureFlag', action: 'changed', field: 'active', before: true, after: false },
      { type: 'FeatureFlag', action: 'deleted', field: 'ensure_experience_continuity', before: false, after: null },
      { type: 'FeatureFlag', action: 'created', field: 'rollback_conditions', before: null, after: [{ threshold: 5 }] },
      { type: 'FeatureFlag', action: 'created', field: 'performed_rollback', before: null, after: true },
      { type: 'FeatureFlag', action: 'changed', field: 'has_enriched_analytics', before: false, after: true },
      // Tags are logged as stored: trimmed, lower-cased and de-duplicated.
      { type: 'FeatureFlag', action: 'changed', field: 'tags', before: [], after: ['beta', 'ops'] },
    ]);
  });

  it('leaves out the fields that are not logged, and writes nothing for an update that changes no logged field', async () => {
    const flag = await createFlag({ name: 'same', filters: { groups: [{ properties: [], rollout_percentage: 30 }] } });
    // The same values again, a `filters` without `groups` (ignored), `created_at` and a matching version precondition.
    expectOk(await patchFlag(flag.id, { name: 'same', filters: { payloads: { true: 1 } }, version: 1 }));
    expectOk(await patchFlag(flag.id, { created_at: '2020-01-01T00:00:00Z', deleted: false, tags: [] }));
    expectOk(await patchFlag(flag.id, { filters: { groups: [{ rollout_percentage: 30, properties: [] }] } }));
    const read = expectOk(await app.request(paths.flag(flag.id), { key })).body;
    expect(read.version).toBe(4);
    const page = await flagActivity(flag.id);
    expect(page.total_count).toBe(1);
    expect(page.results.map((entry: any) => entry.activity)).toEqual(['created']);
  });

  it('keeps the key an entry was written under after the flag is re-keyed', async () => {
    const flag = await createFlag({ key: 'first-key' });
    expectOk(await patchFlag(flag.id, { key: 'second-key' }));
    expectOk(await patchFlag(flag.id, { name: 'named' }));
    const { results } = await flagActivity(flag.id);
    expect(results.map((entry: any) => entry.detail.name)).toEqual(['second-key', 'second-key', 'first-key']);
  });

  it('records role access granted and revoked on the flag', async () => {
    const flag = await createFlag();
    const role = await steps.createRole(world.organization, key, { name: `activity-role-${++serial}` });
    const record = await steps.grant(world.project.id, key, flag.id, role.id);
    expectOk(await app.request(paths.roleAccess(flag.id, record.id), { method: 'DELETE', key }), 204);
    const { results } = await flagActivity(flag.id);
    const shown = { role_id: role.id, role_name: role.name };
    expect(results.slice(0, 2).map((entry: any) => [entry.activity, entry.detail.name, entry.detail.changes])).toEqual([
      ['updated', flag.key, [{ type: 'FeatureFlag', action: 'deleted', field: 'role_access', before: shown, after: null }]],
      ['updated', flag.key, [{ type: 'FeatureFlag', action: 'created', field: 'role_access', before: null, after: shown }]],
    ]);
    // A refused grant (the pair exists) writes nothing.
    await steps.grant(world.project.id, key, flag.id, role.id);
    expect((await app.request(paths.roleAccesses(flag.id), { method: 'POST', key, body: { role_id: role.id } })).status).toBe(400);
    expect((await flagActivity(flag.id)).total_count).toBe(4);
  });

  it('records, on each flag, the role access a role deletion takes away', async () => {
    const [first, second] = [await createFlag(), await createFlag()];
    const role = await steps.createRole(world.organization, key, { name: `doomed-role-${++serial}` });
    await steps.grant(world.project.id, key, first.id, role.id);
    await steps.grant(world.project.id, key, second.id, role.id);
    expectOk(await app.request(orgPaths(world.organization).role(role.id), { method: 'DELETE', key }), 204);
    const shown = { role_id: role.id, role_name: role.name };
    for (const flag of [first, second]) {
      const { results, total_count } = await flagActivity(flag.id);
      expect(total_count).toBe(3);
      expect(results[0]).toMatchObject({ activity: 'updated', user: ownerShown(), detail: { name: flag.key } });
      expect(results[0].detail.changes).toEqual([
        { type: 'FeatureFlag', action: 'deleted', field: 'role_access', before: shown, after: null },
      ]);
    }
  });

  it('writes nothing for a new usage dashboard or a dashboard link', async () => {
    const flag = await createFlag();
    const generated = expectOk(await app.request(`${paths.flag(flag.id)}/dashboard`, { method: 'POST', key })).body;
    expectOk(await patchFlag(flag.id, { analytics_dashboards: [generated.usage_dashboard] }));
    const page = await flagActivity(flag.id);
    expect(page.results.map((entry: any) => entry.activity)).toEqual(['created']);
  });

  it("records the flag writes an experiment makes, as the caller's", async () => {
    const flagKey = `activity-experiment-${++serial}`;
    const filters = { events: [{ order: 0, id: '$pageview' }], properties: [] };
    const experiment = expectOk(
      await app.request(`/api/projects/${world.project.id}/experiments/`, {
        method: 'POST',
        key,
        body: { name: 'E', feature_flag_key: flagKey, filters },
      }),
      201,
    ).body;
    expectOk(
      await app.request(`/api/projects/${world.project.id}/experiments/${experiment.id}/`, {
        method: 'PATCH',
        key,
        body: { start_date: '2024-01-01T00:00:00Z' },
      }),
    );
    expectOk(await app.request(`/api/projects/${world.project.id}/experiments/${experiment.id}/`, { method: 'DELETE', key }), 204);
    const { results } = await flagActivity(experiment.feature_flag.id);
    expect(results.map((entry: any) => [entry.activity, entry.user.email, entry.detail.changes?.map((c: any) => c.field) ?? null])).toEqual(
      [
        ['deleted', world.owner.user.email, ['deleted']],
        // A write setting `active` true also clears `performed_rollback` (null → false): both are logged.
        ['updated', world.owner.user.email, ['active', 'performed_rollback']],
        ['created', world.owner.user.email, null],
      ],
    );
  });
});

describe('never lost, never invented', () => {
  it('writes no entry for a refused update: 400, 403, 409', async () => {
    const flag = await createFlag();
    const outsider: Member = await app.factories.member(world.organization, 'member');
    await steps.setFlagAccessLevel(world.organization, key, 21);
    try {
      expect((await patchFlag(flag.id, { name: 'not mine' }, outsider.key)).status).toBe(403);
    } finally {
      await steps.setFlagAccessLevel(world.organization, key, 37);
    }
    expect((await patchFlag(flag.id, { name: null })).status).toBe(400);
    expect((await patchFlag(flag.id, { name: 'valid', filters: { groups: [{ rollout_percentage: 150 }] } })).status).toBe(400);
    expect((await patchFlag(flag.id, { name: 'stale', version: 7 })).status).toBe(409);
    const page = await flagActivity(flag.id);
    expect(page.total_count).toBe(1);
    expect(page.results[0].activity).toBe('created');
  });

  it('writes no entry for a refused experiment update', async () => {
    const base = `/api/projects/${world.project.id}/experiments`;
    const filters = { events: [{ order: 0, id: '$pageview' }], properties: [] };
    const experiment = expectOk(
      await app.request(`${base}/`, { method: 'POST', key, body: { name: 'E', feature_flag_key: `refused-exp-${++serial}`, filters } }),
      201,
    ).body;
    expect((await app.request(`${base}/${experiment.id}/`, { method: 'PATCH', key, body: { name: null } })).status).toBe(400);
    expect((await app.request(`${base}/${experiment.id}/`, { method: 'PATCH', key, body: { start_date: 'not a date' } })).status).toBe(400);
    const query = `query($p: ID!, $id: Int!) { experiment(projectId: $p, id: $id) { activity { totalCount results { activity } } } }`;
    const res = await app.graphql(query, { p: String(world.project.id), id: experiment.id }, key);
    expect(res.body.data.experiment.activity).toEqual({ totalCount: 1, results: [{ activity: 'created' }] });
  });

  it('writes one entry per update when updates race, each with the value it replaced', async () => {
    const flag = await createFlag({ name: 'start' });
    const names = Array.from({ length: 8 }, (_, i) => `racer-${i}`);
    const answers = await Promise.all(names.map((name) => patchFlag(flag.id, { name })));
    expect(answers.map((res) => res.status)).toEqual(names.map(() => 200));

    const page = await flagActivity(flag.id, '?limit=100');
    expect(page.total_count).toBe(names.length + 1);
    const updates = page.results.filter((entry: any) => entry.activity === 'updated').reverse();
    expect(updates.map((entry: any) => entry.detail.changes[0].after).sort()).toEqual([...names].sort());
    // Oldest first, each change starts where the previous one ended: no write was lost or merged.
    expect(updates[0].detail.changes[0].before).toBe('start');
    for (let i = 1; i < updates.length; i++) expect(updates[i].detail.changes[0].before).toBe(updates[i - 1].detail.changes[0].after);
    const read = expectOk(await app.request(paths.flag(flag.id), { key })).body;
    expect(read.version).toBe(names.length + 1);
    expect(read.name).toBe(updates[updates.length - 1].detail.changes[0].after);
  });
});

describe('paging and access', () => {
  /** A project holding exactly 15 flag creates: a page of 10 and a page of 5. */
  let pagedWorld: World;
  let pagedPaths: ReturnType<typeof flagPaths>;
  /** A flag re-keyed 14 times, in a project of its own. */
  let rekeyWorld: World;
  let rekeyed: { id: number };
  let host: string;

  beforeAll(async () => {
    host = new URL(app.baseUrl).host;
    pagedWorld = await app.factories.world();
    pagedPaths = flagPaths(pagedWorld.project.id);
    for (let i = 0; i < 15; i++) await createFlag({ key: String(i) }, pagedWorld.project.id, pagedWorld.owner.key);
    rekeyWorld = await app.factories.world();
    rekeyed = await createFlag({ key: 'k0' }, rekeyWorld.project.id, rekeyWorld.owner.key);
    for (let i = 1; i <= 14; i++) {
      const path = flagPaths(rekeyWorld.project.id).flag(rekeyed.id);
      expectOk(await app.request(path, { method: 'PATCH', key: rekeyWorld.owner.key, body: { key: `k${i}` } }));
    }
  });

  const get = (path: string, as?: string) => app.request(path, { key: as ?? pagedWorld.owner.key });
  const activityUrl = () => `http://${host}${pagedPaths.flags}/activity`;

  it('pages the project activity by 10, newest first, with absolute links', async () => {
    const first = expectOk(await get(`${pagedPaths.flags}/activity`)).body;
    expect(first.results.map((entry: any) => entry.detail.name)).toEqual(['14', '13', '12', '11', '10', '9', '8', '7', '6', '5']);
    expect(first.total_count).toBe(15);
    expect(first.next).toBe(`${activityUrl()}?page=2&limit=10`);
    expect(first.previous).toBeNull();
    const second = expectOk(await get(first.next.replace(`http://${host}`, ''))).body;
    expect(second.results.map((entry: any) => entry.detail.name)).toEqual(['4', '3', '2', '1', '0']);
    expect(second.results.every((entry: any) => entry.activity === 'created' && entry.detail.changes === null)).toBe(true);
    expect(second.next).toBeNull();
    expect(second.previous).toBe(`${activityUrl()}?page=1&limit=10`);
  });

  it('replaces page and limit where they stand, and appends them (page first) when absent', async () => {
    const reordered = expectOk(await get(`${pagedPaths.flags}/activity?limit=5&x=1&page=2`)).body;
    expect(reordered.next).toBe(`${activityUrl()}?limit=5&x=1&page=3`);
    expect(reordered.previous).toBe(`${activityUrl()}?limit=5&x=1&page=1`);
    const onlyOther = expectOk(await get(`${pagedPaths.flags}/activity/?y=2`)).body;
    expect(onlyOther.next).toBe(`${activityUrl()}/?y=2&page=2&limit=10`);
    const encoded = expectOk(await get(`${pagedPaths.flags}/activity?q=a%20b&page=1&limit=5&page=7`)).body;
    expect(encoded.next).toBe(`${activityUrl()}?q=a%20b&page=2&limit=5`);
    // What a URI's query may not hold (WHATWG URLs pass `|{}^` and a stray `%` through) is escaped, so the link stays a URI.
    const odd = expectOk(await get(`${pagedPaths.flags}/activity?q=a|{}^%zz&limit=5`)).body;
    expect(odd.next).toBe(`${activityUrl()}?q=a%7C%7B%7D%5E%25zz&limit=5&page=2`);
    const clamped = expectOk(await get(`${pagedPaths.flags}/activity?limit=2&page=2`)).body;
    expect(clamped.results.map((entry: any) => entry.detail.name)).toEqual(['12', '11']);
  });

  it("pages one flag's history the same way, each entry under the key it was written with", async () => {
    const path = `${flagPaths(rekeyWorld.project.id).flag(rekeyed.id)}/activity`;
    const first = expectOk(await get(path, rekeyWorld.owner.key)).body;
    expect(first.total_count).toBe(15);
    expect(first.results.map((entry: any) => entry.detail.name)).toEqual(['k14', 'k13', 'k12', 'k11', 'k10', 'k9', 'k8', 'k7', 'k6', 'k5']);
    expect(first.results[0].detail.changes).toEqual([
      { type: 'FeatureFlag', action: 'changed', field: 'key', before: 'k13', after: 'k14' },
    ]);
    expect(first.next).toBe(`http://${host}${path}?page=2&limit=10`);
    expect(first.previous).toBeNull();
    const second = expectOk(await get(`${path}?page=2`, rekeyWorld.owner.key)).body;
    expect(second.results.map((entry: any) => entry.detail.name)).toEqual(['k4', 'k3', 'k2', 'k1', 'k0']);
    expect(second.results.map((entry: any) => entry.activity)).toEqual(['updated', 'updated', 'updated', 'updated', 'created']);
    expect(second.next).toBeNull();
    expect(second.previous).toBe(`http://${host}${path}?page=1&limit=10`);
  });

  it.each([
    ['limit=x', 10, 1],
    ['limit=-3', 10, 1],
    ['limit=0', 10, 1],
    ['limit=2.5', 10, 1],
    ['limit=', 10, 1],
    ['limit=5000', 1000, 1],
    ['page=abc', 10, 1],
    ['page=0', 10, 1],
    ['page=-2', 10, 1],
    ['page=1.5', 10, 1],
    ['limit=7&page=2', 7, 2],
  ])('falls back for ?%s', async (query, limit, page) => {
    const body = expectOk(await get(`${pagedPaths.flags}/activity?${query}`)).body;
    expect(body.results).toHaveLength(Math.min(limit, 15 - (page - 1) * limit));
    if (limit * page < 15) {
      const next = new URL(body.next);
      expect([next.searchParams.get('page'), next.searchParams.get('limit')]).toEqual([String(page + 1), String(limit)]);
    } else {
      expect(body.next).toBeNull();
    }
    if (page === 1) expect(body.previous).toBeNull();
  });

  it('answers a page past the end with no results and a link back', async () => {
    const body = expectOk(await get(`${pagedPaths.flags}/activity?page=9`)).body;
    expect(body).toMatchObject({ results: [], next: null, total_count: 15 });
    expect(body.previous).toBe(`${activityUrl()}?page=8&limit=10`);
  });

  it('answers with and without the trailing slash, the literal winning over /:id', async () => {
    expect((await get(`${pagedPaths.flags}/activity`)).status).toBe(200);
    expect((await get(`${pagedPaths.flags}/activity/`)).status).toBe(200);
    const path = `${flagPaths(rekeyWorld.project.id).flag(rekeyed.id)}/activity/`;
    expect((await get(path, rekeyWorld.owner.key)).status).toBe(200);
    expect((await app.request(`${pagedPaths.flags}/activity`, { method: 'POST', key: pagedWorld.owner.key })).status).toBe(405);
  });

  it("answers 404 for another organization's flag, another project's, and unknown ids; 200 for a soft-deleted flag", async () => {
    for (const id of [rekeyed.id, 999999, 'abc', 0, 99999999999]) {
      const res = await get(`${pagedPaths.flag(id)}/activity`);
      expect({ id, status: res.status, body: res.body }).toEqual({ id, status: 404, body: NOT_FOUND });
    }
    const sibling = await app.factories.project(pagedWorld.organization);
    const siblingFlag = await createFlag({}, sibling.id, pagedWorld.owner.key);
    expect((await get(`${pagedPaths.flag(siblingFlag.id)}/activity`)).status).toBe(404);
    expect((await get(`${flagPaths(sibling.id).flag(siblingFlag.id)}/activity`)).status).toBe(200);

    const gone = await createFlag({}, pagedWorld.project.id, pagedWorld.owner.key);
    expectOk(await app.request(pagedPaths.flag(gone.id), { method: 'PATCH', key: pagedWorld.owner.key, body: { deleted: true } }));
    expect(expectOk(await get(`${pagedPaths.flag(gone.id)}/activity`)).body.results[0].activity).toBe('deleted');
    // A member of another organization hears 403 for the project as a whole.
    expect((await get(`${pagedPaths.flags}/activity`, rekeyWorld.owner.key)).status).toBe(403);
  });

  it("keeps a hard-deleted flag's entries in the project activity (docs/rest-api.md §3.4)", async () => {
    const old = await createFlag({ key: 'reused-key' }, pagedWorld.project.id, pagedWorld.owner.key);
    expectOk(await app.request(pagedPaths.flag(old.id), { method: 'PATCH', key: pagedWorld.owner.key, body: { deleted: true } }));
    const replacement = await createFlag({ key: 'reused-key' }, pagedWorld.project.id, pagedWorld.owner.key);
    expect((await get(`${pagedPaths.flag(old.id)}/activity`)).status).toBe(404);
    const { results } = expectOk(await get(`${pagedPaths.flags}/activity?limit=3`)).body;
    expect(results.map((entry: any) => [entry.item_id, entry.activity, entry.detail.name])).toEqual([
      [String(replacement.id), 'created', 'reused-key'],
      [String(old.id), 'deleted', 'reused-key'],
      [String(old.id), 'created', 'reused-key'],
    ]);
  });

  it('needs activity_log:read, nothing more', async () => {
    const rekeyedPath = `${flagPaths(rekeyWorld.project.id).flag(rekeyed.id)}/activity`;
    const owner = rekeyWorld.owner.user;
    const readOnly = await app.factories.key(owner, { scopes: ['feature_flag:read'] });
    for (const path of [`${flagPaths(rekeyWorld.project.id).flags}/activity`, rekeyedPath]) {
      const res = await get(path, readOnly);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(missingScope('activity_log:read'));
    }
    const writerAndLog = await app.factories.key(owner, { scopes: ['feature_flag:write', 'activity_log:read'] });
    expect((await get(`${flagPaths(rekeyWorld.project.id).flags}/activity`, writerAndLog)).status).toBe(200);
    expect((await get(flagPaths(rekeyWorld.project.id).flags, writerAndLog)).status).toBe(200);
    const logOnly = await app.factories.key(owner, { scopes: ['activity_log:read'] });
    expect((await get(rekeyedPath, logOnly)).status).toBe(200);
  });
});

describe('a flag with 10,000 entries', () => {
  let flagId: number;
  let path: string;

  beforeAll(async () => {
    const flag = await createFlag({ key: 'long-history' });
    flagId = flag.id;
    path = `${paths.flag(flagId)}/activity`;
    // Entries of this flag, and as many of each of four others, written straight into the table: the
    // flag holds a fifth of it, so its index is the plan whatever the visibility map says (with one
    // neighbour, half the table, a count sometimes planned a scan when a concurrent snapshot kept the
    // vacuum below from marking the pages all-visible).
    const others = [];
    for (let i = 0; i < 4; i++) others.push(await createFlag({ key: `long-history-neighbour-${i}` }));
    for (const id of [flagId, ...others.map((other) => other.id)]) {
      await app.factories.sql(
        `insert into activity_log (project_id, scope, item_id, activity, user_id, detail, created_at)
         select ?, 'FeatureFlag', ?, 'updated', ?, jsonb_build_object('changes', null, 'trigger', null, 'type', null, 'name', 'entry-' || n, 'short_id', null),
                timestamptz '2024-01-01' + n * interval '1 second'
           from generate_series(1, 9999) as n`,
        [world.project.id, String(id), world.owner.user.id],
      );
    }
    // As autovacuum would: statistics, and the visibility map that lets a count read the index alone.
    await app.factories.sql('vacuum analyze activity_log');
  }, 60_000);

  it('pages in the same number of statements on the first, a middle, the last and a past-the-end page', async () => {
    await app.request(path, { key }); // the key's first use of the hour writes last_used_at; its standing is remembered
    const counts: number[] = [];
    let lastPage: any;
    for (const query of ['?page=1', '?page=500', '?page=1000']) {
      counts.push(
        await app.countQueries(async () => {
          lastPage = expectOk(await app.request(`${path}${query}`, { key })).body;
        }),
      );
    }
    expect(lastPage.total_count).toBe(10_000);
    // The create (today) is the newest entry; the inserted ones are older, entry-1 the oldest.
    expect(lastPage.results.map((entry: any) => entry.detail.name)).toEqual(Array.from({ length: 10 }, (_, i) => `entry-${10 - i}`));
    // count with the flag's existence, the page, its users
    expect(counts).toEqual([3, 3, 3]);
    // Past the end the page read is skipped, and so are its users.
    expect(await app.countQueries(() => app.request(`${path}?page=1001`, { key }))).toBe(1);
    expect(await app.countQueries(() => app.request(`${paths.flags}/activity?limit=1000&page=3`, { key }))).toBe(3);
  });

  it('reads a page through the item index, never scanning the table', async () => {
    const indexes = await app.factories.sql(`select indexdef from pg_indexes where tablename = 'activity_log' order by indexname`);
    expect(indexes.map((row) => row.indexdef)).toEqual(
      expect.arrayContaining([
        expect.stringContaining('activity_log_item_index ON public.activity_log USING btree (project_id, scope, item_id, created_at, id)'),
        expect.stringContaining('activity_log_scope_index ON public.activity_log USING btree (project_id, scope, created_at, id)'),
        expect.stringContaining('activity_log_project_index ON public.activity_log USING btree (project_id, created_at, id)'),
      ]),
    );
    // Statistics and the visibility map as autovacuum keeps them: the writes of the tests above left pages
    // that are not all-visible, which can tip the planner's cost of counting towards a scan.
    await app.factories.sql('vacuum analyze activity_log');
    const sql = await app.sqlDuring(() => app.request(`${path}?page=2`, { key }));
    const pageRead = sql.find((statement) => /from activity_log where .* order by/.test(statement))!;
    const countRead = sql.find((statement) => /count\(\*\)/.test(statement))!;
    expect(pageRead).toBeDefined();
    const params = [world.project.id, 'FeatureFlag', String(flagId)];
    const plan = async (statement: string, extra: unknown[]) =>
      (await app.factories.sql(`explain ${statement}`, [...params, ...extra])).map((row) => row['QUERY PLAN']).join('\n');
    const pagePlan = await plan(pageRead, [10, 10]);
    expect(pagePlan).toMatch(/Index (Only )?Scan( Backward)? using activity_log_item_index/);
    expect(pagePlan).not.toMatch(/Seq Scan|Sort/);
    const countPlan = await plan(countRead, [world.project.id, flagId]);
    expect(countPlan).toMatch(/Index (Only )?Scan using activity_log_item_index|Bitmap Index Scan on activity_log_item_index/);
    expect(countPlan).not.toMatch(/Seq Scan on activity_log/);
  });
});
