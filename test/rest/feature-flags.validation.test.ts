import { startTestApp, type TestApp } from '../helpers/test-app';
import type { World } from '../helpers/factories';

/** docs/rest-api.md §3.1–§3.4: what a flag write accepts and refuses. */

let app: TestApp;
let world: World;
let flags: string;

const invalid = (detail: string, attr: string | null = 'filters', code = 'invalid_input') => ({
  type: 'validation_error',
  code,
  detail,
  attr,
});

const create = (body: unknown) => app.request(flags, { method: 'POST', key: world.owner.key, body });
const patch = (id: number, body: unknown) => app.request(`${flags}/${id}`, { method: 'PATCH', key: world.owner.key, body });
const retrieve = (id: number) => app.request(`${flags}/${id}`, { key: world.owner.key });
const count = async () => (await app.request(flags, { key: world.owner.key })).body.count as number;

let serial = 0;
const uniqueKey = (prefix = 'flag') => `${prefix}-${++serial}`;
/** Creates a flag with `filters` and a fresh key. */
const withFilters = (filters: unknown) => create({ key: uniqueKey(), filters });

async function expect400(res: { status: number; body: unknown }, body: unknown) {
  expect({ status: res.status, body: res.body }).toEqual({ status: 400, body });
}

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
  flags = `/api/projects/${world.project.id}/feature_flags`;
});
afterAll(() => app.close());

describe('key (§3.2)', () => {
  it('is required on POST', async () => {
    await expect400(await create({}), invalid('This field is required.', 'key', 'required'));
    await expect400(await create({ name: 'no key' }), invalid('This field is required.', 'key', 'required'));
  });

  it.each([
    [null, 'This field may not be null.', 'null'],
    ['', 'This field may not be blank.', 'blank'],
    ['   ', 'This field may not be blank.', 'blank'],
    [{}, 'Not a valid string.', 'invalid_input'],
    [['a'], 'Not a valid string.', 'invalid_input'],
    [true, 'Not a valid string.', 'invalid_input'],
  ])('refuses key %j', async (key, detail, code) => {
    await expect400(await create({ key }), invalid(detail, 'key', code));
  });

  it('accepts a number as text', async () => {
    const res = await create({ key: 12345 });
    expect(res.status).toBe(201);
    expect(res.body.key).toBe('12345');
  });

  it('is unique among non-deleted flags', async () => {
    const red = await app.request(`${flags}/`, { method: 'POST', key: world.owner.key, body: { key: 'red_button' } });
    expect(red.status).toBe(201);
    const before = await count();
    const duplicate = await app.request(flags, { method: 'POST', key: world.owner.key, body: { name: 'Beta feature', key: 'red_button' } });
    await expect400(duplicate, invalid('There is already a feature flag with this key.', 'key', 'unique'));
    await expect400(await create({ key: '  red_button ' }), invalid('There is already a feature flag with this key.', 'key', 'unique'));
    expect(await count()).toBe(before);

    const other = await create({ key: uniqueKey() });
    await expect400(
      await patch(other.body.id, { key: 'red_button' }),
      invalid('There is already a feature flag with this key.', 'key', 'unique'),
    );
    expect((await retrieve(other.body.id)).body.key).toBe(other.body.key);

    const self = await patch(red.body.id, { name: 'Beta feature 3', key: 'red_button' });
    expect(self.status).toBe(200);
    expect(self.body).toMatchObject({ name: 'Beta feature 3', key: 'red_button' });
  });

  it.each(['foo?bar=baz', 'foo/bar', 'foo\\bar', 'foo.bar', 'foo bar', 'ключ', 'a\u0000b'])('refuses the key %j', async (key) => {
    const res = await create({ key });
    expect(res.status).toBe(400);
    expect(res.body.attr).toBe('key');
    expect(res.body.type).toBe('validation_error');
    if (!key.includes('\u0000')) {
      expect(res.body).toEqual(invalid('Only letters, numbers, hyphens (-) & underscores (_) are allowed.', 'key', 'invalid_key'));
    }
  });

  it('allows 400 characters, not 401, and trims first', async () => {
    await expect400(
      await create({ key: 'k'.repeat(401) }),
      invalid('Ensure this field has no more than 400 characters.', 'key', 'max_length'),
    );
    expect((await create({ key: 'k'.repeat(400) })).status).toBe(201);
    const padded = await create({ key: ' padded ' });
    expect(padded.status).toBe(201);
    expect(padded.body.key).toBe('padded');
  });

  it('checks uniqueness before the format', async () => {
    await create({ key: 'format-after' });
    await expect400(await create({ key: 'format-after' }), invalid('There is already a feature flag with this key.', 'key', 'unique'));
  });

  it("frees a soft-deleted flag's key for a new flag or a re-key", async () => {
    const alpha = await create({ key: 'alpha-feature' });
    await patch(alpha.body.id, { deleted: true });
    const again = await create({ key: 'alpha-feature' });
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(alpha.body.id);
    expect((await retrieve(alpha.body.id)).status).toBe(404);

    const beta = await create({ key: 'beta-feature' });
    await patch(again.body.id, { deleted: true });
    const rekeyed = await patch(beta.body.id, { key: 'alpha-feature' });
    expect(rekeyed.status).toBe(200);
    expect(rekeyed.body.key).toBe('alpha-feature');
    expect((await retrieve(again.body.id)).status).toBe(404);
  });

  it('regression: a NUL in the key reached the uniqueness query, which PostgreSQL refused (500)', async () => {
    const res = await create({ key: 'nul\u0000key' });
    await expect400(res, invalid('Null characters are not allowed.', 'key', 'null_characters_not_allowed'));
  });
});

