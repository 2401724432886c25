import type { World } from '../helpers/factories';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { capture } from '../ingestion/capture-helpers';

/**
 * Cohorts in evaluation (docs/evaluation.md §5 and §10, docs/cohorts.md): static and dynamic, nested and negated,
 * in evaluation_reasons, my_flags, blast radius and the SDK definitions (`send_cohorts`).
 */

let app: TestApp;
let world: World;
let base: string;

const post = (path: string, body: unknown) => app.request(`${base}${path}`, { method: 'POST', key: world.owner.key, body });
const patch = (path: string, body: unknown) => app.request(`${base}${path}`, { method: 'PATCH', key: world.owner.key, body });
const person = (key: string, value: unknown, operator = 'exact', negation?: boolean) => ({
  key,
  type: 'person',
  value,
  operator,
  ...(negation ? { negation } : {}),
});
const ref = (id: number, negation?: boolean) => ({ key: 'id', type: 'cohort', value: id, ...(negation ? { negation } : {}) });

async function cohort(body: Record<string, unknown>): Promise<number> {
  const res = await post('/cohorts/', body);
  expect({ status: res.status, body: res.status === 201 ? null : res.body }).toEqual({ status: 201, body: null });
  return res.body.id;
}

async function flag(key: string, properties: unknown[]): Promise<number> {
  const res = await post('/feature_flags/', { key, filters: { groups: [{ properties, rollout_percentage: 100 }] } });
  expect({ status: res.status, body: res.status === 201 ? null : res.body }).toEqual({ status: 201, body: null });
  return res.body.id;
}

const reasons = async (distinctId: string) => {
  const res = await app.request(`${base}/feature_flags/evaluation_reasons?distinct_id=${encodeURIComponent(distinctId)}`, {
    key: world.owner.key,
  });
  if (res.status !== 200) throw new Error(`${res.status} ${res.text}`);
  return res.body;
};
const valuesFor = async (distinctId: string, keys: string[]) => {
  const body = await reasons(distinctId);
  return Object.fromEntries(keys.map((key) => [key, body[key].value]));
};
const blastRadius = async (properties: unknown[]) => (await post('/feature_flags/user_blast_radius', { condition: { properties } })).body;

// Persons: plan × country, plus one member of the static cohort with two distinct ids.
const PEOPLE: Array<[string, Record<string, unknown>]> = [
  ['ann', { plan: 'pro', country: 'US', email: 'ann@corp.io' }],
  ['ben', { plan: 'pro', country: 'DE', email: 'ben@example.com' }],
  ['cat', { plan: 'free', country: 'US', email: 'cat@corp.io' }],
  ['dan', { plan: 'free', country: 'FR' }],
  ['eve', { country: 'US' }],
];

let ids: { pro: number; us: number; proOrUs: number; notPro: number; nested: number; beta: number; betaOrPro: number; notBeta: number };

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
  base = `/api/projects/${world.project.id}`;
  const batch = [
    ...PEOPLE.map(([id, properties]) => ({ event: 'seen', distinct_id: id, properties: { $set: properties } })),
    { event: '$identify', distinct_id: 'ben', properties: { $anon_distinct_id: 'ben-laptop' } },
    { event: 'seen', distinct_id: world.owner.user.distinctId, properties: { $set: { plan: 'pro', country: 'CA' } } },
  ];
  expect((await capture(app, '/batch/', { api_key: world.project.apiToken, batch })).status).toBe(200);

  const pro = await cohort({ name: 'pro', filters: { properties: { type: 'AND', values: [person('plan', 'pro')] } } });
  const us = await cohort({ name: 'us', filters: { properties: { type: 'AND', values: [person('country', 'us')] } } });
  const proOrUs = await cohort({
    name: 'pro or us',
    filters: {
      properties: {
        type: 'OR',
        values: [
          { type: 'AND', values: [ref(pro)] },
          { type: 'AND', values: [ref(us)] },
        ],
      },
    },
  });
  const notPro = await cohort({ name: 'not pro', filters: { properties: { type: 'AND', values: [ref(pro, true)] } } });
  const nested = await cohort({
    name: 'pro outside the US',
    filters: { properties: { type: 'AND', values: [ref(pro), ref(us, true), person('email', '@', 'icontains')] } },
  });
  const beta = await cohort({ name: 'beta', is_static: true });
  expect((await post(`/cohorts/${beta}/persons/`, { distinct_ids: ['ben-laptop', 'dan', 'ghost'] })).body.count).toBe(2);
  const betaOrPro = await cohort({ name: 'beta or pro', filters: { properties: { type: 'OR', values: [ref(beta), ref(pro)] } } });
  const notBeta = await cohort({ name: 'not beta', filters: { properties: { type: 'AND', values: [ref(beta, true)] } } });
  ids = { pro, us, proOrUs, notPro, nested, beta, betaOrPro, notBeta };
});
afterAll(() => app.close());

