// @slow: posthog-node's local evaluation over hundreds of persons
import { PostHog } from 'posthog-node';
import type { World } from '../helpers/factories';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { capture } from '../ingestion/capture-helpers';

/**
 * docs/evaluation.md §8: posthog-node, polling this service's definitions, is the reference oracle.
 * Server values come from evaluation_reasons over the stored persons; the SDK gets the complete
 * stored property set. They must agree wherever the SDK can decide locally.
 */

let app: TestApp;
let world: World;
let client: PostHog;

const PEOPLE = 300;
// A sweep of 300 requests and thousands of SDK calls: ~3 s alone, but over 30 s (jest's default here)
// was seen in a full run with both cores busy with browsers and other sweeps.
jest.setTimeout(120_000);
const plans = ['free', 'pro', 'Pro', 'enterprise'];
const personProperties = (i: number): Record<string, unknown> => ({
  plan: plans[i % plans.length],
  email: `user${i}@${i % 3 === 0 ? 'example.com' : 'corp.io'}`,
  age: 18 + (i % 50),
  app_version: `${1 + (i % 3)}.${i % 12}.${i % 5}`,
  signed_up: `2024-0${1 + (i % 9)}-15T00:00:00Z`,
  beta: i % 4 === 0,
});

/** Flags covering rollout, variants, overrides and the operators both sides implement the same way. */
const FLAGS: Array<{ key: string; filters: Record<string, unknown> }> = [
  { key: 'rollout-37', filters: { groups: [{ properties: [], rollout_percentage: 37 }] } },
  {
    key: 'multi',
    filters: {
      groups: [{ properties: [], rollout_percentage: 80 }],
      multivariate: {
        variants: [
          { key: 'a', rollout_percentage: 33 },
          { key: 'b', rollout_percentage: 33 },
          { key: 'c', rollout_percentage: 34 },
        ],
      },
    },
  },
  {
    key: 'pro-override',
    filters: {
      groups: [
        { properties: [{ key: 'plan', type: 'person', value: 'pro', operator: 'exact' }], rollout_percentage: 100, variant: 'b' },
        { properties: [], rollout_percentage: 50 },
      ],
      multivariate: {
        variants: [
          { key: 'a', rollout_percentage: 50 },
          { key: 'b', rollout_percentage: 50 },
        ],
      },
    },
  },
  {
    key: 'operators',
    filters: {
      groups: [
        {
          properties: [
            { key: 'email', type: 'person', value: 'example.com', operator: 'icontains' },
            { key: 'age', type: 'person', value: '40', operator: 'lt' },
          ],
        },
        { properties: [{ key: 'email', type: 'person', value: '^user1', operator: 'regex' }], rollout_percentage: 60 },
        { properties: [{ key: 'plan', type: 'person', value: ['enterprise', 'free'], operator: 'is_not' }] },
      ],
    },
  },
  {
    key: 'versions-and-dates',
    filters: {
      groups: [
        { properties: [{ key: 'app_version', type: 'person', value: '2.5.0', operator: 'semver_gte' }] },
        { properties: [{ key: 'signed_up', type: 'person', value: '2024-05-01', operator: 'is_date_before' }] },
      ],
    },
  },
  {
    key: 'beta-users',
    filters: { groups: [{ properties: [{ key: 'beta', type: 'person', value: ['true'], operator: 'exact' }], rollout_percentage: 90 }] },
  },
];

/**
 * Cohorts (docs/evaluation.md §5): dynamic ones (plain, OR of groups, nested with a negated reference,
 * negated person leaves) reach posthog-node through `send_cohorts`; a static cohort, directly or
 * nested in a dynamic one, is never sent, so the SDK cannot decide those flags locally.
 */
const person = (key: string, value: unknown, operator: string, negation?: boolean) => ({
  key,
  type: 'person',
  value,
  operator,
  ...(negation ? { negation } : {}),
});
const ref = (id: number, negation?: boolean) => ({ key: 'id', type: 'cohort', value: id, ...(negation ? { negation } : {}) });
const inStaticCohort = (i: number) => i % 7 === 0;
const STATIC_FLAGS = ['cohort-static', 'cohort-static-nested'];

async function createCohort(body: Record<string, unknown>): Promise<number> {
  const res = await app.request(`/api/projects/${world.project.id}/cohorts/`, { method: 'POST', key: world.owner.key, body });
  expect({ status: res.status, body: res.status === 201 ? null : res.body }).toEqual({ status: 201, body: null });
  return res.body.id;
}

