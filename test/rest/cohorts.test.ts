import type { World } from '../helpers/factories';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { capture } from '../ingestion/capture-helpers';

/** The cohort resource over REST (docs/cohorts.md) and the flag-save checks that name cohorts (docs/rest-api.md V4b, V4c). */

let app: TestApp;
let world: World;
let base: string;

const post = (path: string, body: unknown, key = world.owner.key) => app.request(`${base}${path}`, { method: 'POST', key, body });
const patch = (path: string, body: unknown, key = world.owner.key) => app.request(`${base}${path}`, { method: 'PATCH', key, body });
const get = (path: string, key = world.owner.key) => app.request(`${base}${path}`, { key });
const invalid = (detail: string, attr: string | null, code = 'invalid_input') => ({ type: 'validation_error', code, detail, attr });
const ref = (value: unknown) => ({ properties: { type: 'AND', values: [{ key: 'id', type: 'cohort', value }] } });
const plan = (value: string) => ({ type: 'AND', values: [{ key: 'plan', type: 'person', value, operator: 'exact' }] });

async function cohort(body: Record<string, unknown>): Promise<{ id: number } & Record<string, unknown>> {
  const res = await post('/cohorts/', body);
  expect({ status: res.status, body: res.status === 201 ? null : res.body }).toEqual({ status: 201, body: null });
  return res.body;
}

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
  base = `/api/projects/${world.project.id}`;
  const batch = [
    { event: 'seen', distinct_id: 'alice', properties: { $set: { plan: 'pro' } } },
    { event: 'seen', distinct_id: 'bob', properties: { $set: { plan: 'free' } } },
    { event: 'seen', distinct_id: 'carol', properties: { $set: { plan: 'pro' } } },
    { event: '$identify', distinct_id: 'carol', properties: { $anon_distinct_id: 'carol-phone' } },
  ];
  expect((await capture(app, '/batch/', { api_key: world.project.apiToken, batch })).status).toBe(200);
});
afterAll(() => app.close());

