import { capture } from '../ingestion/capture-helpers';
import type { World } from '../helpers/factories';
import { startTestApp, type TestApp } from '../helpers/test-app';

/** docs/rest-api.md §4.4 and §4.6 over stored persons and groups. */

let app: TestApp;
let world: World;
let flags: string;

const VARIANTS = { variants: ['first', 'second', 'third'].map((v, i) => ({ key: `${v}-variant`, rollout_percentage: [50, 25, 25][i] })) };

const create = async (body: Record<string, unknown>) => {
  const res = await app.request(flags, { method: 'POST', key: world.owner.key, body });
  expect(res.status).toBe(201);
  return res.body;
};
const reasons = (query: string) => app.request(`${flags}/evaluation_reasons${query}`, { key: world.owner.key });
const send = async (...batch: Array<Record<string, unknown>>) => {
  const res = await capture(app, '/batch/', { api_key: world.project.apiToken, batch });
  expect(res.status).toBe(200);
};

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
  flags = `/api/projects/${world.project.id}/feature_flags`;
});
afterAll(() => app.close());

describe('evaluation_reasons', () => {
  beforeAll(async () => {
    await create({ key: 'alpha-feature', filters: { groups: [{ properties: [], rollout_percentage: 20 }], multivariate: VARIANTS } });
    await create({
      key: 'beta-feature',
      filters: { groups: [{ properties: [{ key: 'beta-property', value: 'beta-value', type: 'person' }], rollout_percentage: 81 }] },
    });
    await create({ key: 'inactive-flag', active: false });
    await create({
      key: 'group-feature',
      filters: { aggregation_group_type_index: 0, groups: [{ properties: [], rollout_percentage: 61 }] },
    });
    const deleted = await create({ key: 'gone' });
    expect((await app.request(`${flags}/${deleted.id}`, { method: 'PATCH', key: world.owner.key, body: { deleted: true } })).status).toBe(
      200,
    );
    await create({ key: 'red_button' });
  });

  it('answers every non-deleted flag for an unknown distinct id, active ones first', async () => {
    const res = await reasons('?distinct_id=test');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['alpha-feature', 'beta-feature', 'group-feature', 'red_button', 'inactive-flag']);
    expect(res.body).toEqual({
      'alpha-feature': { value: false, evaluation: { reason: 'out_of_rollout_bound', condition_index: 0 } },
      'beta-feature': { value: false, evaluation: { reason: 'no_condition_match', condition_index: 0 } },
      'group-feature': { value: false, evaluation: { reason: 'no_group_type', condition_index: null } },
      red_button: { value: true, evaluation: { reason: 'condition_match', condition_index: 0 } },
      'inactive-flag': { value: false, evaluation: { reason: 'disabled', condition_index: null } },
    });
  });

  it('evaluates a group flag once its group type exists and its group is passed', async () => {
    const passed = `?distinct_id=org1234&groups=${encodeURIComponent('{"organization":"org1234"}')}`;
    expect((await reasons(passed)).body['group-feature'].evaluation.reason).toBe('no_group_type');
    await send({ event: 'signed up', distinct_id: 'someone', properties: { $groups: { organization: 'org0', company: 'c0' } } });
    expect((await reasons('?distinct_id=test')).body['group-feature']).toEqual({
      value: false,
      evaluation: { reason: 'no_group_type', condition_index: null },
    });
    const res = await reasons(passed);
    expect(res.body['group-feature']).toEqual({ value: true, evaluation: { reason: 'condition_match', condition_index: 0 } });
  });

  it('reads the stored person behind any of its distinct ids, as ingested a moment ago (41; ingestion 18)', async () => {
    await send({ event: '$identify', distinct_id: '2', properties: { $anon_distinct_id: '1', $set: { 'beta-property': 'beta-value' } } });
    for (const id of ['1', '2']) {
      const res = await reasons(`?distinct_id=${id}`);
      expect(res.body['beta-feature']).toEqual({ value: true, evaluation: { reason: 'condition_match', condition_index: 0 } });
    }
    expect((await reasons('?distinct_id=2')).body['alpha-feature']).toEqual({
      value: 'first-variant',
      evaluation: { reason: 'condition_match', condition_index: 0 },
    });
    await send({ event: 'x', distinct_id: '1', properties: { $set: { 'beta-property': 'other' } } });
    expect((await reasons('?distinct_id=2')).body['beta-feature'].evaluation.reason).toBe('no_condition_match');
  });

  it('refuses a missing distinct_id or bad groups with 400 (docs/evaluation.md §9)', async () => {
    const invalid = (detail: string) => ({ type: 'validation_error', code: 'invalid_input', detail, attr: null });
    for (const query of ['', '?distinct_id=', '?groups={}']) {
      const res = await reasons(query);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalid('distinct_id is required'));
    }
    expect((await reasons('?distinct_id=a&groups={bad')).body).toEqual(invalid('Invalid JSON in groups parameter'));
    for (const groups of ['[1]', '"x"', 'null', '{"organization":true}', '{"organization":{"a":1}}']) {
      const res = await reasons(`?distinct_id=a&groups=${encodeURIComponent(groups)}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalid('groups must be a JSON object'));
    }
  });

  it('stringifies number group keys and ignores names that are not group types', async () => {
    const asNumber = await reasons(`?distinct_id=x&groups=${encodeURIComponent('{"organization":1234,"nope":"y"}')}`);
    const asText = await reasons(`?distinct_id=x&groups=${encodeURIComponent('{"organization":"1234"}')}`);
    expect(asNumber.status).toBe(200);
    expect(asNumber.body).toEqual(asText.body);
    expect(asNumber.body['group-feature'].evaluation.reason).not.toBe('no_group_type');
  });

  it('treats ids PostgreSQL cannot store as unknown instead of failing', async () => {
    const res = await reasons(`?distinct_id=a%00b&groups=${encodeURIComponent('{"organization":"o\\u0000"}')}`);
    expect(res.status).toBe(200);
    expect(res.body['red_button'].value).toBe(true);
  });

  it('needs feature_flag:read', async () => {
    const key = await app.factories.key(world.owner.user, { scopes: ['experiment:read'] });
    const res = await app.request(`${flags}/evaluation_reasons?distinct_id=a`, { key });
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe("API key missing required scope 'feature_flag:read'");
    expect((await app.request(`${flags}/evaluation_reasons?distinct_id=a`)).status).toBe(401);
  });

  it('answers the same over GraphQL', async () => {
    const res = await app.graphql(
      `query ($p: ID!) { featureFlagEvaluations(projectId: $p, distinctId: "2", groups: {organization: "org1234"}) { key value reason conditionIndex } }`,
      { p: String(world.project.id) },
      world.owner.key,
    );
    const rest = (await reasons(`?distinct_id=2&groups=${encodeURIComponent('{"organization":"org1234"}')}`)).body;
    expect(res.body.errors).toBeUndefined();
    expect(
      res.body.data.featureFlagEvaluations.map((e: any) => [
        e.key,
        { value: e.value, evaluation: { reason: e.reason, condition_index: e.conditionIndex } },
      ]),
    ).toEqual(Object.entries(rest));
  });
});

describe('my_flags', () => {
  let project: string;
  let key: string;
  let other: World;

  beforeAll(async () => {
    other = await app.factories.world();
    key = other.owner.key;
    project = `/api/projects/${other.project.id}/feature_flags`;
    await app.orm.em.fork().getConnection().execute(`update app_user set distinct_id = 'distinct_id' where id = ?`, [other.owner.user.id]);
    expect(await mine()).toEqual([]);
    for (const body of [
      { key: 'red_button' },
      { key: 'alpha-feature', filters: { groups: [{ properties: [], rollout_percentage: 20 }], multivariate: VARIANTS } },
    ]) {
      expect((await app.request(project, { method: 'POST', key, body })).status).toBe(201);
    }
  });
  const mine = async (query = '') => {
    const res = await app.request(`${project}/my_flags${query}`, { key });
    expect(res.status).toBe(200);
    return res.body;
  };

  it("evaluates every flag for the caller's own distinct id, newest first, as minimal flags", async () => {
    const body = await mine();
    expect(body.map((f: any) => [f.feature_flag.key, f.value])).toEqual([
      ['alpha-feature', 'third-variant'],
      ['red_button', true],
    ]);
    expect(Object.keys(body[0].feature_flag)).toEqual([
      'id',
      'team_id',
      'name',
      'key',
      'filters',
      'deleted',
      'active',
      'ensure_experience_continuity',
    ]);
    expect(body[0].feature_flag.filters).toEqual({ groups: [{ properties: [], rollout_percentage: 20 }], multivariate: VARIANTS });
  });

  it('takes groups, and an inactive flag is false', async () => {
    const created = await app.request(project, {
      method: 'POST',
      key,
      body: { key: 'groups-flag', filters: { aggregation_group_type_index: 0, groups: [{ properties: [], rollout_percentage: 100 }] } },
    });
    const value = async (query = '') => (await mine(query)).find((f: any) => f.feature_flag.key === 'groups-flag').value;
    expect(await value()).toBe(false);
    await capture(app, '/batch/', {
      api_key: other.project.apiToken,
      batch: [{ event: 'x', distinct_id: 'z', properties: { $groups: { organization: '7' } } }],
    });
    expect(await value(`?groups=${encodeURIComponent('{"organization":"7"}')}`)).toBe(true);
    await app.request(`${project}/${created.body.id}`, { method: 'PATCH', key, body: { active: false } });
    expect(await value(`?groups=${encodeURIComponent('{"organization":"7"}')}`)).toBe(false);
  });
});

describe('statement counts', () => {
  it('evaluate any number of flags in a constant number of statements', async () => {
    const other = await app.factories.world();
    const path = `/api/projects/${other.project.id}/feature_flags`;
    const groups = `groups=${encodeURIComponent('{"organization":"o"}')}`;
    await capture(app, '/batch/', {
      api_key: other.project.apiToken,
      batch: [{ event: 'x', distinct_id: 'p', properties: { $groups: { organization: 'o' } } }],
    });
    // Local evaluation's access and definitions are cached, so only its first request after a change
    // reads flags and group types.
    const counted = async (path: string) => await app.sqlDuring(() => app.request(path, { key: other.owner.key }));
    const readsDefinitions = (sql: string) => /from feature_flag |from group_type_mapping |from cohort /.test(sql);
    const counts = async () => ({
      reasons: (await counted(`${path}/evaluation_reasons?distinct_id=p&${groups}`)).length,
      mine: (await counted(`${path}/my_flags?${groups}`)).length,
      local: (await counted(`${path}/local_evaluation`)).filter(readsDefinitions).length,
      localAgain: (await counted(`${path}/local_evaluation`)).filter(readsDefinitions).length,
    });
    const addFlags = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const body = {
          key: `f-${n}-${i}`,
          filters: { aggregation_group_type_index: i % 2 === 0 ? 0 : null, groups: [{ properties: [], rollout_percentage: 50 }] },
        };
        expect((await app.request(path, { method: 'POST', key: other.owner.key, body })).status).toBe(201);
      }
    };
    await addFlags(2);
    const few = await counts();
    await addFlags(10);
    const many = await counts();
    expect(many).toEqual(few);
    // flags, group types, person (with its static cohorts and the project's cohorts), groups (the project
    // access is remembered from the creates just before: src/app-caches.ts); local evaluation reads
    // flags, group types and cohorts once per change.
    expect(few).toEqual({ reasons: 4, mine: 4, local: 3, localAgain: 0 });
  });
});