describe('evaluation_reasons', () => {
  const KEYS = ['in-pro', 'not-in-pro', 'in-pro-or-us', 'in-not-pro', 'nested', 'in-beta', 'not-in-beta', 'beta-or-pro', 'not-beta'];
  beforeAll(async () => {
    await flag('in-pro', [{ key: 'id', type: 'cohort', value: ids.pro }]);
    await flag('not-in-pro', [{ key: 'id', type: 'cohort', value: String(ids.pro), operator: 'not_in' }]);
    await flag('in-pro-or-us', [{ key: 'id', type: 'cohort', value: ids.proOrUs, operator: 'in' }]);
    await flag('in-not-pro', [{ key: 'id', type: 'cohort', value: ids.notPro }]);
    await flag('nested', [{ key: 'id', type: 'cohort', value: ids.nested }]);
    await flag('in-beta', [{ key: 'id', type: 'cohort', value: ids.beta }]);
    await flag('not-in-beta', [{ key: 'id', type: 'cohort', value: ids.beta, operator: 'not_in' }]);
    await flag('beta-or-pro', [{ key: 'id', type: 'cohort', value: ids.betaOrPro }]);
    await flag('not-beta', [{ key: 'id', type: 'cohort', value: ids.notBeta }]);
  });

  it.each([
    ['ann', [true, false, true, false, false, false, true, true, true]],
    ['ben', [true, false, true, false, true, true, false, true, false]],
    ['ben-laptop', [true, false, true, false, true, true, false, true, false]],
    ['cat', [false, true, true, true, false, false, true, false, true]],
    ['dan', [false, true, false, true, false, true, false, true, false]],
    ['eve', [false, true, true, true, false, false, true, false, true]],
    // Unknown: evaluated on {distinct_id}, in no static cohort.
    ['stranger', [false, true, false, true, false, false, true, false, true]],
  ])('decides static, dynamic, nested and negated cohorts for %s', async (distinctId, expected) => {
    expect(await valuesFor(distinctId, KEYS)).toEqual(Object.fromEntries(KEYS.map((key, i) => [key, expected[i]])));
  });

  it('reports the condition that decided', async () => {
    const body = await reasons('ann');
    expect(body['in-pro']).toEqual({ value: true, evaluation: { reason: 'condition_match', condition_index: 0 } });
    expect(body['in-beta']).toEqual({ value: false, evaluation: { reason: 'no_condition_match', condition_index: 0 } });
  });

  it('gives a cohort deleted after the flag was saved no members', async () => {
    const temporary = await cohort({ name: 'temporary', filters: { properties: { type: 'AND', values: [person('plan', 'free')] } } });
    await flag('in-temporary', [{ key: 'id', type: 'cohort', value: temporary }]);
    await flag('not-in-temporary', [{ key: 'id', type: 'cohort', value: temporary, operator: 'not_in' }]);
    expect(await valuesFor('cat', ['in-temporary', 'not-in-temporary'])).toEqual({ 'in-temporary': true, 'not-in-temporary': false });
    await patch(`/cohorts/${temporary}`, { deleted: true });
    expect(await valuesFor('cat', ['in-temporary', 'not-in-temporary'])).toEqual({ 'in-temporary': false, 'not-in-temporary': true });
    await patch(`/cohorts/${temporary}`, { deleted: false });
  });

  it('sees a cohort change and a new static member at once', async () => {
    const changing = await cohort({ name: 'changing', filters: { properties: { type: 'AND', values: [person('country', 'DE')] } } });
    await flag('in-changing', [{ key: 'id', type: 'cohort', value: changing }]);
    expect(await valuesFor('ann', ['in-changing'])).toEqual({ 'in-changing': false });
    await patch(`/cohorts/${changing}`, { filters: { properties: { type: 'AND', values: [person('country', 'US')] } } });
    expect(await valuesFor('ann', ['in-changing'])).toEqual({ 'in-changing': true });
    await post(`/cohorts/${ids.beta}/persons/`, { distinct_ids: ['eve'] });
    expect(await valuesFor('eve', ['in-beta'])).toEqual({ 'in-beta': true });
  });
});

