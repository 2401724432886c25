import { startTestApp, type TestApp } from '../helpers/test-app';
import type { World } from '../helpers/factories';
import { capture, uniqueId } from '../ingestion/capture-helpers';

/**
 * docs/stale-flags.md: `GET /feature_flags/:id/status/`, `last_called_at` on the flag, and the
 * list's `active=STALE`. Old flags are made by setting `updated_at` in SQL; evaluations are
 * `$feature_flag_called` events captured with past timestamps (docs/ingestion.md), never by waiting;
 * the last case moves the app's clock a month instead.
 */

const DAY_MS = 86_400_000;

let app: TestApp;
let world: World;
let flags: string;

// Counted back from the app's clock, which the service's 30 days are measured on (it stands still while the test runs).
const daysAgo = (days: number) => new Date(app.clock.now() - days * DAY_MS);

async function create(key: string, body: Record<string, unknown> = {}, ageDays = 40): Promise<number> {
  const res = await app.request(flags, { method: 'POST', key: world.owner.key, body: { key, ...body } });
  expect(res.status).toBe(201);
  if (ageDays > 0) await age(res.body.id, ageDays);
  return res.body.id;
}
const age = (id: number, days: number) =>
  app.factories.sql(`update feature_flag set updated_at = now() - make_interval(days => ?) where id = ?`, [days, id]);

async function called(flag: string, ago: number, token = world.project.apiToken) {
  const res = await capture(app, '/batch/', {
    api_key: token,
    batch: [{ event: '$feature_flag_called', distinct_id: uniqueId(), properties: { $feature_flag: flag }, timestamp: daysAgo(ago) }],
  });
  expect(res.status).toBe(200);
}

const status = async (id: number | string, key = world.owner.key) => {
  const res = await app.request(`${flags}/${id}/status/`, { key });
  return res;
};
const statusOf = async (id: number) => {
  const res = await status(id);
  expect(res.status).toBe(200);
  return res.body as { status: string; reason: string };
};

const rollout = (percentage: number | null, properties: unknown[] = []) => ({ groups: [{ properties, rollout_percentage: percentage }] });
const ids: Record<string, number> = {};

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
  flags = `/api/projects/${world.project.id}/feature_flags`;
  ids.fresh = await create('fresh', { filters: rollout(100) }, 0);
  ids.everyone = await create('everyone', { filters: rollout(100) });
  ids.noRollout = await create('no-rollout', { filters: rollout(null) });
  ids.targeted = await create('targeted', { filters: rollout(100, [{ key: 'email', value: 'a@b.c', type: 'person', operator: 'exact' }]) });
  ids.half = await create('half', { filters: rollout(50) });
  ids.halfOld = await create('half-old-call', { filters: rollout(50) });
  ids.halfNever = await create('half-never', { filters: rollout(50) });
  ids.disabled = await create('disabled', { filters: rollout(50), active: false });
  ids.nobody = await create('nobody', { filters: rollout(0) });
  ids.override = await create('override', {
    filters: {
      groups: [{ properties: [], rollout_percentage: 100, variant: 'test' }],
      multivariate: {
        variants: [
          { key: 'control', rollout_percentage: 50 },
          { key: 'test', rollout_percentage: 50 },
        ],
      },
    },
  });
  ids.wholeVariant = await create('whole-variant', {
    filters: {
      groups: [{ properties: [], rollout_percentage: 100 }],
      multivariate: {
        variants: [
          { key: 'control', rollout_percentage: 0 },
          { key: 'test', rollout_percentage: 100 },
        ],
      },
    },
  });
  ids.split = await create('split', {
    filters: {
      groups: [{ properties: [], rollout_percentage: 100 }],
      multivariate: {
        variants: [
          { key: 'control', rollout_percentage: 50 },
          { key: 'test', rollout_percentage: 50 },
        ],
      },
    },
  });
  ids.deleted = await create('deleted', { filters: rollout(100) });
  expect((await app.request(`${flags}/${ids.deleted}`, { method: 'PATCH', key: world.owner.key, body: { deleted: true } })).status).toBe(
    200,
  );
  await age(ids.deleted, 40);
  await called('half', 5);
  await called('half', 12);
  await called('split', 2);
  await called('half-old-call', 45);
  await called('everyone', 1);
});
afterAll(() => app.close());

