/**
 * The persons and flags both OFREP oracles use (docs/openfeature.md, "How it is tested"), and what an
 * OpenFeature client must see for each evaluation_reasons answer, by the tables of "Values" and
 * "Reasons", written out here independently of the service's code.
 */
import type { World } from '../helpers/factories';
import type { TestApp } from '../helpers/test-app';
import { capture } from '../ingestion/capture-helpers';

export const PEOPLE = 300;

const plans = ['free', 'pro', 'enterprise', 'team'];
const countries = ['DE', 'FR', 'US', 'GB'];

export const storedProperties = (i: number): Record<string, unknown> => ({
  plan: plans[i % plans.length],
  country: countries[(i * 7) % countries.length],
  email: `user${i}@${i % 3 === 0 ? 'example.com' : 'corp.io'}`,
  age: 16 + ((i * 13) % 60),
});

const person = (key: string, value: unknown, operator = 'exact') => ({ key, value, operator, type: 'person' });

export const OBJECT_PAYLOADS: Record<string, Record<string, unknown>> = {
  red: { colour: 'red', weight: 1 },
  green: { colour: 'green', weight: 2, tags: ['a', 'b'] },
  blue: { colour: 'blue', nested: { deep: true } },
};

export const OFREP_FLAGS = [
  {
    key: 'ofrep-bool',
    filters: {
      groups: [
        { properties: [person('plan', ['pro', 'enterprise'])] },
        { properties: [person('age', '40', 'gt')], rollout_percentage: 50 },
      ],
    },
  },
  {
    key: 'ofrep-string',
    filters: {
      groups: [
        { properties: [person('plan', ['pro'])], variant: 'vip' },
        { properties: [person('country', ['DE', 'FR'])], rollout_percentage: 80 },
      ],
      multivariate: {
        variants: [
          { key: 'control', rollout_percentage: 50 },
          { key: 'test', rollout_percentage: 40 },
          { key: 'vip', rollout_percentage: 10 },
        ],
      },
    },
  },
  {
    key: 'ofrep-object',
    filters: {
      groups: [{ properties: [person('email', 'example.com', 'icontains')] }, { properties: [], rollout_percentage: 40 }],
      multivariate: {
        variants: [
          { key: 'red', rollout_percentage: 50 },
          { key: 'green', rollout_percentage: 30 },
          { key: 'blue', rollout_percentage: 20 },
        ],
      },
      payloads: Object.fromEntries(Object.entries(OBJECT_PAYLOADS).map(([variant, payload]) => [variant, JSON.stringify(payload)])),
    },
  },
];

/** The code defaults the oracles ask with. */
export const DEFAULTS: Record<string, unknown> = { 'ofrep-bool': false, 'ofrep-string': 'none', 'ofrep-object': { none: true } };

export interface Expected {
  value: unknown;
  variant?: string;
  reason: string;
  errorCode?: string;
}

/** An entry of evaluation_reasons (docs/evaluation.md §9). */
interface Reason {
  value: boolean | string;
  evaluation: { reason: string; condition_index: number | null };
}

/** What the client must resolve for a flag whose evaluation_reasons entry is `server`. */
export function expectedDetails(key: string, server: Reason): Expected {
  if (server.value === false) {
    // A boolean flag answers false; the string and object flags answer false too, which a client
    // asking for a string or an object reads as a type mismatch and answers with its default.
    if (key === 'ofrep-bool') return { value: false, reason: server.evaluation.reason === 'disabled' ? 'DISABLED' : 'DEFAULT' };
    return { value: DEFAULTS[key], reason: 'ERROR', errorCode: 'TYPE_MISMATCH' };
  }
  if (server.value === true) return { value: true, reason: 'TARGETING_MATCH' };
  // The string flag's first condition set pins `vip`: a targeting match; any other variant was the hash's split.
  const reason = key === 'ofrep-string' && server.evaluation.condition_index === 0 ? 'TARGETING_MATCH' : 'SPLIT';
  const value = key === 'ofrep-object' ? OBJECT_PAYLOADS[server.value] : server.value;
  return { value, variant: server.value, reason };
}

/** The persons (captured with their properties) and the flags, in `world`'s project, through HTTP. */
export async function seedOfrepWorld(app: TestApp, world: World): Promise<void> {
  const batch = Array.from({ length: PEOPLE }, (_, i) => ({
    event: 'seen',
    distinct_id: `person-${i}`,
    properties: { $set: storedProperties(i) },
  }));
  expect((await capture(app, '/batch/', { api_key: world.project.apiToken, batch })).status).toBe(200);
  for (const flag of OFREP_FLAGS) {
    const res = await app.request(`/api/projects/${world.project.id}/feature_flags/`, { method: 'POST', key: world.owner.key, body: flag });
    expect([flag.key, res.status]).toEqual([flag.key, 201]);
  }
}