describe('my_flags', () => {
  it("evaluates cohorts for the caller's own person", async () => {
    await flag('mine-pro', [{ key: 'id', type: 'cohort', value: ids.pro }]);
    await flag('mine-beta', [{ key: 'id', type: 'cohort', value: ids.beta }]);
    const res = await app.request(`${base}/feature_flags/my_flags`, { key: world.owner.key });
    const byKey = Object.fromEntries(
      res.body.map((entry: { feature_flag: { key: string }; value: unknown }) => [entry.feature_flag.key, entry.value]),
    );
    expect(byKey).toMatchObject({ 'mine-pro': true, 'mine-beta': false });
  });
});

describe('blast radius and count', () => {
  it('counts persons in static, dynamic, nested and negated cohorts as evaluation decides them', async () => {
    await post(`/cohorts/${ids.beta}/persons/`, { distinct_ids: ['eve'] }); // a no-op when the test above ran
    const beta = (await app.request(`${base}/cohorts/${ids.beta}`, { key: world.owner.key })).body.count;
    expect(beta).toBe(3); // ben (through ben-laptop), dan, eve
    // Six persons: ann, ben (two distinct ids), cat, dan, eve and the owner (pro, CA).
    const cases: Array<[unknown[], number]> = [
      [[{ key: 'id', type: 'cohort', value: ids.pro }], 3], // ann, ben, the owner
      [[{ key: 'id', type: 'cohort', value: ids.pro, operator: 'not_in' }], 3],
      [[{ key: 'id', type: 'cohort', value: ids.nested }], 1], // ben
      [[{ key: 'id', type: 'cohort', value: ids.notPro }], 3],
      [[{ key: 'id', type: 'cohort', value: ids.beta }], 3],
      [[{ key: 'id', type: 'cohort', value: ids.beta, operator: 'not_in' }], 3],
      [[{ key: 'id', type: 'cohort', value: ids.proOrUs }, person('plan', 'free')], 1], // cat
      [[{ key: 'id', type: 'cohort', value: ids.betaOrPro }], 5],
      [[{ key: 'id', type: 'cohort', value: ids.notBeta }, person('country', 'is_set', 'is_set')], 3],
    ];
    for (const [properties, affected] of cases) {
      expect({ properties, radius: await blastRadius(properties) }).toEqual({
        properties,
        radius: { users_affected: affected, total_users: 6 },
      });
    }
    const counts = await Promise.all(
      (['pro', 'us', 'proOrUs', 'notPro', 'nested', 'betaOrPro', 'notBeta'] as const).map(
        async (name) => (await app.request(`${base}/cohorts/${ids[name]}`, { key: world.owner.key })).body.count,
      ),
    );
    expect(counts).toEqual([3, 3, 5, 3, 1, 5, 3]);
  });
});

