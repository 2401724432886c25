import type { World } from '../helpers/factories';
import { startTestApp, type TestApp } from '../helpers/test-app';

const F = {
  events: [
    { order: 0, id: '$pageview' },
    { order: 1, id: '$pageleave' },
  ],
  properties: [],
};
const D = {
  name: 'Test Experiment',
  description: '',
  start_date: null,
  end_date: null,
  feature_flag_key: 'a-b-tests',
  parameters: {},
  filters: F,
};

let app: TestApp;
let world: World;
let base: string;
let counter = 0;

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
  base = `/api/projects/${world.project.id}`;
});
afterAll(() => app.close());

const uniqueKey = () => `exp-flag-${++counter}`;
const post = (body: unknown, key = world.owner.key) => app.request(`${base}/experiments/`, { method: 'POST', key, body });
const patch = (id: number, body: unknown, key = world.owner.key) =>
  app.request(`${base}/experiments/${id}/`, { method: 'PATCH', key, body });
const get = (id: number) => app.request(`${base}/experiments/${id}/`, { key: world.owner.key });
const flag = (id: number) => app.request(`${base}/feature_flags/${id}/`, { key: world.owner.key });
const draft = (overrides: Record<string, unknown> = {}) => ({ ...D, feature_flag_key: uniqueKey(), ...overrides });

function expectError(res: { status: number; body: any }, detail: string, attr: string | null = null, code = 'invalid') {
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ type: 'validation_error', code, detail, attr });
}

