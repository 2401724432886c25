import { cohortMembership, dynamicCohortsFrom, flagCohortIds, type CohortDefinitions } from '../../src/evaluation/cohort-match';
import { matchProperty } from '../../src/evaluation/property-match';

/** docs/cohorts.md, pure: property groups, references, negation, static membership, what SDKs are sent. */

const person = (key: string, value: unknown, extra: Record<string, unknown> = {}) => ({ key, type: 'person', value, ...extra });
const ref = (value: unknown, negation?: boolean) => ({ key: 'id', type: 'cohort', value, ...(negation ? { negation } : {}) });

const COHORTS: CohortDefinitions = new Map([
  [1, { isStatic: false, properties: { type: 'AND', values: [person('plan', 'pro')] } }],
  [2, { isStatic: true, properties: null }],
  [
    3,
    {
      isStatic: false,
      properties: {
        type: 'OR',
        values: [
          { type: 'AND', values: [ref(1)] },
          { type: 'AND', values: [ref('2')] },
        ],
      },
    },
  ],
  [4, { isStatic: false, properties: { type: 'AND', values: [ref(1, true), person('country', 'US', { negation: true })] } }],
  [5, { isStatic: false, properties: { type: 'OR', values: [] } }],
  [6, { isStatic: false, properties: { type: 'AND', values: [ref(7)] } }],
  [7, { isStatic: false, properties: { type: 'AND', values: [ref(6)] } }],
  [8, { isStatic: false, properties: { type: 'AND', values: [{ key: 'x', type: 'behavioral', value: 'performed_event' }] } }],
  [9, { isStatic: false, properties: { type: 'AND', values: [ref(404)] } }],
]);

const membership = (bag: Record<string, unknown>, statics: number[] = []) =>
  cohortMembership(COHORTS, new Set(statics), (filter) => matchProperty(filter, { ...bag, distinct_id: 'd' }, new Date()));

it.each([
  ['a dynamic cohort', 1, { plan: 'Pro' }, [], true],
  ['a dynamic cohort, not matching', 1, { plan: 'free' }, [], false],
  ['a static cohort by membership', 2, {}, [2], true],
  ['a static cohort without membership', 2, { plan: 'pro' }, [], false],
  ['an OR of nested references (static side)', 3, {}, [2], true],
  ['an OR of nested references (dynamic side)', 3, { plan: 'pro' }, [], true],
  ['negated leaves', 4, { plan: 'free', country: 'FR' }, [], true],
  ['negated leaves, a negated reference holding', 4, { plan: 'pro', country: 'FR' }, [], false],
  ['a negated person leaf with its key absent', 4, {}, [], true],
  ['an empty group', 5, {}, [], true],
  ['a reference cycle (refused on save)', 6, {}, [], false],
  ['a behavioural leaf', 8, {}, [], false],
  ['a reference to a missing cohort', 9, {}, [], false],
  ['a missing cohort', 404, {}, [404], false],
])('%s', (_, id, bag, statics, expected) => {
  expect(membership(bag, statics)(id)).toBe(expected);
});

it('sends the dynamic cohorts reachable from the flags, by id, never static or missing ones', () => {
  expect([...dynamicCohortsFrom([3, 9, 2], COHORTS).keys()]).toEqual([1, 3, 9]);
  expect([...dynamicCohortsFrom([2], COHORTS).keys()]).toEqual([]);
});

it("reads a flag's cohort ids from its conditions", () => {
  expect(flagCohortIds({ groups: [{ properties: [ref(3), person('a', 1)] }, { properties: [ref('12'), ref('x')] }, {}] })).toEqual([3, 12]);
  expect(flagCohortIds(null)).toEqual([]);
});