describe('the SDK definitions', () => {
  it('sends dynamic cohorts with send_cohorts, nested ones included; never static or deleted ones', async () => {
    const other = await app.factories.world();
    const path = `/api/projects/${other.project.id}`;
    const make = async (body: unknown) =>
      (await app.request(`${path}/cohorts/`, { method: 'POST', key: other.owner.key, body })).body.id as number;
    const d = await make({ name: 'D', filters: { properties: { type: 'AND', values: [person('plan', 'pro')] } } });
    const s = await make({ name: 'S', is_static: true });
    const c = await make({
      name: 'C',
      filters: {
        properties: {
          type: 'OR',
          values: [
            { type: 'AND', values: [ref(d)] },
            { type: 'AND', values: [ref(s, true)] },
          ],
        },
      },
    });
    const gone = await make({ name: 'gone', filters: { properties: { type: 'AND', values: [person('plan', 'free')] } } });
    const unrelated = await make({ name: 'unrelated', filters: { properties: { type: 'AND', values: [person('plan', 'x')] } } });
    const createFlag = (key: string, value: number) =>
      app.request(`${path}/feature_flags/`, {
        method: 'POST',
        key: other.owner.key,
        body: { key, filters: { groups: [{ properties: [{ key: 'id', type: 'cohort', value }] }] } },
      });
    const local = (query = '') => app.request(`${path}/feature_flags/local_evaluation${query}`, { key: other.owner.key });

    expect((await createFlag('on-c', c)).status).toBe(201);
    expect((await createFlag('on-static', s)).status).toBe(201);
    expect((await createFlag('on-gone', gone)).status).toBe(201);
    await app.request(`${path}/cohorts/${gone}`, { method: 'PATCH', key: other.owner.key, body: { deleted: true } });

    const withCohorts = await local('?send_cohorts');
    expect(Object.keys(withCohorts.body.cohorts)).toEqual([String(d), String(c)]);
    expect(withCohorts.body.cohorts[String(c)]).toEqual({
      type: 'OR',
      values: [
        { type: 'AND', values: [ref(d)] },
        { type: 'AND', values: [ref(s, true)] },
      ],
    });
    expect(withCohorts.body.flags.map((f: { key: string }) => f.key)).toEqual(['on-c', 'on-static', 'on-gone']);
    expect(withCohorts.body.cohorts[String(unrelated)]).toBeUndefined();
    // Any value counts, and the SDK paths answer the same bytes.
    expect((await local('?send_cohorts=0')).text).toBe(withCohorts.text);
    const sdk = await app.request(`/flags/definitions?token=${other.project.apiToken}&send_cohorts`, {
      headers: { authorization: `Bearer ${other.project.secretApiToken}` },
    });
    expect(sdk.text).toBe(withCohorts.text);
    expect(sdk.headers.get('etag')).toBe(withCohorts.headers.get('etag'));

    const without = await local();
    expect(without.body.cohorts).toEqual({});
    expect(without.body.flags[0].filters).toEqual(withCohorts.body.flags[0].filters);
    expect(without.headers.get('etag')).not.toBe(withCohorts.headers.get('etag'));
    // Revalidation works per variant.
    const etag = withCohorts.headers.get('etag')!;
    expect(
      (
        await app.request(`${path}/feature_flags/local_evaluation?send_cohorts`, {
          key: other.owner.key,
          headers: { 'if-none-match': etag },
        })
      ).status,
    ).toBe(304);

    // A flag only on a static cohort: `{}`.
    const third = await app.factories.world();
    const staticOnly = (
      await app.request(`/api/projects/${third.project.id}/cohorts/`, {
        method: 'POST',
        key: third.owner.key,
        body: { name: 's', is_static: true },
      })
    ).body.id;
    await app.request(`/api/projects/${third.project.id}/feature_flags/`, {
      method: 'POST',
      key: third.owner.key,
      body: { key: 'on-static', filters: { groups: [{ properties: [{ key: 'id', type: 'cohort', value: staticOnly }] }] } },
    });
    expect(
      (await app.request(`/api/projects/${third.project.id}/feature_flags/local_evaluation?send_cohorts`, { key: third.owner.key })).body
        .cohorts,
    ).toEqual({});
  });

  it('serves a cohort change in the next response, with a new ETag', async () => {
    const path = `${base}/feature_flags/local_evaluation?send_cohorts`;
    const before = await app.request(path, { key: world.owner.key });
    await patch(`/cohorts/${ids.us}`, {
      filters: { properties: { type: 'AND', values: [person('country', 'US'), person('plan', 'pro', 'is_not')] } },
    });
    const after = await app.request(path, { key: world.owner.key, headers: { 'if-none-match': before.headers.get('etag')! } });
    expect(after.status).toBe(200);
    expect(after.body.cohorts[String(ids.us)].values).toHaveLength(2);
    await patch(`/cohorts/${ids.us}`, { filters: { properties: { type: 'AND', values: [person('country', 'us')] } } });
  });

  it('builds the body in three statements however many cohorts there are, and serves it cached', async () => {
    const other = await app.factories.world();
    const path = `/api/projects/${other.project.id}`;
    const readsDefinitions = (sql: string) => /from (feature_flag|group_type_mapping|cohort) /.test(sql);
    const statements = async () =>
      (await app.sqlDuring(() => app.request(`${path}/feature_flags/local_evaluation?send_cohorts`, { key: other.owner.key }))).filter(
        readsDefinitions,
      ).length;
    const addCohortFlags = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const id = (
          await app.request(`${path}/cohorts/`, {
            method: 'POST',
            key: other.owner.key,
            body: { name: `c${i}`, filters: { properties: { type: 'AND', values: [person('plan', `p${i}`)] } } },
          })
        ).body.id;
        await app.request(`${path}/feature_flags/`, {
          method: 'POST',
          key: other.owner.key,
          body: { key: `f-${n}-${i}`, filters: { groups: [{ properties: [{ key: 'id', type: 'cohort', value: id }] }] } },
        });
      }
    };
    await addCohortFlags(1);
    const few = [await statements(), await statements()];
    await addCohortFlags(5);
    const many = [await statements(), await statements()];
    expect(few).toEqual([3, 0]);
    expect(many).toEqual(few);
  });
});
