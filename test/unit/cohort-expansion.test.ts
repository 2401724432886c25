import { CohortExpansion, SATURATED_SIZE } from '../../src/evaluation/cohort-expansion';
import { cohortMembership, type CohortDefinitions, type PropertyGroup } from '../../src/evaluation/cohort-match';

/** docs/cohorts.md §2: each cohort measured once, whatever its references multiply to. */

const person = (value: string) => ({ type: 'person', key: 'plan', value });
const ref = (id: number, negation?: boolean) => ({ type: 'cohort', key: 'id', value: id, ...(negation ? { negation } : {}) });
const group = (...values: unknown[]) => ({ type: 'AND', values }) as PropertyGroup;

/** Cohort 1 holds one person leaf; cohort i + 1 refers to cohort i twice: 2^(n-1) leaves at the top. */
function diamond(n: number): CohortDefinitions {
  const definitions = new Map([[1, { isStatic: false, properties: group(person('pro')) }]]);
  for (let i = 2; i <= n; i++) definitions.set(i, { isStatic: false, properties: group(ref(i - 1), ref(i - 1)) });
  return definitions;
}

it('measures a diamond chain once per cohort', () => {
  const expansion = new CohortExpansion(diamond(20));
  expect(expansion.of(20)).toEqual({ size: 2 ** 19, depth: 20, cyclic: false });
  expect(expansion.measured).toBe(20);
  expect(expansion.of(10).size).toBe(2 ** 9);
  expect(expansion.measured).toBe(20);
});

it('saturates instead of overflowing, and walks a chain of any length without recursion', () => {
  const expansion = new CohortExpansion(diamond(20_000));
  expect(expansion.of(20_000).size).toBe(SATURATED_SIZE);
  expect(expansion.measured).toBe(20_000);
});

it('counts static, unknown and behavioural leaves once, nested groups and all', () => {
  const definitions: CohortDefinitions = new Map([
    [1, { isStatic: true, properties: null }],
    [
      2,
      {
        isStatic: false,
        properties: { type: 'OR', values: [group(ref(1), ref(99)), group({ type: 'behavioral', key: 'x' }, person('a'))] },
      },
    ],
    [3, { isStatic: false, properties: group(ref(2), ref(2, true)) }],
  ]);
  const expansion = new CohortExpansion(definitions);
  expect(expansion.of(2)).toEqual({ size: 4, depth: 2, cyclic: false });
  expect(expansion.of(3)).toEqual({ size: 8, depth: 3, cyclic: false });
  expect(expansion.of(1).size).toBe(1);
});

it('marks what reaches a cycle made by hand', () => {
  const definitions: CohortDefinitions = new Map([
    [1, { isStatic: false, properties: group(person('pro'), ref(2)) }],
    [2, { isStatic: false, properties: group(ref(1)) }],
    [3, { isStatic: false, properties: group(ref(2)) }],
    [4, { isStatic: false, properties: group(person('x')) }],
  ]);
  const expansion = new CohortExpansion(definitions);
  expect(expansion.of(3).cyclic).toBe(true);
  expect(expansion.of(1).cyclic).toBe(true);
  expect(expansion.of(4).cyclic).toBe(false);
});

it('decides membership of a 2^59-leaf cohort with one test per person leaf', () => {
  let tests = 0;
  const inCohort = cohortMembership(diamond(60), new Set(), () => {
    tests += 1;
    return true;
  });
  expect(inCohort(60)).toBe(true);
  expect(tests).toBe(1);
});
