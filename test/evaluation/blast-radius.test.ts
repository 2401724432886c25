import { evaluateFlag } from '../../src/evaluation/evaluate-flag';
import type { World } from '../helpers/factories';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { capture } from '../ingestion/capture-helpers';

/** docs/rest-api.md §4.7, docs/evaluation.md §10. */

let app: TestApp;
let world: World;

const radius = (body: unknown, w: World = world) =>
  app.request(`/api/projects/${w.project.id}/feature_flags/user_blast_radius`, { method: 'POST', key: w.owner.key, body });
const person = (key: string, value: unknown, operator = 'exact') => ({ key, type: 'person', value, operator });
const send = async (w: World, batch: Array<Record<string, unknown>>) =>
  expect((await capture(app, '/batch/', { api_key: w.project.apiToken, batch })).status).toBe(200);

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
});
afterAll(() => app.close());

describe('user_blast_radius: counts and refusals', () => {
  it('counts persons matching every property, ignoring the rollout', async () => {
    expect((await radius({ condition: { properties: [], rollout_percentage: 100 } })).body).toEqual({ users_affected: 0, total_users: 0 });
    await send(
      world,
      Array.from({ length: 10 }, (_, i) => ({ event: 'x', distinct_id: `p${i}`, properties: { $set: { group: i } } })),
    );
    const res = await radius({ condition: { properties: [person('group', [0, 1, 2, 3])], rollout_percentage: 25 } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ users_affected: 4, total_users: 10 });
    expect((await radius({ condition: { properties: [], rollout_percentage: 100 } })).body).toEqual({
      users_affected: 10,
      total_users: 10,
    });
    // A key PostgreSQL cannot store is absent for everyone, not a server error.
    for (const [operator, affected] of [
      ['is_set', 0],
      ['is_not_set', 10],
      ['exact', 0],
      ['is_not', 10],
    ] as const) {
      const res = await radius({ condition: { properties: [person('a\u0000b', 'x', operator)] } });
      expect({ operator, status: res.status, body: res.body }).toEqual({
        operator,
        status: 200,
        body: { users_affected: affected, total_users: 10 },
      });
    }
  });

  it('refuses bad conditions with 400 invalid_input, attr null', async () => {
    const other = await app.factories.world();
    await send(other, [{ event: 'x', distinct_id: 'a', properties: { $groups: { organization: 'o', company: 'c' } } }]);
    const cases: Array<[unknown, string]> = [
      [{}, 'Missing condition for which to get blast radius'],
      [{ condition: null }, 'Missing condition for which to get blast radius'],
      [{ condition: [1] }, 'condition must be an object, got list'],
      [{ condition: 'x' }, 'condition must be an object, got str'],
      [{ condition: { properties: [] }, group_type_index: '1' }, 'group_type_index must be an integer or null, got str'],
      [{ condition: { properties: [] }, group_type_index: 1.5 }, 'group_type_index must be an integer or null, got float'],
      [{ condition: { properties: [] }, group_type_index: 7 }, 'Invalid group type index for feature flag condition.'],
      [
        { condition: { properties: [{ key: 'size', type: 'group', group_type_index: 0, value: 1 }] }, group_type_index: 1 },
        'Invalid group type index for feature flag condition.',
      ],
      [{ condition: { properties: [person('plan', 'pro')] }, group_type_index: 0 }, 'Invalid group type index for feature flag condition.'],
      [
        { condition: { properties: [{ key: 'size', type: 'group', group_type_index: 0, value: 1 }] } },
        'Filters are not valid (can only use person and cohort properties)',
      ],
      [{ condition: { properties: [{ key: 'id', type: 'cohort', value: 5 }] } }, 'Cohort with id 5 does not exist'],
      [{ condition: { properties: [person('d', 'someday', 'is_date_before')] } }, 'Invalid date value: someday'],
    ];
    for (const [body, detail] of cases) {
      const res = await radius(body, other);
      expect({ body, status: res.status, detail: res.body.detail, attr: res.body.attr }).toEqual({ body, status: 400, detail, attr: null });
    }
    const notAList = await radius({ condition: { properties: { a: 1 } } }, other);
    expect(notAList.status).toBe(400);
    expect(notAList.body.attr).toBeNull();
    expect((await radius([1], other)).status).toBe(400);
  });

  it('counts groups of the given type on their properties and key; an unknown type is {0, 0}', async () => {
    const w = await app.factories.world();
    const group = (key: string, value: unknown, operator = 'exact') => ({ key, type: 'group', group_type_index: 0, value, operator });
    expect((await radius({ condition: { properties: [] }, group_type_index: 0 }, w)).body).toEqual({ users_affected: 0, total_users: 0 });
    await send(
      w,
      Array.from({ length: 6 }, (_, k) => ({
        event: '$groupidentify',
        distinct_id: 'admin',
        properties: { $group_type: 'organization', $group_key: `org-${k}`, $group_set: { size: k * 10 } },
      })),
    );
    const count = async (properties: unknown[]) => (await radius({ condition: { properties }, group_type_index: 0 }, w)).body;
    expect(await count([])).toEqual({ users_affected: 6, total_users: 6 });
    expect(await count([group('size', '25', 'gte')])).toEqual({ users_affected: 3, total_users: 6 });
    expect(await count([group('$group_key', ['org-1', 'ORG-2'])])).toEqual({ users_affected: 2, total_users: 6 });
    expect((await radius({ condition: { properties: [] }, group_type_index: 3 }, w)).body).toEqual({ users_affected: 0, total_users: 0 });
  });

  it('is POST only, and needs feature_flag:read', async () => {
    const path = `/api/projects/${world.project.id}/feature_flags/user_blast_radius`;
    expect((await app.request(path, { key: world.owner.key })).status).toBe(405);
    const key = await app.factories.key(world.owner.user, { scopes: ['feature_flag:read'] });
    expect((await app.request(path, { method: 'POST', key, body: { condition: {} } })).status).toBe(200);
    const noScope = await app.factories.key(world.owner.user, { scopes: ['experiment:read'] });
    expect((await app.request(path, { method: 'POST', key: noScope, body: { condition: {} } })).status).toBe(403);
  });
});