describe('creating an experiment', () => {
  it('creates a draft with its own multivariate flag', async () => {
    const res = await post(D);
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual([
      'id',
      'name',
      'description',
      'start_date',
      'end_date',
      'feature_flag_key',
      'feature_flag',
      'parameters',
      'secondary_metrics',
      'filters',
      'archived',
      'created_by',
      'created_at',
      'updated_at',
    ]);
    expect(res.body).toMatchObject({
      name: 'Test Experiment',
      archived: false,
      secondary_metrics: [],
      parameters: {},
      filters: F,
      start_date: null,
    });
    expect(res.body.created_by.email).toBe(world.owner.user.email);
    expect(res.body.feature_flag).toEqual({
      id: expect.any(Number),
      team_id: world.project.id,
      name: 'Feature Flag for Experiment Test Experiment',
      key: 'a-b-tests',
      filters: {
        groups: [{ properties: [], rollout_percentage: 100 }],
        multivariate: {
          variants: [
            { key: 'control', name: 'Control Group', rollout_percentage: 50 },
            { key: 'test', name: 'Test Variant', rollout_percentage: 50 },
          ],
        },
        aggregation_group_type_index: null,
      },
      deleted: false,
      active: false,
      ensure_experience_continuity: false,
    });
    const linked = await flag(res.body.feature_flag.id);
    expect(linked.body.experiment_set).toEqual([res.body.id]);
    expect(linked.body.created_by.email).toBe(world.owner.user.email);
  });

  it('launches on create with a start date, and keeps parameters as sent', async () => {
    const res = await post(draft({ start_date: '2021-12-01T10:23' }));
    expect(res.status).toBe(201);
    expect(res.body.start_date).toBe('2021-12-01T10:23:00Z');
    expect(res.body.feature_flag.active).toBe(true);
    const { parameters: _omitted, ...withoutParameters } = draft();
    const bare = await post(withoutParameters);
    expect(bare.status).toBe(201);
    expect(bare.body.parameters).toEqual({});
  });

  it('validates in the documented order', async () => {
    expectError(await post({ ...draft(), name: null, filters: {} }), 'This field may not be null.', 'name', 'null');
    expectError(await post(draft({ filters: {} })), 'Filters are required to create an Experiment');
    const { feature_flag_key: _key, ...keyless } = draft();
    expectError(await post(keyless), 'This field is required.', 'feature_flag_key', 'required');
    expectError(
      await post(draft({ feature_flag_key: 'a b' })),
      'Only letters, numbers, hyphens (-) & underscores (_) are allowed.',
      'feature_flag_key',
      'invalid_key',
    );
    expectError(await post(draft({ start_date: '2024-01-02T00:00', end_date: '2024-01-01T00:00' })), 'End date must be after start date');
    expectError(await post(draft({ start_date: '2024-01-02T00:00', end_date: '2024-01-02T00:00' })), 'End date must be after start date');
    expectError(
      await post(draft({ start_date: 'soon' })),
      'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
      'start_date',
    );
    expectError(await post(draft({ parameters: 'x' })), 'parameters must be a JSON object', 'parameters');
    expectError(await post(draft({ secondary_metrics: {} })), 'secondary_metrics must be a list', 'secondary_metrics');
    expectError(await post(draft({ filters: [] })), 'filters must be a JSON object', 'filters');
    expectError(await post(draft({ archived: 'maybe' })), 'Must be a valid boolean.', 'archived');
    expectError(await post(draft({ name: '' })), 'This field may not be blank.', 'name', 'blank');
    expectError(await post(draft({ name: 'x'.repeat(401) })), 'Ensure this field has no more than 400 characters.', 'name', 'max_length');
  });

  it('validates variants', async () => {
    const variants = (list: Array<[string, number?]>) => ({
      feature_flag_variants: list.map(([key, rollout_percentage]) => ({ key, rollout_percentage })),
    });
    expectError(
      await post(
        draft({
          parameters: variants([
            ['test_0', 34],
            ['test_1', 33],
            ['test_2', 33],
          ]),
        }),
      ),
      'Feature flag variants must contain a control variant',
      'parameters',
    );
    const many = (n: number) =>
      variants([['control', 100 - (n - 1) * 4], ...Array.from({ length: n - 1 }, (_, i): [string, number] => [`v${i}`, 4])]);
    expectError(await post(draft({ parameters: many(21) })), 'Feature flag variants must be less than 21', 'parameters');
    expect((await post(draft({ parameters: many(20) }))).status).toBe(201);
    expectError(
      await post(
        draft({ parameters: { feature_flag_variants: [{ key: 'control', rollout_percentage: 50 }, { rollout_percentage: 50 }] } }),
      ),
      'Each feature flag variant must have a key',
      'parameters',
    );
    expectError(
      await post(draft({ parameters: variants([['control', 100]]) })),
      'Feature flag variants must contain at least 2 variants',
      'parameters',
    );
    expectError(
      await post(
        draft({
          parameters: variants([
            ['control', 50],
            ['control', 50],
          ]),
        }),
      ),
      'Feature flag variant keys must be unique',
      'parameters',
    );
    expectError(await post(draft({ parameters: { feature_flag_variants: 'x' } })), 'Feature flag variants must be a list', 'parameters');
    expectError(
      await post(
        draft({
          parameters: variants([
            ['control', 150],
            ['test', -50],
          ]),
        }),
      ),
      'Invalid variant definitions: Variant rollout percentages must be numbers between 0 and 100.',
      'parameters',
    );
    expectError(
      await post(
        draft({
          parameters: variants([
            ['control', 33],
            ['test_1', 33],
            ['test_2', 33],
          ]),
        }),
      ),
      'Invalid variant definitions: Variant rollout percentages must sum to 100.',
      'parameters',
    );
    expectError(
      await post(draft({ parameters: { aggregation_group_type_index: 7 } })),
      'aggregation_group_type_index must be an integer between 0 and 4',
      'parameters',
    );
    const ok = await post(
      draft({
        parameters: variants([
          ['control', 33],
          ['test_1', 33],
          ['test_2', 34],
        ]),
      }),
    );
    expect(ok.status).toBe(201);
    expect(ok.body.feature_flag.filters.multivariate.variants.map((v: { key: string }) => v.key)).toEqual(['control', 'test_1', 'test_2']);
  });

  it('refuses global filter properties on create and update', async () => {
    const withProperties = { ...F, properties: [{ key: 'email', value: 'x', type: 'person' }] };
    expectError(await post(draft({ filters: withProperties })), 'Experiments do not support global filter properties');
    const created = await post(draft());
    expectError(await patch(created.body.id, { filters: withProperties }), 'Experiments do not support global filter properties');
  });

  it('takes the group index for the flag from parameters only', async () => {
    const fromParameters = await post(draft({ parameters: { aggregation_group_type_index: 0 } }));
    expect(fromParameters.body.feature_flag.filters.aggregation_group_type_index).toBe(0);
    const fromFilters = await post(draft({ filters: { ...F, aggregation_group_type_index: 0 } }));
    expect(fromFilters.body.feature_flag.filters.aggregation_group_type_index).toBeNull();
  });

  it('reuses an eligible flag and refuses an ineligible one', async () => {
    const flags = `${base}/feature_flags/`;
    const variants = (keys: string[]) => ({
      groups: [{ rollout_percentage: 100 }],
      multivariate: { variants: keys.map((key) => ({ key, rollout_percentage: 100 / keys.length })) },
    });
    const existing = await app.request(flags, {
      method: 'POST',
      key: world.owner.key,
      body: { key: 'a-b-test', filters: variants(['control', 'test']) },
    });
    const reused = await post(draft({ feature_flag_key: 'a-b-test' }));
    expect(reused.status).toBe(201);
    expect(reused.body.feature_flag.id).toBe(existing.body.id);
    expect((await flag(existing.body.id)).body.experiment_set).toEqual([reused.body.id]);
    await app.request(flags, { method: 'POST', key: world.owner.key, body: { key: 'boolean-one', filters: { groups: [] } } });
    expectError(
      await post(draft({ feature_flag_key: 'boolean-one' })),
      'Feature flag is not eligible for experiments.',
      'feature_flag_key',
    );
    await app.request(flags, { method: 'POST', key: world.owner.key, body: { key: 'test-first', filters: variants(['test', 'control']) } });
    expectError(
      await post(draft({ feature_flag_key: 'test-first' })),
      'Feature flag must have control as the first variant.',
      'feature_flag_key',
    );
  });
});