async function cohortFlags(): Promise<Array<{ key: string; filters: Record<string, unknown> }>> {
  const paying = await createCohort({
    name: 'paying',
    filters: { properties: { type: 'AND', values: [person('plan', ['pro', 'enterprise'], 'exact')] } },
  });
  const olderOrExample = await createCohort({
    name: 'older or example.com',
    filters: {
      properties: {
        type: 'OR',
        values: [
          { type: 'AND', values: [person('age', '40', 'gte')] },
          { type: 'AND', values: [person('email', 'example.com', 'icontains')] },
        ],
      },
    },
  });
  const nested = await createCohort({
    name: 'paying, younger, not example.com, recent app',
    filters: { properties: { type: 'AND', values: [ref(paying), ref(olderOrExample, true), person('app_version', '1.5.0', 'semver_gt')] } },
  });
  const negatedLeaves = await createCohort({
    name: 'not beta and not free',
    filters: { properties: { type: 'AND', values: [person('beta', ['true'], 'exact', true), person('plan', 'free', 'exact', true)] } },
  });
  const staticCohort = await createCohort({ name: 'hand-picked', is_static: true });
  const ids = Array.from({ length: PEOPLE }, (_, i) => `person-${i}`).filter((_, i) => inStaticCohort(i));
  expect(
    (
      await app.request(`/api/projects/${world.project.id}/cohorts/${staticCohort}/persons/`, {
        method: 'POST',
        key: world.owner.key,
        body: { distinct_ids: ids },
      })
    ).body.count,
  ).toBe(ids.length);
  const staticOrFree = await createCohort({
    name: 'hand-picked or free',
    filters: { properties: { type: 'OR', values: [ref(staticCohort), person('plan', 'free', 'exact')] } },
  });
  const cohort = (value: number, operator?: string) => ({ key: 'id', type: 'cohort', value, ...(operator ? { operator } : {}) });
  return [
    { key: 'cohort-in', filters: { groups: [{ properties: [cohort(paying)], rollout_percentage: 70 }] } },
    { key: 'cohort-not-in', filters: { groups: [{ properties: [cohort(olderOrExample, 'not_in')] }] } },
    {
      key: 'cohort-nested',
      filters: {
        groups: [
          { properties: [cohort(nested, 'in')] },
          { properties: [cohort(negatedLeaves), person('age', '30', 'lt')], rollout_percentage: 80 },
        ],
        multivariate: {
          variants: [
            { key: 'x', rollout_percentage: 50 },
            { key: 'y', rollout_percentage: 50 },
          ],
        },
      },
    },
    {
      key: 'cohort-negated',
      filters: { groups: [{ properties: [cohort(negatedLeaves, 'not_in'), cohort(String(olderOrExample) as unknown as number)] }] },
    },
    { key: 'cohort-static', filters: { groups: [{ properties: [cohort(staticCohort)] }] } },
    { key: 'cohort-static-nested', filters: { groups: [{ properties: [cohort(staticOrFree)] }] } },
  ];
}

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
  const batch = Array.from({ length: PEOPLE }, (_, i) => ({
    event: 'seen',
    distinct_id: `person-${i}`,
    properties: { $set: personProperties(i) },
  }));
  expect((await capture(app, '/batch/', { api_key: world.project.apiToken, batch })).status).toBe(200);
  FLAGS.push(...(await cohortFlags()));
  for (const flag of FLAGS) {
    const res = await app.request(`/api/projects/${world.project.id}/feature_flags/`, { method: 'POST', key: world.owner.key, body: flag });
    expect({ key: flag.key, status: res.status, body: res.status === 201 ? null : res.body }).toEqual({
      key: flag.key,
      status: 201,
      body: null,
    });
  }
  client = new PostHog(world.project.apiToken, {
    host: app.baseUrl,
    personalApiKey: world.owner.key,
    featureFlagsPollingInterval: 600_000,
    disableGeoip: true,
    fetchRetryCount: 0,
  });
  expect(await client.waitForLocalEvaluationReady(5000)).toBe(true);
});
afterAll(async () => {
  await client?.shutdown();
  await app.close();
});