describe('the resource', () => {
  it('creates, retrieves, lists, updates and soft-deletes a dynamic cohort, counting its persons', async () => {
    const created = await cohort({ name: 'Pro users', filters: { properties: plan('pro') } });
    expect(created).toMatchObject({
      name: 'Pro users',
      description: '',
      filters: { properties: plan('pro') },
      is_static: false,
      deleted: false,
      count: 2,
      created_by: { email: world.owner.user.email },
    });
    expect(Object.keys(created).sort()).toEqual([
      'count',
      'created_at',
      'created_by',
      'deleted',
      'description',
      'filters',
      'id',
      'is_static',
      'name',
    ]);
    expect((await get(`/cohorts/${created.id}`)).body).toEqual(created);

    const renamed = await patch(`/cohorts/${created.id}/`, { name: 'Free users', description: 'd', filters: { properties: plan('free') } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Free users', description: 'd', count: 1 });

    const list = await get('/cohorts/');
    expect(list.body.results.map((c: { id: number }) => c.id)).toContain(created.id);

    const deleted = await patch(`/cohorts/${created.id}`, { deleted: true });
    expect(deleted.body.deleted).toBe(true);
    expect((await get('/cohorts')).body.results.map((c: { id: number }) => c.id)).not.toContain(created.id);
    expect((await get(`/cohorts/${created.id}`)).body.deleted).toBe(true);
    expect((await patch(`/cohorts/${created.id}`, { deleted: false })).body.deleted).toBe(false);
  });

  it('lists non-deleted cohorts newest first, paginated', async () => {
    const other = await app.factories.world();
    const path = `/api/projects/${other.project.id}/cohorts`;
    const ids: number[] = [];
    for (const name of ['a', 'b', 'c']) {
      ids.push((await app.request(path, { method: 'POST', key: other.owner.key, body: { name, is_static: true } })).body.id);
    }
    const page = await app.request(`${path}?limit=2`, { key: other.owner.key });
    expect(page.body).toMatchObject({ count: 3, previous: null });
    expect(page.body.results.map((c: { id: number }) => c.id)).toEqual([ids[2], ids[1]]);
    expect(page.body.next).toContain('offset=2');
  });

  it('refuses DELETE with 405 and an empty body, and 404s unknown and foreign ids', async () => {
    const created = await cohort({ name: 'static', is_static: true });
    const res = await app.request(`${base}/cohorts/${created.id}/`, { method: 'DELETE', key: world.owner.key });
    expect(res.status).toBe(405);
    expect(res.text).toBe('');
    expect((await get('/cohorts/999999')).status).toBe(404);
    const other = await app.factories.world();
    const foreign = await app.request(`/api/projects/${other.project.id}/cohorts/`, {
      method: 'POST',
      key: other.owner.key,
      body: { name: 'x', is_static: true },
    });
    expect((await get(`/cohorts/${foreign.body.id}`)).status).toBe(404);
    expect((await patch(`/cohorts/${foreign.body.id}`, { name: 'y' })).status).toBe(404);
  });

  it('adds static members by distinct id: the whole person, unknown ids skipped, repeats a no-op', async () => {
    const created = await cohort({ name: 'Beta testers', is_static: true, filters: { properties: plan('pro') } });
    expect(created).toMatchObject({ is_static: true, filters: null, count: 0 });
    const added = await post(`/cohorts/${created.id}/persons/`, { distinct_ids: ['carol-phone', 'nobody', 'bob'] });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ id: created.id, count: 2 });
    expect((await post(`/cohorts/${created.id}/persons`, { distinct_ids: ['carol', 'bob'] })).body.count).toBe(2);
  });

  it('answers the membership errors', async () => {
    const dynamic = await cohort({ name: 'dyn', filters: { properties: plan('pro') } });
    const statics = await cohort({ name: 'stat', is_static: true });
    for (const body of [
      {},
      { distinct_ids: [] },
      { distinct_ids: 'alice' },
      { distinct_ids: [1] },
      { distinct_ids: Array(10_001).fill('a') },
    ]) {
      const res = await post(`/cohorts/${statics.id}/persons/`, body);
      expect(res.body).toEqual(invalid('distinct_ids must be a non-empty list of strings.', 'distinct_ids'));
    }
    expect((await post(`/cohorts/${dynamic.id}/persons/`, { distinct_ids: ['alice'] })).body).toEqual(
      invalid('Persons can only be added to a static cohort.', null),
    );
    await patch(`/cohorts/${statics.id}`, { deleted: true });
    expect((await post(`/cohorts/${statics.id}/persons/`, { distinct_ids: ['alice'] })).body).toEqual(
      invalid('Cannot add persons to a deleted cohort.', null),
    );
  });

  it('needs the cohort scopes', async () => {
    const reader = await app.factories.member(world.organization, 'member', { scopes: ['cohort:read'] });
    expect((await get('/cohorts', reader.key)).status).toBe(200);
    expect((await post('/cohorts', { name: 'x', is_static: true }, reader.key)).status).toBe(403);
    const flagsOnly = await app.factories.member(world.organization, 'member', { scopes: ['feature_flag:read'] });
    expect((await get('/cohorts', flagsOnly.key)).status).toBe(403);
  });
});

