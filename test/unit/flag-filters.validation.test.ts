import { ValidationError } from '../../src/errors';
import {
  type CohortInfo,
  type FiltersValidationOptions,
  validateConditionProperties,
  validateFlagFilters,
} from '../../src/modules/feature-flag/flag-filters.validation';

const COHORTS: CohortInfo[] = [
  { id: 1, name: 'plain', deleted: false, behavioralCohort: null },
  { id: 2, name: 'cohort2', deleted: false, behavioralCohort: 'cohort2' },
  { id: 3, name: 'gone', deleted: true, behavioralCohort: null },
  { id: 4, name: 'nests-cohort2', deleted: false, behavioralCohort: 'cohort2' },
];

const loadCohorts = jest.fn(async (ids: number[]) => COHORTS.filter((c) => ids.includes(c.id)));
beforeEach(() => loadCohorts.mockClear());

const POST: FiltersValidationOptions = { requireGroups: true, loadCohorts };
const PATCH: FiltersValidationOptions = { requireGroups: false, loadCohorts };

type Body = { type: string; code: string; detail: string; attr: string | null };

async function errorOf(run: () => Promise<void>): Promise<Body> {
  try {
    await run();
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    expect(error.status).toBe(400);
    return error.toJSON();
  }
  throw new Error('expected a ValidationError');
}

const filtersError = (filters: unknown, options = POST) => errorOf(() => validateFlagFilters(filters, options));
const invalid = (detail: string, attr: string | null = 'filters', code = 'invalid_input'): Body => ({
  type: 'validation_error',
  code,
  detail,
  attr,
});

// Builders
const person = (key: string, value: unknown, operator?: string) => ({
  key,
  value,
  type: 'person',
  ...(operator !== undefined ? { operator } : {}),
});
const cohort = (value: unknown, operator?: string) => ({
  key: 'id',
  value,
  type: 'cohort',
  ...(operator !== undefined ? { operator } : {}),
});
const withProps = (...properties: unknown[]) => ({ groups: [{ properties, rollout_percentage: null }] });
const variants = (...pcts: unknown[]) =>
  pcts.map((rollout_percentage, i) => ({ key: ['first-variant', 'second-variant', 'third-variant'][i] ?? `v${i}`, rollout_percentage }));
const multivariate = (...pcts: unknown[]) => ({
  groups: [{ properties: [], rollout_percentage: null }],
  multivariate: { variants: variants(...pcts) },
});

const MSG = {
  S2: 'Feature flags must have at least one condition set (group).',
  S5: 'Invalid variant definitions: Variant keys must be unique.',
  V1person: 'Filters are not valid (can only use person and cohort properties)',
  V1group: 'Filters are not valid (can only use group properties)',
  V2: 'Invalid variant definitions: Variant rollout percentages must sum to 100.',
  V3: 'Filters are not valid (variant override does not exist)',
  V5dict: 'Payloads must be passed as a dictionary',
  V5multi: 'Payload keys must match a variant key for multivariate flags',
  V5bool: "Payload keys must be 'true' for boolean flags",
  V6: "Can't evaluate flag - please check release conditions",
};

