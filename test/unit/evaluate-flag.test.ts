import { evaluateFlag, SubjectDataUnavailable, type EvaluationSubject, type FlagEvaluation } from '../../src/evaluation/evaluate-flag';
import { bucketHash } from '../../src/evaluation/hash';
import { servedFilters } from '../../src/evaluation/served-filters';

const NOW = new Date('2024-06-15T12:00:00Z');
const GROUP_TYPES: ReadonlyMap<number, string> = new Map([
  [0, 'organization'],
  [1, 'company'],
]);

// Hashes of flag `beta` (the hash of docs/evaluation.md §1): user-1 rolls out at 0.3977 (variant 0.1244),
// user-2 at 0.3824 (variant 0.5828).
const VARIANTS = {
  variants: [
    { key: 'control', rollout_percentage: 50 },
    { key: 'test', rollout_percentage: 50 },
  ],
};

function subject(overrides: Partial<EvaluationSubject> = {}): EvaluationSubject {
  return { distinctId: 'user-1', personProperties: {}, groups: {}, inCohort: () => false, ...overrides };
}

function evaluate(filters: Record<string, unknown> | null, who: EvaluationSubject = subject(), key = 'beta'): FlagEvaluation {
  return evaluateFlag({ key, filters }, who, GROUP_TYPES, NOW);
}

const result = (value: FlagEvaluation['value'], reason: FlagEvaluation['reason'], conditionIndex: number | null) => ({
  value,
  reason,
  conditionIndex,
});

const person = (key: string, value: unknown, operator?: string) => ({ key, value, type: 'person', ...(operator ? { operator } : {}) });
const PLAN_PRO = { properties: [person('plan', 'pro')] };
const COUNTRY_US = { properties: [person('country', 'US')] };
const ZERO_PERCENT = { properties: [], rollout_percentage: 0 };

describe('bucketHash (docs/evaluation.md §1)', () => {
  it.each([
    ['beta', 'user-1', '', 0.39769672124032274],
    ['beta', 'user-1', 'variant', 0.12439941997421551],
    ['checkout', 'ü', '', 0.849211624531624],
  ] as const)('hash(%p, %p, %p) is %p', (flagKey, identifier, salt, expected) => {
    expect(bucketHash(flagKey, identifier, salt)).toBe(expected);
  });

  it('is case-sensitive in the flag key and the identifier', () => {
    expect(bucketHash('Beta', 'user-1', '')).not.toBe(0.39769672124032274);
    expect(bucketHash('beta', 'User-1', '')).not.toBe(0.39769672124032274);
  });
});