describe('updating an experiment', () => {
  it('stores fields and leaves the flag alone', async () => {
    const created = await post(draft());
    const before = await flag(created.body.feature_flag.id);
    const res = await patch(created.body.id, { description: 'Bazinga', end_date: '2021-12-10T00:00' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ description: 'Bazinga', end_date: '2021-12-10T00:00:00Z' });
    expect((await flag(created.body.feature_flag.id)).body).toEqual(before.body);
    const replaced = await patch(created.body.id, { parameters: { recommended_sample_size: 1500 } });
    expect(replaced.body.parameters).toEqual({ recommended_sample_size: 1500 });
  });

  it('keeps the key immutable', async () => {
    const created = await post(draft());
    expectError(await patch(created.body.id, { feature_flag_key: 'new_key' }), "Can't update keys: feature_flag_key on Experiment");
    expect((await patch(created.body.id, { feature_flag_key: created.body.feature_flag_key })).status).toBe(200);
  });

  it('launches a draft and activates its flag', async () => {
    const created = await post(draft());
    const edited = await patch(created.body.id, { description: 'x', filters: {} });
    expect(edited.status).toBe(200);
    expect(edited.body.feature_flag.active).toBe(false);
    const launched = await patch(created.body.id, { start_date: '2021-12-01T10:23' });
    expect(launched.status).toBe(200);
    expect(launched.body.feature_flag.active).toBe(true);
    const linked = await flag(created.body.feature_flag.id);
    expect(linked.body.version).toBe(2);
  });

  it("rewrites a draft's flag variants, and refuses new keys once launched", async () => {
    const created = await post(draft());
    const three = [
      { key: 'control', rollout_percentage: 34 },
      { key: 'a', rollout_percentage: 33 },
      { key: 'b', rollout_percentage: 33 },
    ];
    const res = await patch(created.body.id, { parameters: { feature_flag_variants: three } });
    expect(res.status).toBe(200);
    expect(res.body.feature_flag.filters.multivariate.variants).toEqual(three);
    await patch(created.body.id, { start_date: '2021-12-01T10:23' });
    expectError(
      await patch(created.body.id, { parameters: { feature_flag_variants: [three[0], three[1]] } }),
      "Can't update feature_flag_variants on Experiment",
    );
    expectError(
      await patch(created.body.id, {
        parameters: {
          feature_flag_variants: [
            { key: 'control', rollout_percentage: 50 },
            { key: 'test', rollout_percentage: 25 },
            { key: 'test2', rollout_percentage: 25 },
          ],
        },
      }),
      "Can't update feature_flag_variants on Experiment",
    );
    const reweighted = three.map((v, i) => ({ ...v, rollout_percentage: [50, 25, 25][i] }));
    const ok = await patch(created.body.id, { parameters: { feature_flag_variants: reweighted } });
    expect(ok.status).toBe(200);
    expect(ok.body.parameters.feature_flag_variants).toEqual(reweighted);
    expect(ok.body.feature_flag.filters.multivariate.variants).toEqual(three);
  });

  it('refuses an end date before the stored start date', async () => {
    const created = await post(draft({ start_date: '2024-01-02T00:00' }));
    expectError(await patch(created.body.id, { end_date: '2024-01-01T00:00' }), 'End date must be after start date');
  });

  it("stops, archives and resets without touching the flag's active state", async () => {
    const created = await post(draft({ start_date: '2021-12-01T10:23' }));
    for (const body of [{ end_date: '2021-12-20T00:00' }, { archived: true }, { start_date: null, end_date: null, archived: false }]) {
      const res = await patch(created.body.id, body);
      expect(res.status).toBe(200);
      expect(res.body.feature_flag.active).toBe(true);
    }
  });
});

