import type { World } from '../helpers/factories';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { capture } from '../ingestion/capture-helpers';

/**
 * Issue 22 ("No request can stall the service"), cohort references: every path once expanded each
 * reference again, so a cohort's work multiplied along its reference chain (docs/cohorts.md §2).
 * Work is pinned by the SQL the app sends (its text and its statements), never by a clock; the
 * chains stored by hand reach 2^60 conditions, which any path still expanding them could not finish.
 */

let app: TestApp;
let world: World;
let base: string;

const LIMIT = 10_000;
const post = (path: string, body: unknown, w = world) =>
  app.request(`/api/projects/${w.project.id}${path}`, { method: 'POST', key: w.owner.key, body });
const patch = (path: string, body: unknown) => app.request(`${base}${path}`, { method: 'PATCH', key: world.owner.key, body });
const get = (path: string, w = world) => app.request(`/api/projects/${w.project.id}${path}`, { key: w.owner.key });
const invalid = (detail: string, attr: string | null, code = 'invalid_input') => ({ type: 'validation_error', code, detail, attr });
const tooBig = (name: string, size: number) =>
  invalid(`Cohort '${name}' expands to ${size} conditions; at most ${LIMIT} are allowed.`, 'filters');
const ref = (id: number) => ({ key: 'id', type: 'cohort', value: id });
const plan = { key: 'plan', type: 'person', value: 'pro', operator: 'exact' };
/** A property group of `times` references to `id`. */
const refs = (id: number, times: number) => ({ properties: { type: 'AND', values: Array.from({ length: times }, () => ref(id)) } });

async function cohort(name: string, filters: unknown, w = world): Promise<number> {
  const res = await post('/cohorts/', { name, filters }, w);
  expect({ status: res.status, body: res.status === 201 ? null : res.body }).toEqual({ status: 201, body: null });
  return res.body.id;
}

/** A cohort stored as data made before the limit, or by hand. */
async function storedByHand(name: string, filters: unknown, w = world): Promise<number> {
  const [row] = await app.factories.sql(
    'insert into cohort (project_id, name, filters, created_at, updated_at) values (?, ?, ?::jsonb, now(), now()) returning id',
    [w.project.id, name, JSON.stringify(filters)],
  );
  return row.id;
}

/** The statements `action` sends (less the remembered key lookup): how many, the longest, and all their text. */
async function sqlOf(action: () => Promise<unknown>) {
  const statements = await app.sqlDuring(action);
  return {
    count: statements.length,
    longest: Math.max(0, ...statements.map((sql) => sql.length)),
    total: statements.reduce((sum, sql) => sum + sql.length, 0),
  };
}

async function persons(w: World) {
  const batch = [
    { event: 'seen', distinct_id: 'alice', properties: { $set: { plan: 'pro' } } },
    { event: 'seen', distinct_id: 'bob', properties: { $set: { plan: 'free' } } },
    { event: 'seen', distinct_id: 'carol', properties: { $set: { plan: 'pro' } } },
  ];
  expect((await capture(app, '/batch/', { api_key: w.project.apiToken, batch })).status).toBe(200);
}

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
  base = `/api/projects/${world.project.id}`;
  await persons(world);
});
afterAll(() => app.close());