describe('rollout, variants and overrides (docs/evaluation.md §2)', () => {
  it('gives the values of the worked example of docs/evaluation.md §2', () => {
    const redesign = {
      variants: [
        { key: 'control', rollout_percentage: 50 },
        { key: 'redesign', rollout_percentage: 50 },
      ],
    };
    const condition = { properties: [], rollout_percentage: 70 };
    const valueOf = (distinctId: string, groups: unknown[] = [condition]) =>
      evaluate({ groups, multivariate: redesign }, subject({ distinctId }), 'new-checkout');
    expect(bucketHash('new-checkout', 'frank', '')).toBeCloseTo(0.4357, 4);
    expect(bucketHash('new-checkout', 'frank', 'variant')).toBeCloseTo(0.8247, 4);
    expect(bucketHash('new-checkout', 'grace', '')).toBeCloseTo(0.6878, 4);
    expect(bucketHash('new-checkout', 'grace', 'variant')).toBeCloseTo(0.4953, 4);
    expect(bucketHash('new-checkout', 'heidi', '')).toBeCloseTo(0.7297, 4);
    expect(bucketHash('new-checkout', 'Alice', '')).toBeCloseTo(0.7523, 4);
    expect(bucketHash('new-checkout', 'alice', '')).toBeCloseTo(0.1533, 4);
    expect(valueOf('frank')).toEqual(result('redesign', 'condition_match', 0));
    expect(valueOf('grace')).toEqual(result('control', 'condition_match', 0));
    expect(valueOf('heidi')).toEqual(result(false, 'out_of_rollout_bound', 0));
    expect(valueOf('Alice')).toEqual(result(false, 'out_of_rollout_bound', 0));
    expect(valueOf('alice').value).not.toBe(false);
    expect(valueOf('frank', [{ ...condition, variant: 'control' }])).toEqual(result('control', 'condition_match', 0));
  });

  it('gives "control" for beta/user-1, and "test" with the condition override', () => {
    const condition = { properties: [], rollout_percentage: 50 };
    expect(evaluate({ groups: [condition], multivariate: VARIANTS })).toEqual(result('control', 'condition_match', 0));
    expect(evaluate({ groups: [{ ...condition, variant: 'test' }], multivariate: VARIANTS })).toEqual(result('test', 'condition_match', 0));
  });

  describe('a subject is in iff hash <= rollout_percentage / 100 (user-1 hashes to 0.39769…)', () => {
    it.each([
      [null, true],
      [undefined, true],
      [100, true],
      [40, true],
      [39.77, true],
      [39.769672124032276, true], // divided by 100: exactly the hash
      [39.76, false],
      [39, false],
      [0, false],
    ])('rollout %p: in = %p', (rollout, inRollout) => {
      const expected = inRollout ? result(true, 'condition_match', 0) : result(false, 'out_of_rollout_bound', 0);
      expect(evaluate({ groups: [{ properties: [], rollout_percentage: rollout }] })).toEqual(expected);
    });
  });

  describe('the variant is the first range holding the variant hash (user-1: 0.12439…)', () => {
    it.each([
      [
        [
          { key: 'a', rollout_percentage: 12.44 },
          { key: 'b', rollout_percentage: 87.56 },
        ],
        'a',
      ],
      [
        [
          { key: 'a', rollout_percentage: 12.43 },
          { key: 'b', rollout_percentage: 87.57 },
        ],
        'b',
      ],
      // divided by 100: exactly the hash, so a's range [0, h) does not hold it
      [
        [
          { key: 'a', rollout_percentage: 12.43994199742155 },
          { key: 'b', rollout_percentage: 50 },
        ],
        'b',
      ],
      [[{ key: 'a' }, { key: 'b', rollout_percentage: 50 }], 'b'],
      [
        [
          { key: 'a', rollout_percentage: 0 },
          { key: 'b', rollout_percentage: 20 },
          { key: 'c', rollout_percentage: 80 },
        ],
        'b',
      ],
      // below 100 in total and the hash beyond the last range: true
      [[{ key: 'a', rollout_percentage: 10 }], true],
      [[{ key: 'a', rollout_percentage: 13 }], 'a'],
    ])('variants %j give %p', (variants, expected) => {
      expect(evaluate({ groups: [{}], multivariate: { variants } }).value).toBe(expected);
    });
  });

  it('ignores an override naming no variant and uses the hashed variant', () => {
    expect(evaluate({ groups: [{ variant: 'nope' }], multivariate: VARIANTS })).toEqual(result('control', 'condition_match', 0));
  });

  it.each([
    ['absent', undefined],
    ['null', null],
    ['without variants', { variants: [] }],
  ])('treats multivariate %s as a boolean flag and ignores the override', (_label, multivariate) => {
    expect(evaluate({ groups: [{ variant: 'test' }], multivariate })).toEqual(result(true, 'condition_match', 0));
  });
});

describe('normalised filters (docs/evaluation.md §3.1)', () => {
  it.each([
    ['{}', {}],
    ['null', null],
    ['without a groups array', { groups: 'nope', payloads: { true: '1' } }],
  ])('filters %s are on for everyone', (_label, filters) => {
    expect(evaluate(filters)).toEqual(result(true, 'condition_match', 0));
  });

  it('keeps legacy filters.properties as the single condition', () => {
    expect(servedFilters({ properties: [person('plan', 'pro')] })).toEqual({
      groups: [{ properties: [person('plan', 'pro')], rollout_percentage: null }],
    });
    expect(evaluate({ properties: [person('plan', 'pro')] }, subject({ personProperties: { plan: 'pro' } }))).toEqual(
      result(true, 'condition_match', 0),
    );
    expect(evaluate({ properties: [person('plan', 'pro')] }, subject({ personProperties: { plan: 'free' } }))).toEqual(
      result(false, 'no_condition_match', 0),
    );
  });

  it('treats a condition {} as no properties and 100% rollout', () => {
    expect(evaluate({ groups: [{}] }, subject({ distinctId: 'anyone' }))).toEqual(result(true, 'condition_match', 0));
  });

  it('gives false, no_condition_match, 0 for groups: []', () => {
    expect(evaluate({ groups: [] })).toEqual(result(false, 'no_condition_match', 0));
  });
});