describe('deleting, listing, and the linked flag', () => {
  it('hard-deletes the experiment and soft-deletes its flag; the key can be used again', async () => {
    const created = await post(draft({ feature_flag_key: 'recycled-key' }));
    const res = await app.request(`${base}/experiments/${created.body.id}`, { method: 'DELETE', key: world.owner.key });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await get(created.body.id)).status).toBe(404);
    expect((await flag(created.body.feature_flag.id)).body.deleted).toBe(true);
    const again = await post(draft({ feature_flag_key: 'recycled-key' }));
    expect(again.status).toBe(201);
    expect((await flag(created.body.feature_flag.id)).status).toBe(404);
  });

  it('never links a new experiment to the flag a concurrent delete of the last one soft-deletes', async () => {
    for (let round = 0; round < 15; round++) {
      const key = uniqueKey();
      const first = await post(draft({ feature_flag_key: key }));
      expect(first.status).toBe(201);
      const [deleted, second] = await Promise.all([
        app.request(`${base}/experiments/${first.body.id}/`, { method: 'DELETE', key: world.owner.key }),
        post(draft({ feature_flag_key: key })),
      ]);
      expect([deleted.status, second.status]).toEqual([204, 201]);
      // Either order is a serial one: the delete keeps the flag for the new experiment, or the create makes a new flag.
      expect([round, (await flag(second.body.feature_flag.id)).body.deleted]).toEqual([round, false]);
    }
  });

  it('keeps the experiment when its flag is soft-deleted, and protects the key while used ', async () => {
    const created = await post(draft({ feature_flag_key: 'kept-flag' }));
    const flagId = created.body.feature_flag.id;
    expect(
      (await app.request(`${base}/feature_flags/${flagId}`, { method: 'PATCH', key: world.owner.key, body: { deleted: true } })).status,
    ).toBe(200);
    const read = await get(created.body.id);
    expect(read.status).toBe(200);
    expect(read.body.feature_flag.deleted).toBe(true);
    const reuse = await app.request(`${base}/feature_flags`, { method: 'POST', key: world.owner.key, body: { key: 'kept-flag' } });
    expectError(
      reuse,
      'Feature flag with this key already exists and is used in an experiment. Please delete the experiment before deleting the flag.',
      null,
      'invalid_input',
    );
    expect((await flag(flagId)).status).toBe(200);
  });

  it('lists newest first with filters, and flags show their experiments', async () => {
    const other = await app.factories.world();
    const list = (query = '') => app.request(`/api/projects/${other.project.id}/experiments${query}`, { key: other.owner.key });
    const create = (body: Record<string, unknown>) =>
      app.request(`/api/projects/${other.project.id}/experiments`, { method: 'POST', key: other.owner.key, body: { ...draft(), ...body } });
    const draftOne = await create({ name: 'Draft pricing' });
    const running = await create({ name: 'Running checkout', start_date: '2021-12-01T10:23' });
    const complete = await create({
      name: 'Complete onboarding',
      start_date: '2021-12-01T10:23',
      end_date: '2021-12-05T10:23',
      archived: true,
    });
    const all = await list();
    expect(all.body.count).toBe(3);
    expect(all.body.results.map((e: { id: number }) => e.id)).toEqual([complete.body.id, running.body.id, draftOne.body.id]);
    const ids = async (query: string) => (await list(query)).body.results.map((e: { id: number }) => e.id);
    expect(await ids('?status=draft')).toEqual([draftOne.body.id]);
    expect(await ids('?status=running')).toEqual([running.body.id]);
    expect(await ids('?status=complete')).toEqual([complete.body.id]);
    expect(await ids('?status=all')).toHaveLength(3);
    expect(await ids('?archived=TRUE')).toEqual([complete.body.id]);
    expect(await ids('?archived=false')).toEqual([running.body.id, draftOne.body.id]);
    expect(await ids('?search=CHECKOUT')).toEqual([running.body.id]);
    expect(await ids(`?created_by_id=${other.owner.user.id}`)).toHaveLength(3);
    expect(await ids('?status=bogus&archived=nah')).toHaveLength(3);
    const flags = await app.request(`/api/projects/${other.project.id}/feature_flags?type=experiment`, { key: other.owner.key });
    expect(flags.body.count).toBe(3);
    expect(flags.body.results.map((f: { experiment_set: number[] }) => f.experiment_set).sort()).toEqual(
      [[complete.body.id], [draftOne.body.id], [running.body.id]].sort(),
    );
    const refused = await app.request(`/api/projects/${other.project.id}/feature_flags/${running.body.feature_flag.id}`, {
      method: 'DELETE',
      key: other.owner.key,
    });
    expect(refused.status).toBe(405);
    expect(refused.text).toBe('');
  });
});