describe('validateFlagFilters: valid filters', () => {
  it.each<[string, unknown]>([
    ['a simple rollout', { groups: [{ rollout_percentage: 65 }] }],
    ['a person property', { groups: [{ properties: [person('email', 'a@b.c')], rollout_percentage: 65 }] }],
    ['aggregation 0 with a plain condition', { groups: [{ rollout_percentage: 65 }], aggregation_group_type_index: 0 }],
    ['no groups', { groups: [] }],
    ['an empty condition', { groups: [{}] }],
    ['null properties and fractions', { groups: [{ properties: null, rollout_percentage: 12.5 }] }],
    ['0 and 100 rollouts', { groups: [{ rollout_percentage: 0 }, { rollout_percentage: 100 }] }],
    [
      'a group property of the aggregation index',
      {
        groups: [{ properties: [{ key: 'name', value: 'x', type: 'group', group_type_index: 0 }] }],
        aggregation_group_type_index: 0,
      },
    ],
    ['not_regex with a string that looks like a list', withProps(person('email', '["@posthog.com"]', 'not_regex'))],
    ['a valid regex', withProps(person('email', '^[Pp]ro$', 'regex'))],
    ['a relative date', withProps(person('joined', '-30d', 'is_date_before'))],
    ['an ISO date', withProps(person('joined', '2024-06-01T10:00:00Z', 'is_date_after'))],
    ['is_date_exact is not date-checked', withProps(person('joined', '6hed', 'is_date_exact'))],
    ['gt with a string number', withProps(person('age', '18', 'gt'))],
    ['exact with a list', withProps(person('group', [0, 1, 2, 3], 'exact'))],
    ['every listed operator', withProps(person('a', 'x', 'semver_caret'), person('b', 'x', 'in'), person('c', null, 'is_set'))],
    ['a null operator means exact', withProps({ key: 'a', value: 'x', type: 'person', operator: null })],
    ['a cohort by number', withProps(cohort(1))],
    ['a cohort by numeric string, any operator listed', withProps(cohort('1', 'not_in'))],
    ['a cohort filter ignores V4e/V6 for its operator', withProps(cohort(1, 'regex'))],
    ['payloads for a boolean flag', { groups: [], payloads: { true: 300 } }],
    ['empty payloads', { groups: [], payloads: {} }],
    ['null payloads', { groups: [], payloads: null }],
    ['a 3-way split', multivariate(50, 25, 25)],
    ['a split with a 0 variant', multivariate(100, 0)],
    ['decimal percentages summing to 100 in any order', multivariate(33.4, 33.3, 33.3)],
    [
      'variant payloads and an override',
      {
        groups: [{ properties: [], rollout_percentage: 50, variant: 'second-variant' }],
        multivariate: { variants: variants(50, 25, 25) },
        payloads: { 'first-variant': { color: 'blue' }, 'third-variant': '"x"' },
      },
    ],
    ['an empty-string override means none', { groups: [{ variant: '' }] }],
    ['null variant override', { groups: [{ variant: null }] }],
    ['multivariate null', { groups: [], multivariate: null }],
    ['no variants', { groups: [], multivariate: { variants: [] } }],
    ['other keys are not validated', { groups: [], super_groups: 'anything', holdout: [1] }],
    ['a variant name is free', { groups: [], multivariate: { variants: [{ key: 'a', name: 5, rollout_percentage: 100 }] } }],
  ])('accepts %s', async (_name, filters) => {
    await expect(validateFlagFilters(filters, POST)).resolves.toBeUndefined();
  });

  it('accepts a PATCH without groups (PATCH skips S2)', async () => {
    await expect(validateFlagFilters({ payloads: { true: 1 } }, PATCH)).resolves.toBeUndefined();
  });

  it('does not look cohorts up when no cohort is named', async () => {
    await validateFlagFilters(withProps(person('a', 'b')), POST);
    expect(loadCohorts).not.toHaveBeenCalled();
  });

  it('looks cohorts up once, with the distinct ids', async () => {
    const filters = { groups: [{ properties: [cohort(1), cohort('1')] }, { properties: [cohort(1), person('a', 'b')] }] };
    await validateFlagFilters(filters, POST);
    expect(loadCohorts).toHaveBeenCalledTimes(1);
    expect(loadCohorts).toHaveBeenCalledWith([1]);
  });
});