describe('is_simple_flag and rollout_percentage', () => {
  it.each([
    [{ groups: [{ rollout_percentage: 65 }] }, true, 65],
    [{ groups: [{ properties: [], rollout_percentage: 65 }] }, true, 65],
    [{ groups: [{ properties: [{ key: 'email', value: 'x', type: 'person' }], rollout_percentage: 65 }] }, false, null],
    [{ groups: [{ rollout_percentage: 65 }], aggregation_group_type_index: 0 }, false, null],
    [{ groups: [{ rollout_percentage: 65 }, { rollout_percentage: 20 }] }, false, null],
    [{ groups: [] }, false, null],
  ])('filters %j → %s / %s', async (filters, simple, rollout) => {
    const res = await withFilters(filters);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ is_simple_flag: simple, rollout_percentage: rollout, filters });
  });
});

describe('filters (§3.3)', () => {
  const S2 = invalid('Feature flags must have at least one condition set (group).');
  const V2 = invalid('Invalid variant definitions: Variant rollout percentages must sum to 100.');
  const V3 = invalid('Filters are not valid (variant override does not exist)');
  const variants = (...pcts: Array<number | undefined>) => ({
    variants: pcts.map((rollout_percentage, i) => ({ key: `v${i}`, ...(rollout_percentage === undefined ? {} : { rollout_percentage }) })),
  });

  it('needs groups on POST, and an object', async () => {
    await expect400(await withFilters({}), S2);
    await expect400(await withFilters({ payloads: {} }), S2);
    expect((await withFilters({ groups: [] })).status).toBe(201);
    await expect400(await withFilters([]), invalid('Expected a dictionary of items but got type "list".', 'filters', 'not_a_dict'));
    await expect400(await withFilters('x'), invalid('Expected a dictionary of items but got type "str".', 'filters', 'not_a_dict'));
    await expect400(await withFilters(null), invalid('This field may not be null.', 'filters', 'null'));
  });

  it('keeps keys it does not know', async () => {
    const res = await withFilters({ groups: [], super_groups: [{ x: 1 }] });
    expect(res.body.filters).toEqual({ groups: [], super_groups: [{ x: 1 }] });
  });

  it('checks variants on POST and PATCH, leaving stored filters alone', async () => {
    await expect400(await withFilters({ groups: [], multivariate: variants(50, 25, 0) }), V2);
    await expect400(await withFilters({ groups: [], multivariate: variants(50, 25, 50) }), V2);
    const good = { groups: [{ rollout_percentage: 100 }], multivariate: variants(50, 25, 25) };
    const flag = await withFilters(good);
    expect(flag.status).toBe(201);
    await expect400(await patch(flag.body.id, { filters: { groups: [], multivariate: variants(50, 25, 0) } }), V2);
    expect((await retrieve(flag.body.id)).body).toMatchObject({ filters: good, version: 1 });
  });

  it.each([
    [{ groups: [], multivariate: variants(50, 25, undefined) }, 'multivariate.variants[2].rollout_percentage must be a number, got null'],
    [{ groups: [], multivariate: { variants: [{ rollout_percentage: 100 }] } }, 'multivariate.variants[0].key must be a non-empty string'],
    [{ groups: [{ rollout_percentage: '50' }] }, 'groups[0].rollout_percentage must be a number or null, got str'],
    [{ groups: [{ rollout_percentage: 150 }] }, 'groups[0].rollout_percentage must be between 0 and 100, got 150'],
    [{ groups: [{ rollout_percentage: -1 }] }, 'groups[0].rollout_percentage must be between 0 and 100, got -1'],
    [{ groups: {} }, 'groups must be a list, got dict'],
    [{ groups: ['x'] }, 'groups[0] must be an object, got str'],
    [{ groups: [{ properties: {} }] }, 'groups[0].properties must be a list, got dict'],
    [{ groups: [{ properties: [{ key: '', value: 1, type: 'person' }] }] }, 'groups[0].properties[0].key must be a non-empty string'],
    [
      { groups: [{ properties: [{ key: 'a', type: 'person', group_type_index: 'x' }] }] },
      'groups[0].properties[0].group_type_index must be an integer or null, got str',
    ],
    [{ groups: [{ variant: 5 }] }, 'groups[0].variant must be a string or null, got int'],
    [{ groups: [], multivariate: [] }, 'multivariate must be an object or null, got list'],
    [{ groups: [], aggregation_group_type_index: 'x' }, 'aggregation_group_type_index must be an integer or null, got str'],
    [
      {
        groups: [],
        multivariate: {
          variants: [
            { key: 'a', rollout_percentage: 50 },
            { key: 'a', rollout_percentage: 50 },
          ],
        },
      },
      'Invalid variant definitions: Variant keys must be unique.',
    ],
  ])('refuses %j', async (filters, detail) => {
    await expect400(await withFilters(filters), invalid(detail));
  });

  it('refuses an unknown variant override on POST and PATCH', async () => {
    const override = { groups: [{ rollout_percentage: 100, variant: 'unknown-variant' }], multivariate: variants(100) };
    await expect400(await withFilters(override), V3);
    const flag = await withFilters({ groups: [], multivariate: variants(100) });
    await expect400(await patch(flag.body.id, { filters: override }), V3);
    expect((await withFilters({ groups: [{ variant: 'v0' }], multivariate: variants(100) })).status).toBe(201);
  });

  it('matches property types to the aggregation', async () => {
    const personOnly = invalid('Filters are not valid (can only use person and cohort properties)');
    const groupOnly = invalid('Filters are not valid (can only use group properties)');
    await expect400(await withFilters({ groups: [{ properties: [{ key: 'id', value: 5 }] }] }), personOnly);
    await expect400(
      await withFilters({ groups: [{ properties: [{ key: 'id', value: 5, type: 'group', group_type_index: 0 }] }] }),
      personOnly,
    );
    const grouped = await withFilters({
      aggregation_group_type_index: 0,
      groups: [{ properties: [{ key: 'id', value: 5, type: 'group', group_type_index: 0 }] }],
    });
    expect(grouped.status).toBe(201);
    await expect400(
      await withFilters({
        aggregation_group_type_index: 3,
        groups: [{ properties: [{ key: 'id', value: 5, type: 'group', group_type_index: 0 }] }],
      }),
      groupOnly,
    );
    await expect400(
      await withFilters({ aggregation_group_type_index: 0, groups: [{ properties: [{ key: 'id', value: 5, type: 'person' }] }] }),
      groupOnly,
    );
  });

  it.each(['icontains', 'regex', 'not_icontains', 'not_regex', 'lt', 'gt', 'lte', 'gte'])(
    'refuses a list value for %s',
    async (operator) => {
      const res = await withFilters({ groups: [{ properties: [{ key: 'email', type: 'person', operator, value: ['@posthog.com'] }] }] });
      await expect400(res, invalid(`Invalid value for operator ${operator}: ['@posthog.com']`, 'filters', 'invalid_value'));
    },
  );

  it('accepts a string that looks like a list, refuses a pattern that does not compile', async () => {
    const ok = await withFilters({
      groups: [{ properties: [{ key: 'email', type: 'person', operator: 'not_regex', value: '["@posthog.com"]' }] }],
    });
    expect(ok.status).toBe(201);
    const bad = await withFilters({ groups: [{ properties: [{ key: 'email', type: 'person', operator: 'regex', value: '(unclosed' }] }] });
    await expect400(bad, invalid("Can't evaluate flag - please check release conditions", null));
  });

  it('refuses an unknown operator', async () => {
    const res = await withFilters({ groups: [{ properties: [{ key: 'email', type: 'person', operator: 'foo', value: 'x' }] }] });
    await expect400(res, invalid('Invalid operator: foo', 'filters', 'invalid_operator'));
  });

  it('checks relative and absolute dates', async () => {
    const date = (operator: string, value: unknown) =>
      withFilters({ groups: [{ properties: [{ key: 'signup', type: 'person', operator, value }] }] });
    await expect400(await date('is_date_before', '6hed'), invalid('Invalid date value: 6hed', 'filters', 'invalid_date'));
    await expect400(
      await date('is_date_after', '1234-02-993284'),
      invalid('Invalid date value: 1234-02-993284', 'filters', 'invalid_date'),
    );
    expect((await date('is_date_after', '-30d')).status).toBe(201);
    expect((await date('is_date_before', '2024-01-31')).status).toBe(201);
  });

  it('refuses a cohort that does not exist', async () => {
    const res = await withFilters({ groups: [{ properties: [{ key: 'id', type: 'cohort', value: 5151 }] }] });
    await expect400(res, invalid('Cohort with id 5151 does not exist', 'filters', 'cohort_does_not_exist'));
    const huge = await withFilters({ groups: [{ properties: [{ key: 'id', type: 'cohort', value: 99999999999 }] }] });
    await expect400(huge, invalid('Cohort with id 99999999999 does not exist', 'filters', 'cohort_does_not_exist'));
  });

  it('checks payloads against the flag kind', async () => {
    const boolean = invalid("Payload keys must be 'true' for boolean flags");
    const multivariate = invalid('Payload keys must match a variant key for multivariate flags');
    expect((await withFilters({ groups: [], payloads: { true: 300 } })).status).toBe(201);
    await expect400(await withFilters({ groups: [], payloads: { 'some-fake-key': 300 } }), boolean);
    const mv = { groups: [], multivariate: { variants: [{ key: 'first-variant', rollout_percentage: 100 }] } };
    expect((await withFilters({ ...mv, payloads: { 'first-variant': { some: 'payload' } } })).status).toBe(201);
    await expect400(await withFilters({ ...mv, payloads: { 'first-variant': 1, 'fourth-variant': 2 } }), multivariate);
    await expect400(await withFilters({ ...mv, payloads: { true: 1 } }), multivariate);
    await expect400(await withFilters({ groups: [], payloads: [] }), invalid('Payloads must be passed as a dictionary'));
  });
});