describe('access', () => {
  it('hides other projects, needs a key and the experiment scopes', async () => {
    const created = await post(draft());
    const stranger = await app.factories.world();
    expect(
      (await app.request(`/api/projects/${stranger.project.id}/experiments/${created.body.id}`, { key: stranger.owner.key })).status,
    ).toBe(404);
    expect((await app.request(`${base}/experiments/`)).status).toBe(401);
    const reader = await app.factories.member(world.organization, 'member', { scopes: ['experiment:read'] });
    expect((await app.request(`${base}/experiments/`, { key: reader.key })).status).toBe(200);
    const refused = await post(draft(), reader.key);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe("API key missing required scope 'experiment:write'");
    const flagOnly = await app.factories.member(world.organization, 'member', { scopes: ['feature_flag:write'] });
    expect((await post(draft(), flagOnly.key)).status).toBe(403);
    const writer = await app.factories.member(world.organization, 'member', { scopes: ['experiment:write'] });
    expect((await post(draft(), writer.key)).status).toBe(201);
  });

  it('refuses to launch with a reused flag the caller may not edit', async () => {
    const admin = world.owner;
    await app.request(`/api/organizations/${world.organization.id}/resource_access/`, {
      method: 'POST',
      key: admin.key,
      body: { resource: 'feature flags', access_level: 21 },
    });
    try {
      const existing = await app.request(`${base}/feature_flags/`, {
        method: 'POST',
        key: admin.key,
        body: {
          key: 'guarded-flag',
          active: false,
          filters: {
            groups: [{ rollout_percentage: 100 }],
            multivariate: {
              variants: [
                { key: 'control', rollout_percentage: 50 },
                { key: 'test', rollout_percentage: 50 },
              ],
            },
          },
        },
      });
      const member = await app.factories.member(world.organization, 'member');
      const res = await post(draft({ feature_flag_key: 'guarded-flag', start_date: '2021-12-01T10:23' }), member.key);
      expect(res.status).toBe(403);
      expect(res.body.detail).toBe("You don't have edit permissions for this feature flag.");
      expect((await flag(existing.body.id)).body).toMatchObject({ active: false, version: 1, experiment_set: [] });
      const asDraft = await post(draft({ feature_flag_key: 'guarded-flag' }), member.key);
      expect(asDraft.status).toBe(201);
    } finally {
      const records = await app.request(`/api/organizations/${world.organization.id}/resource_access/`, { key: admin.key });
      for (const record of records.body.results) {
        await app.request(`/api/organizations/${world.organization.id}/resource_access/${record.id}/`, {
          method: 'DELETE',
          key: admin.key,
        });
      }
    }
  });
});