describe('validateFlagFilters: S1–S5', () => {
  it.each<[string, unknown, Body, FiltersValidationOptions?]>([
    // S1
    ['filters []', [], invalid('Expected a dictionary of items but got type "list".', 'filters', 'not_a_dict')],
    ['filters "x"', 'x', invalid('Expected a dictionary of items but got type "str".', 'filters', 'not_a_dict')],
    ['filters null', null, invalid('Expected a dictionary of items but got type "NoneType".', 'filters', 'not_a_dict')],
    ['S1 on PATCH too', [], invalid('Expected a dictionary of items but got type "list".', 'filters', 'not_a_dict'), PATCH],
    // S2
    ['filters {}', {}, invalid(MSG.S2)],
    ['payloads only', { payloads: {} }, invalid(MSG.S2)],
    // S3: groups
    ['groups an object', { groups: {} }, invalid('groups must be a list, got dict')],
    ['groups null', { groups: null }, invalid('groups must be a list, got null')],
    ['groups null on PATCH', { groups: null }, invalid('groups must be a list, got null'), PATCH],
    ['a group not an object', { groups: [{}, 'x'] }, invalid('groups[1] must be an object, got str')],
    ['properties a string', { groups: [{ properties: 'x' }] }, invalid('groups[0].properties must be a list, got str')],
    ['properties an object', { groups: [{ properties: {} }] }, invalid('groups[0].properties must be a list, got dict')],
    ['a property not an object', withProps(person('a', 1), 5), invalid('groups[0].properties[1] must be an object, got int')],
    ['a property null', withProps(null), invalid('groups[0].properties[0] must be an object, got null')],
    ['a property without key', withProps({ value: 1, type: 'person' }), invalid('groups[0].properties[0].key must be a non-empty string')],
    ['a property with key ""', withProps({ key: '', type: 'person' }), invalid('groups[0].properties[0].key must be a non-empty string')],
    ['a property with key 5', withProps({ key: 5, type: 'person' }), invalid('groups[0].properties[0].key must be a non-empty string')],
    ['a property type 5', withProps({ key: 'a', type: 5 }), invalid('groups[0].properties[0].type must be a string or null, got int')],
    [
      'an operator list',
      withProps({ key: 'a', type: 'person', operator: ['exact'] }),
      invalid('groups[0].properties[0].operator must be a string or null, got list'),
    ],
    [
      'group_type_index a string',
      withProps(person('a', 1), { key: 'b', type: 'group', group_type_index: '0' }),
      invalid('groups[0].properties[1].group_type_index must be an integer or null, got str'),
    ],
    [
      'group_type_index a float',
      withProps({ key: 'b', type: 'group', group_type_index: 0.5 }),
      invalid('groups[0].properties[0].group_type_index must be an integer or null, got float'),
    ],
    [
      'group_type_index a bool',
      withProps({ key: 'b', type: 'group', group_type_index: true }),
      invalid('groups[0].properties[0].group_type_index must be an integer or null, got bool'),
    ],
    // S3: rollout and variant of a group
    ['rollout "50"', { groups: [{ rollout_percentage: '50' }] }, invalid('groups[0].rollout_percentage must be a number or null, got str')],
    [
      'rollout true',
      { groups: [{ rollout_percentage: true }] },
      invalid('groups[0].rollout_percentage must be a number or null, got bool'),
    ],
    ['variant 5', { groups: [{ variant: 5 }] }, invalid('groups[0].variant must be a string or null, got int')],
    // S3: depth-first — a bad property of group 0 before the rollout of group 0, before group 1
    [
      'depth-first order',
      { groups: [{ properties: [{ key: '' }], rollout_percentage: 'x' }, 'y'] },
      invalid('groups[0].properties[0].key must be a non-empty string'),
    ],
    // S3: multivariate
    ['multivariate a list', { groups: [], multivariate: [] }, invalid('multivariate must be an object or null, got list')],
    ['multivariate {}', { groups: [], multivariate: {} }, invalid('multivariate.variants must be a list, got null')],
    ['variants an object', { groups: [], multivariate: { variants: {} } }, invalid('multivariate.variants must be a list, got dict')],
    [
      'a variant a string',
      { groups: [], multivariate: { variants: ['a'] } },
      invalid('multivariate.variants[0] must be an object, got str'),
    ],
    [
      'a variant without key',
      { groups: [], multivariate: { variants: [...variants(50, 25), { rollout_percentage: 25 }] } },
      invalid('multivariate.variants[2].key must be a non-empty string'),
    ],
    [
      'a variant without rollout_percentage',
      { groups: [], multivariate: { variants: [...variants(50, 50), { key: 'third-variant' }] } },
      invalid('multivariate.variants[2].rollout_percentage must be a number, got null'),
    ],
    [
      'a variant rollout "50"',
      { groups: [], multivariate: { variants: [{ key: 'a', rollout_percentage: '50' }] } },
      invalid('multivariate.variants[0].rollout_percentage must be a number, got str'),
    ],
    [
      'aggregation "0"',
      { groups: [], aggregation_group_type_index: '0' },
      invalid('aggregation_group_type_index must be an integer or null, got str'),
    ],
    [
      'aggregation 1.5',
      { groups: [], aggregation_group_type_index: 1.5 },
      invalid('aggregation_group_type_index must be an integer or null, got float'),
    ],
    [
      'aggregation false',
      { groups: [], aggregation_group_type_index: false },
      invalid('aggregation_group_type_index must be an integer or null, got bool'),
    ],
    // S4
    [
      'group rollout 150',
      { groups: [{ rollout_percentage: 150 }] },
      invalid('groups[0].rollout_percentage must be between 0 and 100, got 150'),
    ],
    [
      'group rollout -1',
      { groups: [{}, { rollout_percentage: -1 }] },
      invalid('groups[1].rollout_percentage must be between 0 and 100, got -1'),
    ],
    [
      'group rollout 100.5',
      { groups: [{ rollout_percentage: 100.5 }] },
      invalid('groups[0].rollout_percentage must be between 0 and 100, got 100.5'),
    ],
    [
      'variant rollout 150',
      multivariate(150, -50),
      invalid('multivariate.variants[0].rollout_percentage must be between 0 and 100, got 150'),
    ],
    // S5
    [
      'duplicate variant keys',
      {
        groups: [],
        multivariate: {
          variants: [
            { key: 'a', rollout_percentage: 50 },
            { key: 'a', rollout_percentage: 50 },
          ],
        },
      },
      invalid(MSG.S5),
    ],
  ])('%s', async (_name, filters, expected, options = POST) => {
    expect(await filtersError(filters, options)).toEqual(expected);
  });
});