describe('GET /feature_flags/:id/status/', () => {
  it('a flag changed in the last 30 days is active, whatever its rollout', async () => {
    expect(await statusOf(ids.fresh)).toEqual({ status: 'active', reason: 'Flag was changed in the last 30 days' });
  });

  it('an old flag rolled out to everyone is stale, evaluated or not (PostHog: its answer cannot vary)', async () => {
    const boolean = { status: 'stale', reason: 'This boolean flag will always evaluate to "true"' };
    expect(await statusOf(ids.everyone)).toEqual(boolean);
    // docs/evaluation.md §2: a condition without a rollout lets everyone through.
    expect(await statusOf(ids.noRollout)).toEqual({ ...boolean });
  });

  it('a condition with properties is not a rollout to everyone', async () => {
    expect(await statusOf(ids.targeted)).toEqual({ status: 'stale', reason: 'Flag has never been evaluated' });
  });

  it('an old partial rollout is active while it is evaluated, stale once it is not', async () => {
    expect(await statusOf(ids.half)).toEqual({
      status: 'active',
      reason: 'Flag was evaluated in the last 30 days and its answer can vary',
    });
    expect(await statusOf(ids.halfOld)).toEqual({ status: 'stale', reason: 'Flag has not been evaluated in 45 days' });
    expect(await statusOf(ids.halfNever)).toEqual({ status: 'stale', reason: 'Flag has never been evaluated' });
  });

  it('an old flag off for everyone is stale: disabled, or rolled out to 0%', async () => {
    expect(await statusOf(ids.disabled)).toEqual({
      status: 'stale',
      reason: 'This flag is disabled and will always evaluate to "false"',
    });
    expect(await statusOf(ids.nobody)).toEqual({
      status: 'stale',
      reason: 'This flag is rolled out to 0% and will always evaluate to "false"',
    });
  });

  it('a multivariate flag is stale when everyone gets one variant, active while its variants split', async () => {
    expect(await statusOf(ids.override)).toEqual({ status: 'stale', reason: 'This flag will always use the variant "test"' });
    expect(await statusOf(ids.wholeVariant)).toEqual({ status: 'stale', reason: 'This flag will always use the variant "test"' });
    expect((await statusOf(ids.split)).status).toBe('active');
  });

  it('a soft-deleted flag answers 200 with `deleted`, as PostHog', async () => {
    expect(await statusOf(ids.deleted)).toEqual({ status: 'deleted', reason: 'Flag has been deleted' });
  });

  it('answers 404 for a flag the project does not have, and for a malformed id, as retrieve does', async () => {
    const other = await app.factories.project(world.organization);
    const foreign = await app.request(`/api/projects/${other.id}/feature_flags`, {
      method: 'POST',
      key: world.owner.key,
      body: { key: 'elsewhere' },
    });
    for (const id of [999_999, 'abc', foreign.body.id]) {
      const res = await status(id);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ type: 'invalid_request', code: 'not_found', detail: 'Not found.', attr: null });
    }
  });

  it('answers without the trailing slash too, and changing a stale flag makes it active', async () => {
    const id = await create('touched', { filters: rollout(100) });
    expect((await app.request(`${flags}/${id}/status`, { key: world.owner.key })).body.status).toBe('stale');
    expect((await app.request(`${flags}/${id}`, { method: 'PATCH', key: world.owner.key, body: { name: 'still here' } })).status).toBe(200);
    expect(await statusOf(id)).toEqual({ status: 'active', reason: 'Flag was changed in the last 30 days' });
  });
});

describe('last_called_at', () => {
  it("is the flag key's newest `$feature_flag_called`, null before any, on retrieve and in the list", async () => {
    const half = await app.request(`${flags}/${ids.half}`, { key: world.owner.key });
    expect(new Date(half.body.last_called_at).getTime()).toBeCloseTo(daysAgo(5).getTime(), -5);
    const never = await app.request(`${flags}/${ids.halfNever}`, { key: world.owner.key });
    expect(never.body.last_called_at).toBeNull();
    const page = await app.request(`${flags}?limit=100`, { key: world.owner.key });
    const byKey = new Map(page.body.results.map((f: { key: string; last_called_at: string | null }) => [f.key, f.last_called_at]));
    expect(byKey.get('half')).toBe(half.body.last_called_at);
    expect(byKey.get('half-never')).toBeNull();
  });

  it("counts only this project's events", async () => {
    const other = await app.factories.project(world.organization);
    await called('half-never', 1, other.apiToken);
    const never = await app.request(`${flags}/${ids.halfNever}`, { key: world.owner.key });
    expect(never.body.last_called_at).toBeNull();
  });
});