describe('validation', () => {
  it('answers field errors', async () => {
    expect((await post('/cohorts', { is_static: true })).body).toEqual(invalid('This field is required.', 'name', 'required'));
    expect((await post('/cohorts', { name: 'x'.repeat(401), is_static: true })).body.code).toBe('max_length');
    expect((await post('/cohorts', { name: 'no filters' })).body).toEqual(invalid('This field is required.', 'filters', 'required'));
    const statics = await cohort({ name: 'fixed', is_static: true });
    expect((await patch(`/cohorts/${statics.id}`, { is_static: false })).body).toEqual(
      invalid('is_static cannot be changed.', 'is_static'),
    );
    expect((await patch(`/cohorts/${statics.id}`, { is_static: true })).status).toBe(200);
  });

  it.each([
    ['null', null],
    ['a list', []],
    ['no properties', {}],
    ['a bad group type', { properties: { type: 'XOR', values: [] } }],
    ['values not a list', { properties: { type: 'AND', values: {} } }],
    ['groups mixed with leaves', { properties: { type: 'AND', values: [plan('pro'), { key: 'a', type: 'person', value: 1 }] } }],
    ['a leaf of an unknown type', { properties: { type: 'AND', values: [{ key: 'a', type: 'event', value: 1 }] } }],
    ['a person leaf without a key', { properties: { type: 'AND', values: [{ type: 'person', value: 1 }] } }],
    ['a non-boolean negation', { properties: { type: 'AND', values: [{ key: 'a', type: 'person', value: 1, negation: 'yes' }] } }],
  ])('refuses filters with %s', async (_, filters) => {
    expect((await post('/cohorts', { name: 'bad', filters })).body).toEqual(invalid('Invalid cohort filters.', 'filters'));
  });

  it('checks person leaves with the flag operator and value rules', async () => {
    const leaf = (extra: Record<string, unknown>) => ({ properties: { type: 'AND', values: [{ key: 'a', type: 'person', ...extra }] } });
    expect((await post('/cohorts', { name: 'x', filters: leaf({ value: 1, operator: 'nope' }) })).body).toEqual(
      invalid('Invalid operator: nope', 'filters', 'invalid_operator'),
    );
    expect((await post('/cohorts', { name: 'x', filters: leaf({ value: '6hed', operator: 'is_date_before' }) })).body.code).toBe(
      'invalid_date',
    );
  });

  it('refuses references to missing, deleted and foreign cohorts, and cycles', async () => {
    expect((await post('/cohorts', { name: 'x', filters: ref(987654) })).body).toEqual(
      invalid('Cohort with id 987654 does not exist', 'filters', 'cohort_does_not_exist'),
    );
    const gone = await cohort({ name: 'gone', is_static: true });
    await patch(`/cohorts/${gone.id}`, { deleted: true });
    expect((await post('/cohorts', { name: 'x', filters: ref(gone.id) })).body.code).toBe('cohort_does_not_exist');
    const other = await app.factories.world();
    const foreign = await app.request(`/api/projects/${other.project.id}/cohorts/`, {
      method: 'POST',
      key: other.owner.key,
      body: { name: 'x', is_static: true },
    });
    expect((await post('/cohorts', { name: 'x', filters: ref(foreign.body.id) })).body.code).toBe('cohort_does_not_exist');

    const a = await cohort({ name: 'a', filters: { properties: plan('pro') } });
    const b = await cohort({ name: 'b', filters: ref(String(a.id)) });
    const cycle = invalid('Cohorts cannot reference themselves, directly or through other cohorts.', 'filters');
    expect((await patch(`/cohorts/${a.id}`, { filters: ref(a.id) })).body).toEqual(cycle);
    expect((await patch(`/cohorts/${a.id}`, { filters: ref(b.id) })).body).toEqual(cycle);
  });

  it('refuses a reference chain deeper than 20 levels, counted through the cohort being saved', async () => {
    const tooDeep = invalid('Cohorts can reference each other at most 20 levels deep.', 'filters');
    const chain = [await cohort({ name: 'chain-0', filters: { properties: plan('pro') } })];
    for (let i = 1; i <= 20; i++) chain.push(await cohort({ name: `chain-${i}`, filters: ref(chain[i - 1].id) }));
    // chain-20 → … → chain-0 is 20 references: one more on top is refused, as is one more below.
    expect((await post('/cohorts', { name: 'chain-21', filters: ref(chain[20].id) })).body).toEqual(tooDeep);
    const bottom = await cohort({ name: 'below', filters: { properties: plan('pro') } });
    expect((await patch(`/cohorts/${chain[0].id}`, { filters: ref(bottom.id) })).body).toEqual(tooDeep);
    // Shortening the chain in the middle makes room again.
    expect((await patch(`/cohorts/${chain[10].id}`, { filters: { properties: plan('pro') } })).status).toBe(200);
    expect((await post('/cohorts', { name: 'chain-21', filters: ref(chain[20].id) })).status).toBe(201);
  });
});