describe('validateFlagFilters: V1–V3', () => {
  const groupProp = (index: unknown) => ({ key: 'name', value: 'x', type: 'group', group_type_index: index });

  it.each<[string, unknown, Body, FiltersValidationOptions?]>([
    // V1
    ['a property without type', withProps({ key: 'id', value: 5 }), invalid(MSG.V1person)],
    ['a property with type null', withProps({ key: 'id', value: 5, type: null }), invalid(MSG.V1person)],
    ['an event property', withProps({ key: 'id', value: 5, type: 'event' }), invalid(MSG.V1person)],
    ['a group property without aggregation', withProps(groupProp(0)), invalid(MSG.V1person)],
    [
      'aggregation 3 with a group property of index 0',
      { ...withProps(groupProp(0)), aggregation_group_type_index: 3 },
      invalid(MSG.V1group),
    ],
    ['a group property without index', { ...withProps(groupProp(null)), aggregation_group_type_index: 0 }, invalid(MSG.V1group)],
    ['a person property with aggregation 0', { ...withProps(person('a', 1)), aggregation_group_type_index: 0 }, invalid(MSG.V1group)],
    ['a cohort property with aggregation 0', { ...withProps(cohort(1)), aggregation_group_type_index: 0 }, invalid(MSG.V1group)],
    [
      'V1 in a later group',
      { groups: [{ properties: [person('a', 1)] }, { properties: [{ key: 'b', value: 1 }] }] },
      invalid(MSG.V1person),
    ],
    // V2
    ['variants 50/25/0', multivariate(50, 25, 0), invalid(MSG.V2)],
    ['variants 50/25/50', multivariate(50, 25, 50), invalid(MSG.V2)],
    ['variants 50/25/0 on PATCH', multivariate(50, 25, 0), invalid(MSG.V2), PATCH],
    ['variants 33.33/33.33/33.33', multivariate(33.33, 33.33, 33.33), invalid(MSG.V2)],
    ['variants short by 1e-8', multivariate(50, 49.99999999), invalid(MSG.V2)],
    ['one variant at 0', multivariate(0), invalid(MSG.V2)],
    // V3
    ['an unknown override', { ...multivariate(50, 50), groups: [{ variant: 'unknown-variant' }] }, invalid(MSG.V3)],
    ['an unknown override on PATCH', { ...multivariate(50, 50), groups: [{ variant: 'unknown-variant' }] }, invalid(MSG.V3), PATCH],
    ['an override on a boolean flag', { groups: [{ variant: 'first-variant' }] }, invalid(MSG.V3)],
  ])('%s', async (_name, filters, expected, options = POST) => {
    expect(await filtersError(filters, options)).toEqual(expected);
  });

  it('reports a property type that does not fit the aggregation with the exact message', async () => {
    expect(await filtersError(withProps({ key: 'id', value: 5 }))).toEqual({
      type: 'validation_error',
      code: 'invalid_input',
      detail: 'Filters are not valid (can only use person and cohort properties)',
      attr: 'filters',
    });
  });
});