describe('the other writable fields (§3.1)', () => {
  it('stores rollback_conditions as any JSON', async () => {
    const conditions = [{ threshold: 50, threshold_type: 'insight', threshold_metric: { events: [{ id: '$pageview' }] }, operator: 'gt' }];
    const res = await create({ key: uniqueKey(), rollback_conditions: conditions });
    expect(res.status).toBe(201);
    expect(res.body.rollback_conditions).toEqual(conditions);
    expect(res.body.rollback_conditions).toHaveLength(1);
  });

  it('cleans tags: trimmed, lower-cased, blanks dropped, de-duplicated, sorted', async () => {
    const res = await create({ key: uniqueKey(), tags: [' Ops', 'beta', 'BETA ', '', '  ', 'alpha'] });
    expect(res.body.tags).toEqual(['alpha', 'beta', 'ops']);
    expect((await create({ key: uniqueKey(), tags: ['t'.repeat(255)] })).status).toBe(201);
  });

  it('reads booleans leniently', async () => {
    for (const [value, shown] of [
      [true, true],
      ['TRUE', true],
      ['false', false],
      ['1', true],
      ['0', false],
      [1, true],
      [0, false],
    ]) {
      const res = await create({ key: uniqueKey(), active: value });
      expect([value, res.status, res.body.active]).toEqual([value, 201, shown]);
    }
  });

  it('reads created_at as any ISO-8601 date-time, UTC when no offset is given', async () => {
    for (const [value, shown] of [
      ['2024-01-31T12:00:00', '2024-01-31T12:00:00.000000Z'],
      ['2024-01-31T12:00:00.123Z', '2024-01-31T12:00:00.123000Z'],
      ['2024-01-31T14:00:00+02:00', '2024-01-31T12:00:00.000000Z'],
      ['2024-01-31 12:00', '2024-01-31T12:00:00.000000Z'],
    ]) {
      const res = await create({ key: uniqueKey(), created_at: value });
      expect([value, res.status, res.body.created_at]).toEqual([value, 201, shown]);
    }
  });

  it('keeps null for the nullable fields', async () => {
    const res = await create({
      key: uniqueKey(),
      ensure_experience_continuity: null,
      rollback_conditions: null,
      performed_rollback: null,
      has_enriched_analytics: null,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      ensure_experience_continuity: null,
      rollback_conditions: null,
      performed_rollback: null,
      has_enriched_analytics: null,
    });
  });

  it('ignores unknown keys and read-only fields', async () => {
    const key = uniqueKey();
    const res = await create({
      key,
      id: 999999,
      is_simple_flag: false,
      rollout_percentage: 7,
      created_by: { id: 1 },
      can_edit: false,
      usage_dashboard: 5,
      experiment_set: [1],
      features: [1],
      version: 7,
      team_id: 12,
      whatever: { nested: true },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      key,
      is_simple_flag: true,
      rollout_percentage: null,
      experiment_set: [],
      features: [],
      can_edit: true,
      version: 1,
    });
    expect(res.body.id).not.toBe(999999);
    expect(res.body.created_by.id).toBe(world.owner.user.id);
  });

  it('answers the first failing field in the field table order', async () => {
    const res = await create({
      version: 'x',
      has_enriched_analytics: 'x',
      tags: 'x',
      active: 'maybe',
      deleted: 'maybe',
      name: {},
      key: {},
    });
    await expect400(res, invalid('Not a valid string.', 'name'));
    const next = await create({ key: uniqueKey(), active: 'maybe', deleted: 'maybe' });
    await expect400(next, invalid('Must be a valid boolean.', 'deleted'));
  });
});

