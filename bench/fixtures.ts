import { randomBytes } from 'node:crypto';

/** What the seeded flags, persons and events look like; shared by the seeding, the floors and both engines. */

const plans = ['free', 'pro', 'Pro', 'team', 'enterprise'];
const countries = ['US', 'CA', 'DE', 'FR', 'GB', 'JP'];

export const personProperties = (i: number): Record<string, string | number | boolean> => ({
  plan: plans[i % plans.length],
  email: `user${i}@${i % 3 === 0 ? 'example.com' : 'corp.io'}`,
  age: 18 + (i % 50),
  country: countries[i % countries.length],
  app_version: `${1 + (i % 3)}.${i % 12}.${i % 5}`,
  signed_up: `2024-0${1 + (i % 9)}-15T00:00:00Z`,
  beta: i % 4 === 0,
});

export const engineDistinctId = (i: number) => `person-${i}`;

/** The remote-evaluation row's i-th subject: a stored person (seeded through /batch/), as in production. */
export const remoteDistinctId = (i: number, users: number) => `user-${i % users}`;

type Filter = { key: string; type: 'person'; value: unknown; operator: string };
const person = (key: string, operator: string, value: unknown): Filter => ({ key, type: 'person', value, operator });
const variants = (...keys: string[]) => ({
  variants: keys.map((key, index) => ({
    key,
    rollout_percentage: index < keys.length - 1 ? Math.floor(100 / keys.length) : 100 - Math.floor(100 / keys.length) * (keys.length - 1),
  })),
});

/** The cohorts of the 100-flag project: a static one (seeded members) and a dynamic one nesting another. */
export interface BenchCohorts {
  staticId: number;
  dynamicId: number;
}

/** Who is in the static cohort: every seventh stored person (`user-0`, `user-7`, …). */
export const staticCohortMember = (user: number) => user % 7 === 0;

/** The dynamic cohorts, in creation order; the last nests the first. Person filters only, so posthog-node decides them too. */
export const dynamicCohortBodies = (nested: number | null) =>
  nested === null
    ? { name: 'North America', filters: { properties: { type: 'AND', values: [person('country', 'exact', ['US', 'CA'])] } } }
    : {
        name: 'Paying in North America',
        filters: {
          properties: {
            type: 'AND',
            values: [{ key: 'id', type: 'cohort', value: nested }, person('plan', 'exact', ['pro', 'team', 'enterprise'])],
          },
        },
      };

/** With `cohorts`, one flag in ten targets a cohort (static and dynamic in turn, `in` and `not_in`). */
function cohortFlag(i: number, rollout: number, cohorts: BenchCohorts): Record<string, unknown> {
  const cohort = (value: number, operator: 'in' | 'not_in') => ({ key: 'id', type: 'cohort', value, operator });
  if (i % 20 === 3) {
    return {
      groups: [
        { properties: [cohort(cohorts.staticId, 'in')], rollout_percentage: 100 },
        { properties: [], rollout_percentage: rollout },
      ],
      payloads: { true: '{"picked": true}' },
    };
  }
  return {
    groups: [
      { properties: [cohort(cohorts.dynamicId, i % 40 === 13 ? 'not_in' : 'in')], rollout_percentage: rollout },
      { properties: [person('beta', 'exact', ['true']), cohort(cohorts.staticId, 'not_in')], rollout_percentage: 100 },
    ],
    multivariate: variants('control', 'test'),
  };
}

/**
 * The i-th seeded flag: conditions over person properties, rollouts, variants and payloads, using
 * only operators that this service and posthog-node decide alike (so the engine row can compare values);
 * with `cohorts`, one in ten on a cohort instead.
 */