describe('validateFlagFilters: V4 per property', () => {
  const STRING_OPERATORS = ['icontains', 'regex', 'not_icontains', 'not_regex', 'lt', 'gt', 'lte', 'gte'];

  it.each(STRING_OPERATORS)('%s with a list → invalid_value', async (operator) => {
    expect(await filtersError(withProps(person('email', ['@posthog.com'], operator)))).toEqual(
      invalid(`Invalid value for operator ${operator}: ['@posthog.com']`, 'filters', 'invalid_value'),
    );
  });

  it.each<[string, unknown, Body]>([
    // V4a
    ['an unknown operator', withProps(person('a', 1, 'foo')), invalid('Invalid operator: foo', 'filters', 'invalid_operator')],
    ['an empty operator', withProps(person('a', 1, '')), invalid('Invalid operator: ', 'filters', 'invalid_operator')],
    ['an unknown operator on a cohort', withProps(cohort(1, 'bar')), invalid('Invalid operator: bar', 'filters', 'invalid_operator')],
    // V4b
    ['a missing cohort', withProps(cohort(5151)), invalid('Cohort with id 5151 does not exist', 'filters', 'cohort_does_not_exist')],
    [
      'a missing cohort as string',
      withProps(cohort('5151')),
      invalid('Cohort with id 5151 does not exist', 'filters', 'cohort_does_not_exist'),
    ],
    ['a deleted cohort', withProps(cohort(3)), invalid('Cohort with id 3 does not exist', 'filters', 'cohort_does_not_exist')],
    [
      'a non-numeric cohort value',
      withProps(cohort('abc')),
      invalid('Cohort with id abc does not exist', 'filters', 'cohort_does_not_exist'),
    ],
    ['a null cohort value', withProps(cohort(null)), invalid('Cohort with id None does not exist', 'filters', 'cohort_does_not_exist')],
    ['a list cohort value', withProps(cohort([1])), invalid('Cohort with id [1] does not exist', 'filters', 'cohort_does_not_exist')],
    [
      'an out-of-range cohort id',
      withProps(cohort(99999999999)),
      invalid('Cohort with id 99999999999 does not exist', 'filters', 'cohort_does_not_exist'),
    ],
    // V4c
    [
      'a behavioral cohort',
      withProps(cohort(2)),
      invalid("Cohort 'cohort2' with filters on events cannot be used in feature flags.", 'filters', 'behavioral_cohort_found'),
    ],
    [
      'a cohort nesting a behavioral one (the message names the one holding the filter)',
      withProps(cohort('4')),
      invalid("Cohort 'cohort2' with filters on events cannot be used in feature flags.", 'filters', 'behavioral_cohort_found'),
    ],
    // V4d
    [
      'is_date_before "6hed"',
      withProps(person('d', '6hed', 'is_date_before')),
      invalid('Invalid date value: 6hed', 'filters', 'invalid_date'),
    ],
    [
      'is_date_after "1234-02-993284"',
      withProps(person('d', '1234-02-993284', 'is_date_after')),
      invalid('Invalid date value: 1234-02-993284', 'filters', 'invalid_date'),
    ],
    [
      'is_date_after a number',
      withProps(person('d', 1717200000, 'is_date_after')),
      invalid('Invalid date value: 1717200000', 'filters', 'invalid_date'),
    ],
    ['is_date_before null', withProps(person('d', null, 'is_date_before')), invalid('Invalid date value: None', 'filters', 'invalid_date')],
    [
      'is_date_before 10000d',
      withProps(person('d', '10000d', 'is_date_before')),
      invalid('Invalid date value: 10000d', 'filters', 'invalid_date'),
    ],
    // V4e
    ['gt with a number', withProps(person('age', 5, 'gt')), invalid('Invalid value for operator gt: 5', 'filters', 'invalid_value')],
    ['lte with null', withProps(person('age', null, 'lte')), invalid('Invalid value for operator lte: None', 'filters', 'invalid_value')],
    [
      'icontains with true',
      withProps(person('a', true, 'icontains')),
      invalid('Invalid value for operator icontains: True', 'filters', 'invalid_value'),
    ],
    [
      'regex with an object',
      withProps(person('a', { k: 'v' }, 'regex')),
      invalid("Invalid value for operator regex: {'k': 'v'}", 'filters', 'invalid_value'),
    ],
  ])('%s', async (_name, filters, expected) => {
    expect(await filtersError(filters)).toEqual(expected);
  });

  it('checks a behavioral cohort on PATCH too', async () => {
    expect((await filtersError(withProps(cohort(2)), PATCH)).code).toBe('behavioral_cohort_found');
  });

  it('runs V4a–V4e property by property: the first failing property answers', async () => {
    const filters = { groups: [{ properties: [person('a', 5, 'gt')] }, { properties: [person('b', 1, 'foo')] }] };
    expect(await filtersError(filters)).toEqual(invalid('Invalid value for operator gt: 5', 'filters', 'invalid_value'));
    const reversed = { groups: [{ properties: [cohort(5151), person('b', 1, 'foo')] }] };
    expect((await filtersError(reversed)).code).toBe('cohort_does_not_exist');
  });

  it('looks all cohorts up in one call, de-duplicated and only valid ids', async () => {
    const filters = withProps(cohort(1), cohort('2'), cohort(1), cohort('abc'), cohort(5151));
    expect((await filtersError(filters)).code).toBe('behavioral_cohort_found');
    expect(loadCohorts).toHaveBeenCalledTimes(1);
    expect(loadCohorts.mock.calls[0][0]).toEqual([1, 2, 5151]);
  });
});