describe('bad input never answers 500', () => {
  it.each([
    ['a list body', [1], 'Invalid data. Expected a dictionary, but got list.'],
    ['a string body', '"x"', 'Invalid data. Expected a dictionary, but got str.'],
  ])('refuses %s', async (_, body, detail) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe(detail);
  });

  it('answers 404 for bad ids and 400 for malformed JSON', async () => {
    for (const id of ['abc', '0', '99999999999']) {
      expect((await app.request(`${base}/experiments/${id}`, { key: world.owner.key })).status).toBe(404);
      expect((await app.request(`${base}/experiments/${id}`, { method: 'PATCH', key: world.owner.key, body: {} })).status).toBe(404);
      expect((await app.request(`${base}/experiments/${id}`, { method: 'DELETE', key: world.owner.key })).status).toBe(404);
    }
    const malformed = await app.request(`${base}/experiments`, { method: 'POST', key: world.owner.key, body: '{bad' });
    expect(malformed.body.code).toBe('parse_error');
    for (const field of [
      'name',
      'description',
      'start_date',
      'end_date',
      'feature_flag_key',
      'parameters',
      'secondary_metrics',
      'filters',
      'archived',
    ]) {
      for (const value of [{ nested: true }, [1, 2], 12.5, true]) {
        const res = await post(draft({ [field]: value }));
        expect({ field, value, status: res.status < 500 }).toEqual({ field, value, status: true });
      }
    }
  });
});

describe('one transaction', () => {
  beforeAll(async () => {
    await app.factories.sql(`
      create or replace function refuse_doomed_experiment() returns trigger language plpgsql as $$
      begin
        if new.name = 'doomed experiment' then raise exception 'forced failure'; end if;
        return new;
      end $$`);
    await app.factories.sql(
      'create trigger refuse_doomed before insert on experiment for each row execute function refuse_doomed_experiment()',
    );
  });
  afterAll(async () => {
    await app.factories.sql('drop trigger if exists refuse_doomed on experiment');
    await app.factories.sql('drop function if exists refuse_doomed_experiment()');
  });

  it('leaves no new flag behind when the experiment insert fails', async () => {
    const res = await post(draft({ name: 'doomed experiment', feature_flag_key: 'doomed-flag' }));
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ type: 'server_error', code: 'error', detail: 'A server error occurred.', attr: null });
    expect(await app.factories.sql('select id from feature_flag where key = ?', ['doomed-flag'])).toEqual([]);
  });

  it("rolls back a reused flag's activation when the experiment insert fails", async () => {
    const existing = await app.request(`${base}/feature_flags/`, {
      method: 'POST',
      key: world.owner.key,
      body: {
        key: 'dormant-flag',
        active: false,
        filters: {
          groups: [{ rollout_percentage: 100 }],
          multivariate: {
            variants: [
              { key: 'control', rollout_percentage: 50 },
              { key: 'test', rollout_percentage: 50 },
            ],
          },
        },
      },
    });
    const res = await post(draft({ name: 'doomed experiment', feature_flag_key: 'dormant-flag', start_date: '2021-12-01T10:23' }));
    expect(res.status).toBe(500);
    const after = await flag(existing.body.id);
    expect(after.body).toMatchObject({ active: false, version: 1, experiment_set: [] });
  });
});

describe('listing 100 experiments', () => {
  it('costs the same number of statements as listing 10', async () => {
    const crowd = await app.factories.world();
    const others = await Promise.all([0, 1, 2].map(() => app.factories.member(crowd.organization, 'member')));
    const seed = async (count: number, offset: number) => {
      for (let i = 0; i < count; i++) {
        const author = i % 4 === 3 ? crowd.owner : others[i % 3];
        const res = await app.request(`/api/projects/${crowd.project.id}/experiments`, {
          method: 'POST',
          key: author.key,
          body: { name: `E${offset + i}`, feature_flag_key: `crowd-${offset + i}`, filters: F },
        });
        expect(res.status).toBe(201);
      }
    };
    await seed(10, 0);
    const list = (limit: number) => app.request(`/api/projects/${crowd.project.id}/experiments?limit=${limit}`, { key: crowd.owner.key });
    await list(10);
    const ten = await app.countQueries(() => list(10));
    await seed(90, 10);
    const hundred = await app.countQueries(() => list(100));
    expect((await list(100)).body.results).toHaveLength(100);
    expect(hundred).toBe(ten);
    expect(hundred).toBeLessThanOrEqual(6);
  }, 120_000);
});