describe('wrong types never answer 500', () => {
  const DATETIME = 'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].';
  const cases: Array<[string, unknown, ReturnType<typeof invalid>]> = [
    ['name', {}, invalid('Not a valid string.', 'name')],
    ['name', [], invalid('Not a valid string.', 'name')],
    ['name', false, invalid('Not a valid string.', 'name')],
    ['name', null, invalid('This field may not be null.', 'name', 'null')],
    ['deleted', 'maybe', invalid('Must be a valid boolean.', 'deleted')],
    ['deleted', null, invalid('This field may not be null.', 'deleted', 'null')],
    ['active', 'maybe', invalid('Must be a valid boolean.', 'active')],
    ['active', 2, invalid('Must be a valid boolean.', 'active')],
    ['active', [], invalid('Must be a valid boolean.', 'active')],
    ['active', null, invalid('This field may not be null.', 'active', 'null')],
    ['created_at', 'yesterday', invalid(DATETIME, 'created_at')],
    ['created_at', 5, invalid(DATETIME, 'created_at')],
    ['created_at', '2024-01-31', invalid(DATETIME, 'created_at')],
    ['created_at', '2024-13-01T00:00:00Z', invalid(DATETIME, 'created_at')],
    ['created_at', '2024-02-30T00:00:00Z', invalid(DATETIME, 'created_at')],
    ['created_at', '2024-02-30T00:00:00+02:00', invalid(DATETIME, 'created_at')],
    ['created_at', '0000-01-01T00:00:00Z', invalid(DATETIME, 'created_at')],
    ['created_at', '0001-01-01T00:00:00+01:00', invalid(DATETIME, 'created_at')],
    ['created_at', '9999-12-31T23:00:00-02:00', invalid(DATETIME, 'created_at')],
    ['created_at', null, invalid('This field may not be null.', 'created_at', 'null')],
    ['ensure_experience_continuity', 'maybe', invalid('Must be a valid boolean.', 'ensure_experience_continuity')],
    ['performed_rollback', {}, invalid('Must be a valid boolean.', 'performed_rollback')],
    ['has_enriched_analytics', 'x', invalid('Must be a valid boolean.', 'has_enriched_analytics')],
    ['tags', 'x', invalid('Expected a list of items but got type "str".', 'tags', 'not_a_list')],
    ['tags', {}, invalid('Expected a list of items but got type "dict".', 'tags', 'not_a_list')],
    ['tags', [1], invalid('Not a valid string.', 'tags')],
    ['tags', [null], invalid('Not a valid string.', 'tags')],
    ['tags', ['t'.repeat(256)], invalid('Ensure this field has no more than 255 characters.', 'tags', 'max_length')],
    ['tags', null, invalid('This field may not be null.', 'tags', 'null')],
    ['analytics_dashboards', 'x', invalid('Expected a list of items but got type "str".', 'analytics_dashboards', 'not_a_list')],
    ['analytics_dashboards', ['x'], invalid('Incorrect type. Expected pk value, received str.', 'analytics_dashboards', 'incorrect_type')],
    [
      'analytics_dashboards',
      [true],
      invalid('Incorrect type. Expected pk value, received bool.', 'analytics_dashboards', 'incorrect_type'),
    ],
    // Every flag create makes a usage dashboard, so a small id may well exist by now.
    [
      'analytics_dashboards',
      [2000000000],
      invalid('Invalid pk "2000000000" - object does not exist.', 'analytics_dashboards', 'does_not_exist'),
    ],
    [
      'analytics_dashboards',
      [99999999999],
      invalid('Invalid pk "99999999999" - object does not exist.', 'analytics_dashboards', 'does_not_exist'),
    ],
    ['analytics_dashboards', null, invalid('This field may not be null.', 'analytics_dashboards', 'null')],
  ];
  /** `version` is a precondition of updates only; a create ignores it. */
  const updateCases: typeof cases = [
    ...cases,
    ['version', 'x', invalid('A valid integer is required.', 'version')],
    ['version', 1.5, invalid('A valid integer is required.', 'version')],
    ['version', [1], invalid('A valid integer is required.', 'version')],
  ];

  it('regression: created_at outside years 1–9999 reached PostgreSQL (500); 02-30 with an offset rolled into March', async () => {
    for (const created_at of ['0000-01-01T00:00:00Z', '9999-12-31T23:00:00-02:00', '2024-02-30T00:00:00+02:00', '2024-01-01T24:00:00Z']) {
      const res = await create({ key: uniqueKey(), created_at });
      expect([created_at, res.status, res.body.attr]).toEqual([created_at, 400, 'created_at']);
    }
    const edges = await create({ key: uniqueKey(), created_at: '0001-01-01T00:00:00Z' });
    expect(edges.body.created_at).toBe('0001-01-01T00:00:00.000000Z');
  });

  it.each(cases)('POST %s: %j', async (field, value, expected) => {
    await expect400(await create({ key: uniqueKey(), [field]: value }), expected);
  });

  it.each(updateCases)('PATCH and PUT %s: %j', async (field, value, expected) => {
    const flag = await create({ key: uniqueKey() });
    await expect400(await patch(flag.body.id, { [field]: value }), expected);
    const put = await app.request(`${flags}/${flag.body.id}`, {
      method: 'PUT',
      key: world.owner.key,
      body: { key: flag.body.key, [field]: value },
    });
    await expect400(put, expected);
    expect((await retrieve(flag.body.id)).body).toEqual(flag.body);
  });

  it.each([
    ['name', 'a\u0000b', 'name'],
    ['tags', ['a\u0000b'], 'tags'],
    ['filters', { groups: [], extra: 'a\u0000b' }, 'filters'],
    ['filters', { groups: [], 'a\u0000b': 1 }, 'filters'],
    ['rollback_conditions', { 'a\u0000b': 1 }, 'rollback_conditions'],
    ['rollback_conditions', ['a\u0000b'], 'rollback_conditions'],
  ])('regression: a NUL in %s reached PostgreSQL, which stores none in text or jsonb (500)', async (field, value, attr) => {
    const expected = invalid('Null characters are not allowed.', attr, 'null_characters_not_allowed');
    await expect400(await create({ key: uniqueKey(), [field]: value }), expected);
    const flag = await create({ key: uniqueKey() });
    await expect400(await patch(flag.body.id, { [field]: value }), expected);
  });
});