describe('validateFlagFilters: V5, V6', () => {
  const multi = multivariate(50, 25, 25);

  it.each<[string, unknown, Body]>([
    // V5
    ['payloads a list', { groups: [], payloads: [] }, invalid(MSG.V5dict)],
    ['payloads a string', { groups: [], payloads: '{"true": 1}' }, invalid(MSG.V5dict)],
    ['an unknown payload key on a boolean flag', { groups: [], payloads: { 'some-fake-key': 300 } }, invalid(MSG.V5bool)],
    ['two payload keys on a boolean flag', { groups: [], payloads: { true: 1, false: 2 } }, invalid(MSG.V5bool)],
    ['a fourth variant payload', { ...multi, payloads: { 'first-variant': { a: 1 }, 'fourth-variant': 1 } }, invalid(MSG.V5multi)],
    ['a "true" payload on a multivariate flag', { ...multi, payloads: { 'first-variant': { a: 1 }, true: 1 } }, invalid(MSG.V5multi)],
    [
      'any payload when multivariate has no variants',
      { groups: [], multivariate: { variants: [] }, payloads: { true: 1 } },
      invalid(MSG.V5multi),
    ],
    // V6
    ['regex "(unclosed"', withProps(person('email', '(unclosed', 'regex')), invalid(MSG.V6, null)],
    ['not_regex "?*"', withProps(person('email', '?*', 'not_regex')), invalid(MSG.V6, null)],
    ['a Python-only regex', withProps(person('email', '(?i)abc', 'regex')), invalid(MSG.V6, null)],
  ])('%s', async (_name, filters, expected) => {
    expect(await filtersError(filters)).toEqual(expected);
  });

  it('answers V5 before V6', async () => {
    const filters = { ...withProps(person('email', '(unclosed', 'regex')), payloads: [] };
    expect(await filtersError(filters)).toEqual(invalid(MSG.V5dict));
  });

  it('answers V4 before V5 and S3 before S4 (first failure wins)', async () => {
    expect(await filtersError({ ...withProps(person('a', 1, 'foo')), payloads: [] })).toEqual(
      invalid('Invalid operator: foo', 'filters', 'invalid_operator'),
    );
    expect(await filtersError({ groups: [{ rollout_percentage: 150 }], aggregation_group_type_index: 'x' })).toEqual(
      invalid('aggregation_group_type_index must be an integer or null, got str'),
    );
  });

  it('answers S4 before S5, S5 before V1, V1 before V2, V2 before V3', async () => {
    const dup = [
      { key: 'a', rollout_percentage: 150 },
      { key: 'a', rollout_percentage: 50 },
    ];
    expect((await filtersError({ groups: [], multivariate: { variants: dup } })).detail).toMatch(/between 0 and 100/);
    const dupOk = [
      { key: 'a', rollout_percentage: 10 },
      { key: 'a', rollout_percentage: 50 },
    ];
    expect((await filtersError({ ...withProps({ key: 'x' }), multivariate: { variants: dupOk } })).detail).toBe(MSG.S5);
    expect((await filtersError({ ...multivariate(10), groups: [{ properties: [{ key: 'x' }] }] })).detail).toBe(MSG.V1person);
    expect((await filtersError({ ...multivariate(10), groups: [{ variant: 'nope' }] })).detail).toBe(MSG.V2);
  });
});