export function flagBody(i: number, key: string, cohorts?: BenchCohorts): Record<string, unknown> {
  const rollout = 10 + ((i * 37) % 81);
  if (cohorts && i % 10 === 3) {
    return { key, name: `Bench flag ${i}: cohort`, filters: cohortFlag(i, rollout, cohorts), active: true };
  }
  const templates: Array<() => Record<string, unknown>> = [
    () => ({ groups: [{ properties: [], rollout_percentage: rollout }] }),
    () => ({ groups: [{ properties: [], rollout_percentage: 80 }], multivariate: variants('a', 'b', 'c') }),
    () => ({
      groups: [
        { properties: [person('plan', 'exact', 'pro')], rollout_percentage: 100, variant: 'test' },
        { properties: [], rollout_percentage: rollout },
      ],
      multivariate: variants('control', 'test'),
      payloads: { test: '{"discount": 10}', control: '{"discount": 0}' },
    }),
    () => ({
      groups: [
        { properties: [person('email', 'icontains', 'example.com'), person('age', 'lt', String(20 + (i % 30)))], rollout_percentage: null },
        { properties: [person('email', 'regex', `^user${i % 10}`)], rollout_percentage: rollout },
        { properties: [person('plan', 'is_not', ['enterprise', 'free'])], rollout_percentage: 100 },
      ],
    }),
    () => ({
      groups: [
        { properties: [person('app_version', 'semver_gte', `${1 + (i % 3)}.5.0`)], rollout_percentage: rollout },
        { properties: [person('signed_up', 'is_date_before', '2024-05-01')], rollout_percentage: 100 },
      ],
    }),
    () => ({
      groups: [{ properties: [person('beta', 'exact', ['true'])], rollout_percentage: 90 }],
      payloads: { true: '{"banner": "beta"}' },
    }),
    () => ({
      groups: [
        { properties: [person('country', 'exact', ['US', 'CA']), person('plan', 'exact', ['pro', 'team'])], rollout_percentage: 50 },
      ],
      multivariate: variants('red', 'green', 'blue', 'yellow'),
    }),
    () => ({
      groups: [
        { properties: [person('email', 'is_set', 'is_set'), person('email', 'not_icontains', 'corp.io')], rollout_percentage: rollout },
        { properties: [person('age', 'gte', '60')], rollout_percentage: 100 },
      ],
    }),
  ];
  return {
    key,
    name: `Bench flag ${i}: ${['rollout', 'multivariate', 'override', 'operators', 'versions and dates', 'beta', 'markets', 'email'][i % templates.length]}`,
    filters: templates[i % templates.length](),
    // A few inactive flags, as real projects have; SDKs still receive them.
    active: i % 10 !== 9,
  };
}

/** RFC 9562 version 7: time-ordered, as SDKs send (and as the service's own event uuids are). */
export function uuidv7(): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(Date.now(), 0, 6);
  bytes[6] = (bytes[6] & 0x0f) | 0x70;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export type CaptureEvent = { event: string; distinct_id: string; properties: Record<string, unknown>; timestamp: string };

/** The i-th captured event (today's ingestion mix): page views, clicks, purchases, flag exposures, $set. */
export function captureEvent(i: number, users: number): CaptureEvent {
  const user = i % users;
  const properties: Record<string, unknown> = {
    $lib: 'posthog-node',
    $lib_version: '5.70.0',
    $geoip_disable: true,
    path: `/products/${i % 50}`,
    referrer: 'https://example.com/search?q=shoes',
    amount: (i % 97) * 1.5,
    plan: ['free', 'pro', 'team'][i % 3],
    session: `s-${Math.floor(i / 20)}`,
    $groups: { organization: `org-${user % 40}` },
  };
  let event = ['page viewed', 'button clicked', 'purchase', 'signup step'][i % 4];
  if (i % 20 === 0) {
    event = '$feature_flag_called';
    Object.assign(properties, {
      $feature_flag: `flag-${i % 7}`,
      $feature_flag_response: i % 2 ? 'test' : 'control',
      [`$feature/flag-${i % 7}`]: 'test',
    });
  }
  if (i % 20 === 1) properties.$set = { last_seen_plan: properties.plan, visits: i };
  return { event, distinct_id: `user-${user}`, properties, timestamp: new Date(Date.now() - (i % 1000)).toISOString() };
}