describe('regression: c1 = 100 × c0, c2 = 100 × c1, c3 = 10 × c2, c4 = 10 × c3 took seconds and hundreds of MB per read', () => {
  let c: number[];
  let flagKey: string;

  beforeAll(async () => {
    const c0 = await cohort('c0', { properties: { type: 'AND', values: [plan] } });
    const c1 = await cohort('c1', refs(c0, 100));
    const c2 = await cohort('c2', refs(c1, 100)); // 10,000 conditions: exactly the limit
    c = [c0, c1, c2];
  });

  it('refuses c3 (100,000 conditions) by name, and writes nothing', async () => {
    const before = (await get('/cohorts/')).body.count;
    expect((await post('/cohorts/', { name: 'c3', filters: refs(c[2], 10) })).body).toEqual(tooBig('c3', 100_000));
    expect((await get('/cohorts/')).body.count).toBe(before);
  });

  it('counts c2, at the limit, with one statement of bounded text', async () => {
    let count: unknown;
    const sql = await sqlOf(async () => {
      count = (await get(`/cohorts/${c[2]}/`)).body.count;
    });
    expect(count).toBe(2);
    expect(sql.longest).toBeLessThan(LIMIT * 60);
  });

  describe('c3 and c4 stored by hand, past the limit', () => {
    beforeAll(async () => {
      c.push(await storedByHand('c3', refs(c[2], 10)));
      c.push(await storedByHand('c4', refs(c[3], 10))); // 1,000,000 conditions
      flagKey = 'on-c4';
      const flag = await post('/feature_flags/', {
        key: flagKey,
        filters: { groups: [{ properties: [ref(c[4])], rollout_percentage: 100 }] },
      });
      expect(flag.status).toBe(201);
    });

    it('refuses another cohort over c3 by name', async () => {
      expect((await post('/cohorts/', { name: 'c4 again', filters: refs(c[3], 10) })).body).toEqual(tooBig('c4 again', 1_000_000));
    });

    it('retrieves and counts c3 and c4 with short statements', async () => {
      for (const id of [c[3], c[4]]) {
        let body: any;
        const sql = await sqlOf(async () => {
          body = (await get(`/cohorts/${id}/`)).body;
        });
        expect(body).toMatchObject({ id, count: 2 });
        expect(sql.longest).toBeLessThan(2_000);
      }
    });

    it('lists the chain: no statement repeats a cohort once per path', async () => {
      let results: Array<{ name: string; count: number }> = [];
      const sql = await sqlOf(async () => {
        results = (await get('/cohorts/?limit=5')).body.results;
      });
      expect(results.map((r) => [r.name, r.count])).toEqual([
        ['c4', 2],
        ['c3', 2],
        ['c2', 2],
        ['c1', 2],
        ['c0', 2],
      ]);
      // c2 and c1 are inlined (10,100 conditions in all); c3 and c4 are left to the matcher.
      expect(sql.total).toBeLessThan((LIMIT + 100) * 60);
      // The page, its creators, the project's cohorts, then one count each (the caller's standing in the
      // project is remembered from the writes' lookups before: src/app-caches.ts).
      expect(sql.count).toBe(3 + 5);
    });

    it('sizes a blast radius over c4 and c3 together within one statement budget', async () => {
      let body: any;
      const sql = await sqlOf(async () => {
        body = (await post('/feature_flags/user_blast_radius', { condition: { properties: [ref(c[4]), ref(c[3]), ref(c[2]), ref(c[2])] } }))
          .body;
      });
      expect(body).toEqual({ users_affected: 2, total_users: 3 });
      // c2 once fits the budget, the second c2 does not: the statement inlines 10,000 conditions at most.
      expect(sql.longest).toBeLessThan(LIMIT * 60);
    });

    it('evaluates a flag on c4 remotely, from two statements', async () => {
      const token = world.project.apiToken;
      for (const [distinctId, enabled] of [
        ['alice', true],
        ['bob', false],
      ] as const) {
        let body: any;
        const sql = await sqlOf(async () => {
          body = (await app.request('/flags/?v=2', { method: 'POST', body: { token, distinct_id: distinctId } })).body;
        });
        expect(body).toMatchObject({ flags: { [flagKey]: { enabled } }, errorsWhileComputingFlags: false });
        expect(sql.longest).toBeLessThan(2_000);
      }
      const reasons = await get('/feature_flags/evaluation_reasons?distinct_id=carol');
      expect(reasons.body[flagKey].value).toBe(true);
    });

    it('does not send cohorts past the limit to SDKs: they ask the server for those flags', async () => {
      const local = await get('/feature_flags/local_evaluation?send_cohorts');
      expect(local.status).toBe(200);
      expect(Object.keys(local.body.cohorts)).toEqual([]);
    });

    it('refuses an edit that grows a cohort past the limit, naming the first such cohort; edits that do not grow one pass', async () => {
      const twoLeaves = { properties: { type: 'AND', values: [plan, { ...plan, value: 'max', operator: 'is_not' }] } };
      expect((await patch(`/cohorts/${c[0]}/`, { filters: twoLeaves })).body).toEqual(tooBig('c2', 20_000));
      expect((await get(`/cohorts/${c[0]}/`)).body.filters.properties.values).toHaveLength(1);
      expect((await patch(`/cohorts/${c[4]}/`, { name: 'c4 renamed' })).status).toBe(200);
      expect((await patch(`/cohorts/${c[4]}/`, { filters: refs(c[3], 5) })).body).toEqual(tooBig('c4 renamed', 500_000));
      // c3 past the limit already: a same-size edit of what it holds does not block it.
      expect((await patch(`/cohorts/${c[1]}/`, { filters: refs(c[0], 99) })).status).toBe(200);
    });
  });
});

describe('regression: a diamond chain of depth 19 made a list of 6 cohorts take 5.5 s', () => {
  let other: World;
  let chain: number[];

  beforeAll(async () => {
    other = await app.factories.world();
    await persons(other);
    chain = [await cohort('d0', { properties: { type: 'AND', values: [plan] } }, other)];
    for (let i = 1; i <= 13; i++) chain.push(await cohort(`d${i}`, refs(chain[i - 1], 2), other));
  });

  it('refuses d14 (2^14 conditions) by name', async () => {
    expect((await post('/cohorts/', { name: 'd14', filters: refs(chain[13], 2) }, other)).body).toEqual(tooBig('d14', 16_384));
  });

  it('lists the six cohorts at the top of a depth-19 chain stored by hand, and retrieves one at depth 60', async () => {
    for (let i = 14; i <= 19; i++) chain.push(await storedByHand(`d${i}`, refs(chain[i - 1], 2), other));
    let results: Array<{ name: string; count: number }> = [];
    const sql = await sqlOf(async () => {
      results = (await get('/cohorts/?limit=6', other)).body.results;
    });
    expect(results.map((r) => [r.name, r.count])).toEqual([14, 15, 16, 17, 18, 19].reverse().map((i) => [`d${i}`, 2]));
    expect(sql.longest).toBeLessThan(2_000);
    // The page, the project's cohorts (no creators: made by hand), one count each (the standing is remembered).
    expect(sql.count).toBe(2 + 6);

    for (let i = 20; i <= 60; i++) chain.push(await storedByHand(`d${i}`, refs(chain[i - 1], 2), other));
    expect((await get(`/cohorts/${chain[60]}/`, other)).body.count).toBe(2);
    const blast = await post('/feature_flags/user_blast_radius', { condition: { properties: [ref(chain[60])] } }, other);
    expect(blast.body).toEqual({ users_affected: 2, total_users: 3 });
    const flag = await post('/feature_flags/', { key: 'on-d60', filters: { groups: [{ properties: [ref(chain[60])] }] } }, other);
    expect(flag.status).toBe(201);
    const remote = await app.request('/flags/?v=2', { method: 'POST', body: { token: other.project.apiToken, distinct_id: 'carol' } });
    expect(remote.body).toMatchObject({ flags: { 'on-d60': { enabled: true } }, errorsWhileComputingFlags: false });
  });
});