describe('validateConditionProperties (blast radius, docs/rest-api.md §4.7)', () => {
  const check = (properties: unknown) => errorOf(() => validateConditionProperties(properties, 'condition.properties', loadCohorts));

  it.each<[string, unknown]>([
    ['absent properties', undefined],
    ['null properties', null],
    ['no properties', []],
    ['a person property', [person('group', [0, 1, 2, 3], 'exact')]],
    ['a group property (types are the caller’s)', [{ key: 'name', value: 'x', type: 'group', group_type_index: 1 }]],
    ['an invalid regex (V6 does not apply)', [person('email', '(unclosed', 'regex')]],
    ['an existing cohort', [cohort(1)]],
  ])('accepts %s', async (_name, properties) => {
    await expect(validateConditionProperties(properties, 'condition.properties', loadCohorts)).resolves.toBeUndefined();
  });

  it.each<[string, unknown, Body]>([
    ['properties an object', {}, invalid('condition.properties must be a list, got dict', null)],
    ['a property a string', ['x'], invalid('condition.properties[0] must be an object, got str', null)],
    [
      'a property without key',
      [person('a', 1), { type: 'person' }],
      invalid('condition.properties[1].key must be a non-empty string', null),
    ],
    ['a bad type', [{ key: 'a', type: 1 }], invalid('condition.properties[0].type must be a string or null, got int', null)],
    [
      'a bad group_type_index',
      [{ key: 'a', group_type_index: '1' }],
      invalid('condition.properties[0].group_type_index must be an integer or null, got str', null),
    ],
    ['an unknown operator', [person('a', 1, 'foo')], invalid('Invalid operator: foo', null, 'invalid_operator')],
    ['a missing cohort', [cohort(5151)], invalid('Cohort with id 5151 does not exist', null, 'cohort_does_not_exist')],
    [
      'a behavioral cohort',
      [cohort(2)],
      invalid("Cohort 'cohort2' with filters on events cannot be used in feature flags.", null, 'behavioral_cohort_found'),
    ],
    ['an invalid date', [person('d', '6hed', 'is_date_before')], invalid('Invalid date value: 6hed', null, 'invalid_date')],
    [
      'a list for icontains',
      [person('e', ['@posthog.com'], 'icontains')],
      invalid("Invalid value for operator icontains: ['@posthog.com']", null, 'invalid_value'),
    ],
    [
      'shapes of all properties before V4',
      [person('a', 1, 'foo'), { key: '' }],
      invalid('condition.properties[1].key must be a non-empty string', null),
    ],
  ])('%s', async (_name, properties, expected) => {
    expect(await check(properties)).toEqual(expected);
  });
});