describe('evaluation order (docs/evaluation.md §3.2)', () => {
  describe('a group flag without its group is no_group_type with a null index', () => {
    const orgKeyed = { key: 'acme', properties: {} };
    it.each([
      ['no group type has the index', 4, { organization: orgKeyed }],
      ['the request lacks the group', 1, { organization: orgKeyed }],
      ['no groups are passed', 0, {}],
    ])('%s', (_label, index, groups) => {
      const filters = { aggregation_group_type_index: index, groups: [{}] };
      expect(evaluate(filters, subject({ groups }))).toEqual(result(false, 'no_group_type', null));
    });

    it('evaluates once the group is passed', () => {
      const filters = { aggregation_group_type_index: 1, groups: [{}] };
      expect(evaluate(filters, subject({ groups: { company: orgKeyed } }))).toEqual(result(true, 'condition_match', 0));
    });
  });

  describe('super condition', () => {
    const ENROLMENT = '$feature_enrollment/beta';
    const superFilters = (rollout: number | null = null) => ({
      groups: [{}],
      multivariate: VARIANTS,
      super_groups: [{ properties: [person(ENROLMENT, ['true'])], rollout_percentage: rollout }],
    });

    it.each([
      [true, result(true, 'super_condition_value', 0)],
      ['true', result(true, 'super_condition_value', 0)],
      [false, result(false, 'super_condition_value', 0)],
      [null, result(false, 'super_condition_value', 0)],
    ])('decides when the enrolment key is present (%p)', (enrolled, expected) => {
      expect(evaluate(superFilters(), subject({ personProperties: { [ENROLMENT]: enrolled } }))).toEqual(expected);
    });

    it('applies its rollout', () => {
      const who = subject({ personProperties: { [ENROLMENT]: true } });
      expect(evaluate(superFilters(39), who)).toEqual(result(false, 'super_condition_value', 0));
      expect(evaluate(superFilters(40), who)).toEqual(result(true, 'super_condition_value', 0));
    });

    it('goes on to the release conditions when the enrolment key is absent', () => {
      expect(evaluate(superFilters(), subject({ personProperties: { other: true } }))).toEqual(result('control', 'condition_match', 0));
    });

    it('counts only super_groups[0]', () => {
      const filters = {
        ...superFilters(),
        super_groups: [{ properties: [person(ENROLMENT, ['true'])] }, { properties: [person('$feature_enrollment/other', ['true'])] }],
      };
      const who = subject({ personProperties: { '$feature_enrollment/other': true } });
      expect(evaluate(filters, who)).toEqual(result('control', 'condition_match', 0));
    });

    it('is skipped by group flags', () => {
      const filters = { ...superFilters(), aggregation_group_type_index: 0 };
      const groups = { organization: { key: 'user-1', properties: { [ENROLMENT]: false } } };
      expect(evaluate(filters, subject({ groups }))).toEqual(result('control', 'condition_match', 0));
    });
  });

  it('takes the first matching condition in array order; override conditions are not moved first', () => {
    const filters = { groups: [{}, { variant: 'test' }], multivariate: VARIANTS };
    expect(evaluate(filters)).toEqual(result('control', 'condition_match', 0));
  });

  it('reports the index of the matching condition', () => {
    const filters = { groups: [PLAN_PRO, { ...COUNTRY_US, variant: 'test' }, {}], multivariate: VARIANTS };
    expect(evaluate(filters, subject({ personProperties: { country: 'us' } }))).toEqual(result('test', 'condition_match', 1));
  });

  it('needs every property of a condition (AND)', () => {
    const filters = { groups: [{ properties: [...PLAN_PRO.properties, ...COUNTRY_US.properties] }] };
    expect(evaluate(filters, subject({ personProperties: { plan: 'pro', country: 'US' } })).value).toBe(true);
    expect(evaluate(filters, subject({ personProperties: { plan: 'pro', country: 'CA' } })).value).toBe(false);
  });
});