describe('the count equals evaluating every stored person', () => {
  let w: World;
  const PEOPLE = 2500; // more than two keyset batches of 1000
  const props = (i: number) => ({
    plan: ['free', 'pro', 'Pro', 'team'][i % 4],
    version: `${i % 4}.${i % 7}.0`,
    seen: `2024-0${1 + (i % 9)}-01`,
    n: i % 10 === 0 ? String(i) : i,
    ...(i % 5 === 0 ? { email: `p${i}@example.com` } : {}),
  });

  beforeAll(async () => {
    w = await app.factories.world();
    for (let start = 0; start < PEOPLE; start += 500) {
      const batch = Array.from({ length: 500 }, (_, j) => ({
        event: 'x',
        distinct_id: `p${start + j}`,
        properties: { $set: props(start + j) },
      }));
      await send(w, batch);
    }
    // One person with a second distinct id.
    await send(w, [{ event: '$create_alias', distinct_id: 'p1', properties: { alias: 'alias-of-p1' } }]);
  });

  const conditions: Array<[string, unknown[]]> = [
    ['is_set', [person('email', 'is_set', 'is_set')]],
    ['is_not_set', [person('email', 'x', 'is_not_set')]],
    ['exact, case-insensitive', [person('plan', 'pro')]],
    ['is_not', [person('plan', ['pro', 'team'], 'is_not')]],
    ['icontains on an absent key', [person('email', 'EXAMPLE', 'icontains')]],
    ['not_icontains', [person('email', 'p1', 'not_icontains')]],
    ['numbers and numeric text', [person('n', '1500', 'gt')]],
    ['regex', [person('plan', '^[Pp]ro$', 'regex')]],
    ['semver', [person('version', '2.3.0', 'semver_gte')]],
    ['dates', [person('seen', '2024-05-01', 'is_date_before')]],
    ['several, AND', [person('plan', 'pro'), person('version', '1.*', 'semver_wildcard'), person('email', 'x', 'is_not_set')]],
    ["distinct_id: any of the person's ids", [person('distinct_id', 'alias-of-p1')]],
  ];

  /**
   * The reference: the flag evaluator (src/evaluation, what evaluation_reasons runs, which the oracle
   * suites check over HTTP) over the properties each person was created with and every distinct id
   * it has, one flag per condition at 100%, filters as the service stored them.
   */
  const expected = new Map<string, number>();
  beforeAll(async () => {
    const now = new Date();
    for (const [name, properties] of conditions) {
      const body = { key: `c-${name.replace(/[^a-z]/g, '')}`, filters: { groups: [{ properties, rollout_percentage: 100 }] } };
      const created = await app.request(`/api/projects/${w.project.id}/feature_flags/`, { method: 'POST', key: w.owner.key, body });
      expect(created.status).toBe(201);
      let count = 0;
      for (let i = 0; i < PEOPLE; i++) {
        const ids = i === 1 ? ['p1', 'alias-of-p1'] : [`p${i}`];
        const matches = ids.some(
          (distinctId) =>
            evaluateFlag(created.body, { distinctId, personProperties: props(i), groups: {}, inCohort: () => false }, new Map(), now)
              .value === true,
        );
        if (matches) count++;
      }
      expected.set(name, count);
    }
  });

  it.each(conditions)('%s', async (name, properties) => {
    const res = await radius({ condition: { properties, rollout_percentage: 10 } }, w);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ users_affected: expected.get(name), total_users: PEOPLE });
  });

  it('finds something for most conditions (the reference is not all zeros)', () => {
    expect([...expected.values()].filter((n) => n > 0 && n < PEOPLE).length).toBeGreaterThanOrEqual(conditions.length - 1);
  });
});