describe('flags naming cohorts', () => {
  const flagWith = (value: unknown, operator?: string) => ({
    key: `flag-${Math.random().toString(36).slice(2, 8)}`,
    filters: { groups: [{ properties: [{ key: 'id', type: 'cohort', value, ...(operator ? { operator } : {}) }] }] },
  });

  it('saves a flag on an existing cohort, and refuses missing, deleted and foreign ones (V4b)', async () => {
    const ok = await cohort({ name: 'ok', filters: { properties: plan('pro') } });
    expect((await post('/feature_flags/', flagWith(ok.id))).status).toBe(201);
    expect((await post('/feature_flags/', flagWith(String(ok.id), 'not_in'))).status).toBe(201);
    expect((await post('/feature_flags/', flagWith(5151))).body).toEqual(
      invalid('Cohort with id 5151 does not exist', 'filters', 'cohort_does_not_exist'),
    );
    const gone = await cohort({ name: 'gone', is_static: true });
    await patch(`/cohorts/${gone.id}`, { deleted: true });
    expect((await post('/feature_flags/', flagWith(gone.id))).body.code).toBe('cohort_does_not_exist');
    const other = await app.factories.world();
    const foreign = await app.request(`/api/projects/${other.project.id}/cohorts/`, {
      method: 'POST',
      key: other.owner.key,
      body: { name: 'x', is_static: true },
    });
    expect((await post('/feature_flags/', flagWith(foreign.body.id))).body.code).toBe('cohort_does_not_exist');
  });

  it('refuses behavioural cohorts, directly or nested, on create and on a PATCH swapping one in (V4c)', async () => {
    const behavioural = await cohort({
      name: 'cohort2',
      filters: {
        properties: { type: 'OR', values: [{ key: '$pageview', type: 'behavioral', value: 'performed_event', event_type: 'events' }] },
      },
    });
    expect(behavioural.count).toBeNull();
    const nesting = await cohort({
      name: 'nests',
      filters: { properties: { type: 'AND', values: [{ key: 'id', type: 'cohort', value: behavioural.id }] } },
    });
    expect(nesting.count).toBeNull();
    const message = invalid(
      "Cohort 'cohort2' with filters on events cannot be used in feature flags.",
      'filters',
      'behavioral_cohort_found',
    );
    expect((await post('/feature_flags/', flagWith(behavioural.id))).body).toEqual(message);
    // Used through other cohorts, the message still names the cohort that holds the event filter.
    expect((await post('/feature_flags/', flagWith(nesting.id))).body).toEqual(message);
    const outer = await cohort({
      name: 'outer',
      filters: { properties: { type: 'OR', values: [{ type: 'AND', values: [{ key: 'id', type: 'cohort', value: nesting.id }] }] } },
    });
    expect((await post('/feature_flags/', flagWith(outer.id))).body).toEqual(message);
    // A cohort with an event filter of its own is named before the ones it references.
    const both = await cohort({
      name: 'both',
      filters: {
        properties: {
          type: 'AND',
          values: [
            { key: 'id', type: 'cohort', value: behavioural.id },
            { key: '$autocapture', type: 'behavioral', value: 'performed_event', event_type: 'events' },
          ],
        },
      },
    });
    expect((await post('/feature_flags/', flagWith(both.id))).body).toEqual({
      ...message,
      detail: "Cohort 'both' with filters on events cannot be used in feature flags.",
    });
    const fine = await cohort({ name: 'fine', is_static: true });
    const flag = await post('/feature_flags/', flagWith(fine.id));
    expect(flag.status).toBe(201);
    expect((await patch(`/feature_flags/${flag.body.id}`, { filters: flagWith(behavioural.id).filters })).body).toEqual(message);
  });

  it('does not look for cycles at flag save; a cycle made in the database evaluates as "not a member" on the way round', async () => {
    // The API refuses cycles when a cohort is saved; this one is made by hand.
    const a = await cohort({ name: 'loop-a', filters: { properties: { type: 'OR', values: [plan('pro')] } } });
    const b = await cohort({
      name: 'loop-b',
      filters: { properties: { type: 'AND', values: [{ key: 'id', type: 'cohort', value: a.id }] } },
    });
    await app.factories.sql(`update cohort set filters = ?::jsonb where id = ?`, [
      JSON.stringify({
        properties: { type: 'OR', values: [plan('pro'), { type: 'AND', values: [{ key: 'id', type: 'cohort', value: b.id }] }] },
      }),
      a.id,
    ]);
    const flag = await post('/feature_flags/', { key: 'on-a-loop', filters: flagWith(b.id).filters });
    expect(flag.status).toBe(201);
    const reasons = async (distinctId: string) => {
      const res = await get(`/feature_flags/evaluation_reasons?distinct_id=${distinctId}`);
      expect(res.status).toBe(200);
      return res.body['on-a-loop'].value;
    };
    expect(await reasons('alice')).toBe(true);
    expect(await reasons('bob')).toBe(false);
    const remote = await app.request('/flags/?v=2', { method: 'POST', body: { token: world.project.apiToken, distinct_id: 'bob' } });
    expect(remote.body).toMatchObject({ flags: { 'on-a-loop': { enabled: false } }, errorsWhileComputingFlags: false });
    expect((await get(`/cohorts/${a.id}/`)).body.count).toBe(2);
    expect((await get(`/cohorts/${b.id}/`)).body.count).toBe(2);
    // Saving one of them again through the API is where the cycle is refused.
    expect((await patch(`/cohorts/${a.id}/`, { filters: (await get(`/cohorts/${a.id}/`)).body.filters })).body).toEqual(
      invalid('Cohorts cannot reference themselves, directly or through other cohorts.', 'filters'),
    );
  });

  it.each(['super_groups', 'holdout_groups'])(
    'regression: a cohort of another organization was accepted in %s; its cohorts are checked as in groups',
    async (list) => {
      const ok = await cohort({ name: `${list} ok`, filters: { properties: plan('pro') } });
      const other = await app.factories.world();
      const foreign = await app.request(`/api/projects/${other.project.id}/cohorts/`, {
        method: 'POST',
        key: other.owner.key,
        body: { name: 'theirs', is_static: true },
      });
      const withList = (value: unknown) => ({
        groups: [{ properties: [], rollout_percentage: 100 }],
        [list]: [{ properties: [{ key: 'id', type: 'cohort', value }], rollout_percentage: 100 }],
      });
      const key = () => `${list}-${Math.random().toString(36).slice(2, 8)}`;
      const missing = (value: number) => invalid(`Cohort with id ${value} does not exist`, 'filters', 'cohort_does_not_exist');
      expect((await post('/feature_flags/', { key: key(), filters: withList(foreign.body.id) })).body).toEqual(missing(foreign.body.id));
      expect((await post('/feature_flags/', { key: key(), filters: withList(987654) })).body).toEqual(missing(987654));
      const flag = await post('/feature_flags/', { key: key(), filters: withList(ok.id) });
      expect(flag.status).toBe(201);
      expect(flag.body.filters[list][0].properties[0].value).toBe(ok.id);
      expect((await patch(`/feature_flags/${flag.body.id}/`, { filters: withList(foreign.body.id) })).body).toEqual(
        missing(foreign.body.id),
      );
      expect((await get(`/feature_flags/${flag.body.id}/`)).body.filters[list][0].properties[0].value).toBe(ok.id);
    },
  );

  it('checks cohorts in blast-radius conditions too', async () => {
    const res = await post('/feature_flags/user_blast_radius', { condition: { properties: [{ key: 'id', type: 'cohort', value: 5151 }] } });
    expect(res.body).toEqual(invalid('Cohort with id 5151 does not exist', null, 'cohort_does_not_exist'));
  });
});