describe('reasons when nothing matched (docs/evaluation.md §3.3)', () => {
  it.each([
    ['[plan=pro, country=US], neither', [PLAN_PRO, COUNTRY_US], {}, result(false, 'no_condition_match', 1)],
    ['[plan=pro, 0%], plan=free', [PLAN_PRO, ZERO_PERCENT], { plan: 'free' }, result(false, 'out_of_rollout_bound', 1)],
    ['[0%, plan=pro], plan=free', [ZERO_PERCENT, PLAN_PRO], { plan: 'free' }, result(false, 'out_of_rollout_bound', 0)],
    ['[plan=pro, {}], plan=free', [PLAN_PRO, {}], { plan: 'free' }, result(true, 'condition_match', 1)],
    ['[0%, 0%], anyone', [ZERO_PERCENT, ZERO_PERCENT], {}, result(false, 'out_of_rollout_bound', 1)],
  ])('%s', (_label, groups, personProperties, expected) => {
    expect(evaluate({ groups }, subject({ personProperties }))).toEqual(expected);
  });
});

describe('filters and property bags (docs/evaluation.md §4.1, docs/cohorts.md §3)', () => {
  const ORG = { aggregation_group_type_index: 0 };
  const org = (key: string, properties: Record<string, unknown> = {}) => ({ organization: { key, properties } });
  const groupFilter = (key: string, value: unknown, group_type_index: number) => ({ key, value, type: 'group', group_type_index });

  describe('group flags match only type "group" filters with the flag\'s group_type_index', () => {
    it.each([
      [groupFilter('size', 12, 0), true],
      [groupFilter('size', 13, 0), false],
      [groupFilter('size', 12, 1), false],
      [{ key: 'size', value: 12, type: 'group' }, false],
      [{ key: 'size', value: 12, type: 'person' }, false],
      [{ key: 'size', value: 12, type: 'person', group_type_index: 0 }, false],
    ])('%j: %p', (filter, expected) => {
      const who = subject({ personProperties: { size: 12 }, groups: org('7', { size: 12 }) });
      expect(evaluate({ ...ORG, groups: [{ properties: [filter] }] }, who).value).toBe(expected);
    });
  });

  it('gives group flags $group_key in the group bag', () => {
    const groups = [{ properties: [groupFilter('$group_key', '7', 0)] }];
    expect(evaluate({ ...ORG, groups }, subject({ groups: org('7') })).value).toBe(true);
    expect(evaluate({ ...ORG, groups }, subject({ groups: org('8', { $group_key: '7' }) })).value).toBe(false);
  });

  it('buckets group flags by the group key, not the distinct_id', () => {
    // at 39%, user-2 (0.3824) is in and user-1 (0.3977) out; their variants are test and control
    const filters = { ...ORG, groups: [{ rollout_percentage: 39 }], multivariate: VARIANTS };
    expect(evaluate(filters, subject({ distinctId: 'user-1', groups: org('user-2') }))).toEqual(result('test', 'condition_match', 0));
    expect(evaluate(filters, subject({ distinctId: 'user-2', groups: org('user-1') }))).toEqual(result(false, 'out_of_rollout_bound', 0));
  });

  it.each([
    [groupFilter('plan', 'pro', 0)],
    [{ key: 'plan', value: 'pro', type: 'behavioral' }],
    [{ key: 'plan', value: 'pro', type: 'flag' }],
    [{ key: 'plan', value: 'pro' }],
  ])('person flags treat %j as false', (filter) => {
    const who = subject({ personProperties: { plan: 'pro' }, groups: org('7', { plan: 'pro' }) });
    expect(evaluate({ groups: [{ properties: [filter] }] }, who)).toEqual(result(false, 'no_condition_match', 0));
    expect(evaluate({ groups: [{ properties: [person('plan', 'pro')] }] }, who).value).toBe(true);
  });

  describe("cohort filters use the subject's membership", () => {
    const inCohort = (id: number) => id === 5;
    it.each([
      [{ operator: 'in', value: 5 }, true],
      [{ operator: 'in', value: 6 }, false],
      [{ operator: 'not_in', value: 5 }, false],
      [{ operator: 'not_in', value: 6 }, true],
      [{ value: 5 }, true],
      [{ value: 6 }, false],
      [{ operator: 'in', value: '5' }, true],
      [{ operator: 'not_in', value: '5' }, false],
    ])('%j: %p', (filter, expected) => {
      const cohort = { key: 'id', type: 'cohort', ...filter };
      expect(evaluate({ groups: [{ properties: [cohort] }] }, subject({ inCohort })).value).toBe(expected);
    });
  });

  it('puts the requested distinct_id in the person bag, over a stored distinct_id property', () => {
    const who = subject({ distinctId: 'user-1', personProperties: { distinct_id: 'stored' } });
    expect(evaluate({ groups: [{ properties: [person('distinct_id', 'user-1')] }] }, who).value).toBe(true);
    expect(evaluate({ groups: [{ properties: [person('distinct_id', 'stored')] }] }, who).value).toBe(false);
    expect(evaluate({ groups: [{ properties: [person('distinct_id', 'user-1')] }] }, subject()).value).toBe(true);
  });

  it('reads date filters relative to the given now', () => {
    const filters = { groups: [{ properties: [person('signed_up', '-7d', 'is_date_after')] }] };
    const who = subject({ personProperties: { signed_up: '2024-06-10' } });
    expect(evaluateFlag({ key: 'beta', filters }, who, GROUP_TYPES, NOW).value).toBe(true);
    expect(evaluateFlag({ key: 'beta', filters }, who, GROUP_TYPES, new Date('2024-07-15T12:00:00Z')).value).toBe(false);
  });
});