it('agrees with posthog-node on every flag for every stored person', async () => {
  let compared = 0;
  const undecided = new Set<string>();
  const seen = new Map<string, Set<string>>();
  const disagreements: unknown[] = [];
  for (let i = 0; i < PEOPLE; i++) {
    const distinctId = `person-${i}`;
    const res = await app.request(`/api/projects/${world.project.id}/feature_flags/evaluation_reasons?distinct_id=${distinctId}`, {
      key: world.owner.key,
    });
    expect(res.status).toBe(200);
    for (const { key } of FLAGS) {
      seen.set(key, (seen.get(key) ?? new Set()).add(String(res.body[key].value)));
      const sdk = await client.getFeatureFlag(key, distinctId, {
        onlyEvaluateLocally: true,
        sendFeatureFlagEvents: false,
        personProperties: personProperties(i) as Record<string, string>,
      });
      if (sdk === undefined) {
        undecided.add(key);
        continue;
      }
      compared++;
      if (sdk !== res.body[key].value) disagreements.push({ distinctId, key, sdk, server: res.body[key] });
    }
  }
  expect(disagreements).toEqual([]);
  // Every flag here is locally decidable for every person, except those on a static cohort (which
  // the SDK must ask the server about): a silent "undefined" would hide a broken payload.
  expect([...undecided].sort()).toEqual(STATIC_FLAGS);
  expect(compared).toBe(PEOPLE * (FLAGS.length - STATIC_FLAGS.length));
  // The cohort flags are not trivially constant, and the server decides the static ones.
  for (const { key } of FLAGS.filter((flag) => flag.key.startsWith('cohort-')))
    expect({ key, values: seen.get(key)!.size > 1 }).toEqual({ key, values: true });
  const server = await app.request(`/api/projects/${world.project.id}/feature_flags/evaluation_reasons?distinct_id=person-7`, {
    key: world.owner.key,
  });
  expect(server.body['cohort-static'].value).toBe(true);
  expect(server.body['cohort-static-nested'].value).toBe(true);
});

it('sees the values spread as the percentages say', async () => {
  const values = await Promise.all(
    Array.from({ length: PEOPLE }, (_, i) =>
      client.getFeatureFlag('multi', `person-${i}`, { onlyEvaluateLocally: true, sendFeatureFlagEvents: false }),
    ),
  );
  const counts = values.reduce<Record<string, number>>((acc, v) => ({ ...acc, [String(v)]: (acc[String(v)] ?? 0) + 1 }), {});
  expect(Object.keys(counts).sort()).toEqual(['a', 'b', 'c', 'false']);
});

it('agrees with posthog-node on a group flag for every stored group', async () => {
  const GROUPS = 60;
  const groupProperties = (k: number) => ({ size: 5 * (k % 20), tier: k % 3 === 0 ? 'gold' : 'basic' });
  const flag = {
    key: 'org-rollout',
    filters: {
      aggregation_group_type_index: 0,
      groups: [
        { properties: [{ key: 'size', type: 'group', group_type_index: 0, value: '30', operator: 'gt' }], rollout_percentage: 70 },
        { properties: [{ key: 'tier', type: 'group', group_type_index: 0, value: 'gold', operator: 'exact' }] },
      ],
    },
  };
  expect(
    (await app.request(`/api/projects/${world.project.id}/feature_flags/`, { method: 'POST', key: world.owner.key, body: flag })).status,
  ).toBe(201);
  const batch = Array.from({ length: GROUPS }, (_, k) => ({
    event: '$groupidentify',
    distinct_id: 'admin',
    properties: { $group_type: 'organization', $group_key: `org-${k}`, $group_set: groupProperties(k) },
  }));
  expect((await capture(app, '/batch/', { api_key: world.project.apiToken, batch })).status).toBe(200);
  await client.reloadFeatureFlags();

  const disagreements: unknown[] = [];
  for (let k = 0; k < GROUPS; k++) {
    const groups = { organization: `org-${k}` };
    const query = `distinct_id=person-${k}&groups=${encodeURIComponent(JSON.stringify(groups))}`;
    const server = (
      await app.request(`/api/projects/${world.project.id}/feature_flags/evaluation_reasons?${query}`, { key: world.owner.key })
    ).body;
    const sdk = await client.getFeatureFlag(flag.key, `person-${k}`, {
      onlyEvaluateLocally: true,
      sendFeatureFlagEvents: false,
      groups,
      groupProperties: { organization: groupProperties(k) as unknown as Record<string, string> },
    });
    if (sdk !== server[flag.key].value) disagreements.push({ k, sdk, server: server[flag.key] });
  }
  expect(disagreements).toEqual([]);
});