describe('GET /feature_flags?active=STALE', () => {
  const STALE = ['whole-variant', 'override', 'nobody', 'disabled', 'half-never', 'half-old-call', 'targeted', 'no-rollout', 'everyone'];

  it('keeps the stale flags, newest first, with the right count', async () => {
    const res = await app.request(`${flags}?active=STALE`, { key: world.owner.key });
    expect(res.status).toBe(200);
    const keys = res.body.results.map((f: { key: string }) => f.key);
    // `touched` was changed by the test above; the deleted flag is never listed.
    expect(keys).toEqual(STALE);
    expect(res.body.count).toBe(STALE.length);
  });

  it('pages the filtered list: count and links stay those of the filter', async () => {
    const first = await app.request(`${flags}?active=STALE&limit=4`, { key: world.owner.key });
    expect(first.body.count).toBe(STALE.length);
    expect(first.body.results.map((f: { key: string }) => f.key)).toEqual(STALE.slice(0, 4));
    expect(first.body.next).toContain('active=STALE');
    const last = await app.request(`${flags}?active=STALE&limit=4&offset=8`, { key: world.owner.key });
    expect(last.body.results.map((f: { key: string }) => f.key)).toEqual(STALE.slice(8));
    expect(last.body.next).toBeNull();
  });

  it('takes STALE in any case, combines with the other filters, and leaves active=true|false as they were', async () => {
    const searched = await app.request(`${flags}?active=STALE&search=half`, { key: world.owner.key });
    expect(searched.body.results.map((f: { key: string }) => f.key)).toEqual(['half-never', 'half-old-call']);
    const lower = await app.request(`${flags}?active=stale`, { key: world.owner.key });
    expect(lower.body.count).toBe(STALE.length);
    const inactive = await app.request(`${flags}?active=false`, { key: world.owner.key });
    expect(inactive.body.results.map((f: { key: string }) => f.key)).toEqual(['disabled']);
  });

  it('the list and the status endpoint agree on every flag, odd stored filters included', async () => {
    // Shapes the API no longer writes but the table may hold: no `groups`, `groups: null`, odd values.
    const odd: Array<[string, unknown]> = [
      ['legacy-everyone', {}],
      ['legacy-targeted', { properties: [{ key: 'email', value: 'x', type: 'person' }] }],
      ['groups-null', { groups: null }],
      ['groups-empty', { groups: [] }],
      ['odd-condition', { groups: [7, { rollout_percentage: '100' }] }],
      ['odd-variants', { groups: [{ rollout_percentage: 100 }], multivariate: { variants: [1, { key: 5, rollout_percentage: 100 }] } }],
    ];
    for (const [key, filters] of odd) {
      const id = await create(key);
      await app.factories.sql(`update feature_flag set filters = ?::jsonb, updated_at = now() - interval '40 days' where id = ?`, [
        JSON.stringify(filters),
        id,
      ]);
    }
    const all = await app.request(`${flags}?limit=1000`, { key: world.owner.key });
    const stale = await app.request(`${flags}?active=STALE&limit=1000`, { key: world.owner.key });
    expect(stale.status).toBe(200);
    const listed = new Set(stale.body.results.map((f: { key: string }) => f.key));
    for (const flag of all.body.results as Array<{ id: number; key: string }>) {
      const { status: value } = await statusOf(flag.id);
      expect([flag.key, value === 'stale']).toEqual([flag.key, listed.has(flag.key)]);
    }
    expect(listed.has('legacy-everyone')).toBe(true);
    expect(listed.has('groups-empty')).toBe(true);
  });
});

describe("on the app's clock (docs/operations.md, 'Time and caches')", () => {
  it('a flag left alone turns stale once the clock passes 30 days, in the status and the list alike', async () => {
    // An app of its own: moving this file's app a month ahead would age every flag above.
    const later = await startTestApp();
    try {
      const other = await later.factories.world();
      const path = `/api/projects/${other.project.id}/feature_flags`;
      const key = other.owner.key;
      const created = await later.request(path, { method: 'POST', key, body: { key: 'left-alone', filters: rollout(100) } });
      expect(created.status).toBe(201);
      const statusPath = `${path}/${created.body.id}/status/`;
      expect((await later.request(statusPath, { key })).body.status).toBe('active');
      later.clock.advance(29 * DAY_MS);
      expect((await later.request(statusPath, { key })).body.status).toBe('active');
      expect((await later.request(`${path}?active=STALE`, { key })).body.count).toBe(0);
      later.clock.advance(2 * DAY_MS);
      expect((await later.request(statusPath, { key })).body).toEqual({
        status: 'stale',
        reason: 'This boolean flag will always evaluate to "true"',
      });
      const stale = await later.request(`${path}?active=STALE`, { key });
      expect(stale.body.results.map((flag: { key: string }) => flag.key)).toEqual(['left-alone']);
    } finally {
      await later.close();
    }
  });
});