describe('evaluation compiled once per flag (src/evaluation/evaluate-flag.ts)', () => {
  it('evaluates a flag again after its filters are replaced, and keeps each outcome as one frozen object', () => {
    const flag = { key: 'beta', filters: { groups: [PLAN_PRO] } as Record<string, unknown> | null };
    const pro = subject({ personProperties: { plan: 'pro' } });
    const first = evaluateFlag(flag, pro, GROUP_TYPES, NOW);
    expect(first).toEqual(result(true, 'condition_match', 0));
    expect(evaluateFlag(flag, subject({ personProperties: { plan: 'pro' } }), GROUP_TYPES, NOW)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    flag.filters = { groups: [COUNTRY_US] };
    expect(evaluateFlag(flag, pro, GROUP_TYPES, NOW)).toEqual(result(false, 'no_condition_match', 0));
  });

  it.each([
    [100, true],
    [150, true],
    [-5, false],
    [Number.NaN, false],
  ])('decides a rollout of %p%% without the hash as the hash would (%p for every subject)', (rollout, value) => {
    for (const distinctId of ['user-1', 'user-2', 'u', 'x'.repeat(200)]) {
      const evaluation = evaluate({ groups: [{ properties: [], rollout_percentage: rollout }] }, subject({ distinctId }));
      expect(evaluation).toEqual(result(value, value ? 'condition_match' : 'out_of_rollout_bound', 0));
    }
  });

  it('reads a property date relative to each evaluation own now, one text after another', () => {
    const filters = { groups: [{ properties: [person('seen', '2024-06-01', 'is_date_after')] }] };
    const who = subject({ personProperties: { seen: '-10d' } });
    expect(evaluateFlag({ key: 'beta', filters }, who, GROUP_TYPES, NOW).value).toBe(true);
    expect(evaluateFlag({ key: 'beta', filters }, who, GROUP_TYPES, new Date('2024-06-05T00:00:00Z')).value).toBe(false);
  });

  it('reads each subject version afresh when versions alternate', () => {
    const filters = { groups: [{ properties: [person('app', '2.0.0', 'semver_gte')] }] };
    for (const [app, value] of [
      ['2.1.0', true],
      ['1.9.9', false],
      ['2.1.0', true],
      ['v3', true],
      ['1.9.9', false],
    ] as const) {
      expect(evaluate(filters, subject({ personProperties: { app } })).value).toBe(value);
    }
  });
});

describe('a subject changed between evaluations (src/evaluation/evaluate-flag.ts)', () => {
  it('reads personUnread and the distinct id afresh, as the bag was read before the scope was kept', () => {
    const flag = { key: 'beta', filters: { groups: [{ properties: [person('plan', 'pro', 'is_not')], rollout_percentage: 39 }] } };
    const who = subject({ distinctId: 'user-2' }); // rolls out at 0.3824
    expect(evaluateFlag(flag, who, GROUP_TYPES, NOW)).toEqual(result(true, 'condition_match', 0));
    who.distinctId = 'user-1'; // 0.3977
    expect(evaluateFlag(flag, who, GROUP_TYPES, NOW)).toEqual(result(false, 'out_of_rollout_bound', 0));
    who.personUnread = true;
    expect(() => evaluateFlag(flag, who, GROUP_TYPES, NOW)).toThrow(SubjectDataUnavailable);
  });
});
