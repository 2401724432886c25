import type { World } from '../helpers/factories';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * Regressions of the reliability issue: input PostgreSQL cannot store reached the database and
 * answered 500 (GraphQL: INTERNAL_SERVER_ERROR). jsonb holds no NUL (`\u0000`) and refuses a lone
 * surrogate (`"\ud800"`, half of a UTF-16 pair); a person id past JavaScript's safe integers was
 * rounded into bigint overflow. Now: 400 `null_characters_not_allowed` /
 * `surrogate_characters_not_allowed` naming the field, and 404 for the id.
 */
let app: TestApp;
let world: World;
let flags: string;
let experiments: string;
let counter = 0;

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
  flags = `/api/projects/${world.project.id}/feature_flags/`;
  experiments = `/api/projects/${world.project.id}/experiments/`;
});
afterAll(() => app.close());

const LONE = '\ud800';
const surrogate = (attr: string, codeUnit = 'D800') => ({
  type: 'validation_error',
  code: 'surrogate_characters_not_allowed',
  detail: `Surrogate characters are not allowed: U+${codeUnit}.`,
  attr,
});
const nul = (attr: string) => ({
  type: 'validation_error',
  code: 'null_characters_not_allowed',
  detail: 'Null characters are not allowed.',
  attr,
});
const person = (key: string, value: unknown) => ({ key, value, operator: 'exact', type: 'person' });
const post = (path: string, body: unknown) => app.request(path, { method: 'POST', key: world.owner.key, body });

describe('feature flags', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['rollback_conditions', { rollback_conditions: [{ threshold: LONE }] }, 'rollback_conditions'],
    ['filters.payloads', { filters: { groups: [{ rollout_percentage: 100 }], payloads: { true: `{"a":"${LONE}"}` } } }, 'filters'],
    ['a property key', { filters: { groups: [{ properties: [person(`k${LONE}`, 'v')], rollout_percentage: 100 }] } }, 'filters'],
    ['a property value', { filters: { groups: [{ properties: [person('email', `v${LONE}`)], rollout_percentage: 100 }] } }, 'filters'],
    ['an unknown filter key', { filters: { groups: [], [`extra${LONE}`]: 1 } }, 'filters'],
    ['a filter value (a low surrogate)', { filters: { groups: [], extra: 'x\udc00' } }, 'filters'],
  ];

  it.each(cases)('regression: a lone surrogate in %s answered 500', async (label, body, attr) => {
    const res = await post(flags, { key: `surrogate-${++counter}`, ...body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(surrogate(attr, label.includes('low surrogate') ? 'DC00' : 'D800'));
  });

  it('refuses one in text fields as DRF does, keeps surrogate pairs, and does the same over GraphQL', async () => {
    expect((await post(flags, { key: `name-${++counter}`, name: `a${LONE}b` })).body).toEqual(surrogate('name'));
    expect((await post(flags, { key: `tags-${++counter}`, tags: [LONE] })).body).toEqual(surrogate('tags'));
    const paired = await post(flags, { key: `paired-${++counter}`, name: '😀', rollback_conditions: { '😀': '😀' } });
    expect(paired.status).toBe(201);
    expect(paired.body).toMatchObject({ name: '😀', rollback_conditions: { '😀': '😀' } });
    const graphql = await app.graphql(
      'mutation($p: ID!, $input: FeatureFlagCreateInput!) { createFeatureFlag(projectId: $p, input: $input) { id } }',
      { p: String(world.project.id), input: { key: `gql-${++counter}`, rollbackConditions: { [LONE]: 1 } } },
      world.owner.key,
    );
    expect(graphql.status).toBe(200);
    expect(graphql.body.errors![0]).toMatchObject({
      message: 'Surrogate characters are not allowed: U+D800.',
      extensions: {
        code: 'BAD_USER_INPUT',
        type: 'validation_error',
        reason: 'surrogate_characters_not_allowed',
        attr: 'rollback_conditions',
      },
    });
  });

  it('refuses an update the same way and leaves the flag as it was', async () => {
    const created = await post(flags, { key: `update-${++counter}`, rollback_conditions: { ok: true } });
    const res = await app.request(`${flags}${created.body.id}/`, {
      method: 'PATCH',
      key: world.owner.key,
      body: { rollback_conditions: { bad: LONE } },
    });
    expect(res.body).toEqual(surrogate('rollback_conditions'));
    expect((await app.request(`${flags}${created.body.id}/`, { key: world.owner.key })).body.rollback_conditions).toEqual({ ok: true });
  });
});

describe('experiments', () => {
  const F = { events: [{ order: 0, id: '$pageview' }], properties: [] };
  const draft = (overrides: Record<string, unknown>) => ({
    name: 'Unstorable',
    feature_flag_key: `exp-unstorable-${++counter}`,
    filters: F,
    ...overrides,
  });
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['parameters', { parameters: { note: 'x\u0000' } }, 'parameters'],
    ['filters', { filters: { ...F, extra: { 'a\u0000': 1 } } }, 'filters'],
    ['secondary_metrics', { secondary_metrics: [{ name: '\u0000' }] }, 'secondary_metrics'],
  ];

  it.each(cases)('regression: NUL in %s answered 500', async (_label, overrides, attr) => {
    const res = await post(experiments, draft(overrides));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(nul(attr));
  });

  it.each(
    cases.map(([label, overrides, attr]) => [label, JSON.parse(JSON.stringify(overrides).replace(/\\u0000/g, '\\ud800')), attr] as const),
  )('regression: a lone surrogate in %s answered 500', async (_label, overrides, attr) => {
    const res = await post(experiments, draft(overrides));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(surrogate(attr));
  });

  it('refuses them on update and in variant definitions, and nothing is stored', async () => {
    const created = await post(experiments, draft({}));
    expect(created.status).toBe(201);
    const path = `${experiments}${created.body.id}/`;
    for (const body of [{ parameters: { x: LONE } }, { secondary_metrics: ['\u0000'] }, { filters: { ...F, [LONE]: 1 } }]) {
      const res = await app.request(path, { method: 'PATCH', key: world.owner.key, body });
      expect(res.status).toBe(400);
    }
    const variants = [
      { key: 'control', name: `c${LONE}`, rollout_percentage: 50 },
      { key: 'test', rollout_percentage: 50 },
    ];
    expect((await post(experiments, draft({ parameters: { feature_flag_variants: variants } }))).body).toEqual(surrogate('parameters'));
    const stored = await app.request(path, { key: world.owner.key });
    expect(stored.body).toMatchObject({ parameters: {}, secondary_metrics: [], filters: F });
  });
});

describe('person ids', () => {
  const get = async (id: string) => {
    const rest = await app.request(`/api/projects/${world.project.id}/persons/${id}/`, { key: world.owner.key });
    const graphql = await app.graphql(
      'query($p: ID!, $id: String!) { person(projectId: $p, id: $id) { id } }',
      { p: String(world.project.id), id },
      world.owner.key,
    );
    return { rest: rest.status, graphql: graphql.body.errors?.[0]?.extensions?.code };
  };

  it("regression: GET persons/9223372036854775807 (bigint's largest, rounded up past it by Number) answered 500", async () => {
    expect(await get('9223372036854775807')).toEqual({ rest: 404, graphql: 'NOT_FOUND' });
  });

  it.each(['9223372036854775808', '9007199254740993', '99999999999999999999'])('answers 404 for %s, past the safe integers', async (id) => {
    expect(await get(id)).toEqual({ rest: 404, graphql: 'NOT_FOUND' });
  });
});