describe('analytics_dashboards', () => {
  const dashboard = async (projectId: number) =>
    (
      await app.factories.sql(
        "insert into dashboard (project_id, name, description, filters, tags, created_at) values (?, 'Dash', '', '{}', '{}', now()) returning id",
        [projectId],
      )
    )[0].id as number;

  it("links the project's dashboards, only ever adding", async () => {
    const d1 = await dashboard(world.project.id);
    const d2 = await dashboard(world.project.id);
    const flag = await create({ key: uniqueKey(), analytics_dashboards: [d2] });
    expect(flag.body.analytics_dashboards).toEqual([d2]);
    expect((await patch(flag.body.id, { analytics_dashboards: [d2] })).body.analytics_dashboards).toEqual([d2]);
    expect((await patch(flag.body.id, { analytics_dashboards: [] })).body.analytics_dashboards).toEqual([d2]);
    expect((await patch(flag.body.id, { analytics_dashboards: [String(d1)] })).body.analytics_dashboards).toEqual([d1, d2]);
  });

  it('regression: repeated ids were each looked up; each is linked once, from one lookup of one id', async () => {
    const d = await dashboard(world.project.id);
    const flag = await create({ key: uniqueKey(), analytics_dashboards: [d, String(d), d] });
    expect(flag.body.analytics_dashboards).toEqual([d]);
    const repeated = Array.from({ length: 70_000 }, () => d);
    const sql = await app.sqlDuring(async () => {
      expect((await patch(flag.body.id, { analytics_dashboards: repeated })).body.analytics_dashboards).toEqual([d]);
    });
    const lookup = sql.filter((statement) => /from "dashboard"/.test(statement));
    expect(lookup).toHaveLength(1);
    expect(lookup[0].length).toBeLessThan(300);
  });

  it("refuses another project's dashboard", async () => {
    const other = await app.factories.world();
    const foreign = await dashboard(other.project.id);
    const flag = await create({ key: uniqueKey() });
    await expect400(
      await patch(flag.body.id, { analytics_dashboards: [foreign] }),
      invalid(`Invalid pk "${foreign}" - object does not exist.`, 'analytics_dashboards', 'does_not_exist'),
    );
    expect((await retrieve(flag.body.id)).body.analytics_dashboards).toEqual([]);
  });
});
