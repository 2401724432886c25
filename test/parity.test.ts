import { expectRefused, notProvided } from './helpers/graphql-refusal';
import { startTestApp, type ApiResponse, type TestApp } from './helpers/test-app';
import type { World } from './helpers/factories';
import type { Project } from '../src/modules/project/project.entity';

/**
 * One scenario through REST and through GraphQL, compared field by field. The REST calls run in
 * project R, the GraphQL calls in project G of the same organization, by the same user, so the
 * two transports see identical data except ids and creation times.
 */

// ---- The name mapping, written once: REST name (docs/rest-api.md) → GraphQL name. ----
const FLAG_FIELDS = {
  id: 'id',
  name: 'name',
  key: 'key',
  filters: 'filters',
  deleted: 'deleted',
  active: 'active',
  created_by: 'createdBy',
  created_at: 'createdAt',
  is_simple_flag: 'isSimpleFlag',
  rollout_percentage: 'rolloutPercentage',
  ensure_experience_continuity: 'ensureExperienceContinuity',
  experiment_set: 'experimentSet',
  features: null,
  rollback_conditions: 'rollbackConditions',
  performed_rollback: 'performedRollback',
  can_edit: 'canEdit',
  tags: 'tags',
  usage_dashboard: 'usageDashboardId',
  analytics_dashboards: 'analyticsDashboards',
  has_enriched_analytics: 'hasEnrichedAnalytics',
  version: 'version',
  last_called_at: 'lastCalledAt',
} as const;
/** `created_by` is a user object; its names are mapped too (values elsewhere, e.g. inside `filters`, never are). */
const USER_FIELDS = {
  id: 'id',
  uuid: 'uuid',
  distinct_id: 'distinctId',
  first_name: 'firstName',
  email: 'email',
  is_email_verified: 'isEmailVerified',
} as const;
/** Fields only the REST shape carries (null above: PostHog's wire fields with no GraphQL meaning), with the one value they always have. */
const REST_ONLY_FIELDS: Record<string, unknown> = { features: [] };
/** Write-only field (not in the flag shape). */
const INPUT_ONLY_FIELDS = { version: 'version' } as const;

type RestName = keyof typeof FLAG_FIELDS;
const SELECTION = Object.values(FLAG_FIELDS)
  .filter((name) => name !== null)
  .map((name) => (name === 'createdBy' ? `createdBy { ${Object.values(USER_FIELDS).join(' ')} }` : name))
  .join('\n');

const rename = (object: Record<string, unknown>, mapping: Record<string, string | null>) => {
  const out: Record<string, unknown> = {};
  for (const [from, to] of Object.entries(mapping))
    if (to !== null && Object.prototype.hasOwnProperty.call(object, from)) out[to] = object[from];
  const unknown = Object.keys(object).filter((name) => !(name in mapping));
  if (unknown.length) throw new Error(`unmapped fields: ${unknown.join(', ')}`);
  return out;
};
const invert = (mapping: Record<string, string | null>) =>
  Object.fromEntries(Object.entries(mapping).flatMap(([a, b]) => (b === null ? [] : [[b, a]])));

/** A GraphQL flag in REST names and REST's field order (top level, and the nested user). */
function flagToRest(flag: Record<string, unknown>): Record<string, unknown> {
  const renamed = rename(flag, invert(FLAG_FIELDS));
  const out: Record<string, unknown> = {};
  for (const [rest, graphql] of Object.entries(FLAG_FIELDS)) {
    if (graphql === null) out[rest] = REST_ONLY_FIELDS[rest];
    else if (rest in renamed) out[rest] = renamed[rest];
  }
  if (out.created_by) out.created_by = rename(out.created_by as Record<string, unknown>, invert(USER_FIELDS));
  return out;
}
/** A REST body in GraphQL input names. */
const inputToGraphQL = (body: Record<string, unknown>) => rename(body, { ...FLAG_FIELDS, ...INPUT_ONLY_FIELDS });

/** The fields that legitimately differ between the two projects' copies. */
const PER_COPY: RestName[] = ['id', 'created_at', 'usage_dashboard'];
function comparable(flag: Record<string, unknown>) {
  const out = { ...flag };
  for (const name of PER_COPY) delete out[name];
  return out;
}

// ---- The two transports. ----

interface RestError {
  type: string;
  code: string;
  detail: string;
  attr: string | null;
}
const GRAPHQL_CLASS: Record<number, string> = {
  400: 'BAD_USER_INPUT',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
};

/** A GraphQL error as the REST error it mirrors (docs/README.md decision 3), with the HTTP status it stands for. */
function graphqlAsRestError(res: ApiResponse<{ data?: any; errors?: any[] }>): { status: number; body: RestError } {
  expect(res.status).toBe(200);
  expect(res.body.errors).toHaveLength(1);
  const [error] = res.body.errors!;
  const status = Number(Object.entries(GRAPHQL_CLASS).find(([, code]) => code === error.extensions.code)?.[0]);
  return {
    status,
    body: { type: error.extensions.type, code: error.extensions.reason, detail: error.message, attr: error.extensions.attr },
  };
}

let app: TestApp;
let world: World;
let restProject: Project;
let graphqlProject: Project;

const flagsPath = () => `/api/projects/${restProject.id}/feature_flags`;
const gqlProjectId = () => String(graphqlProject.id);

async function viaGraphQL(query: string, variables: Record<string, unknown>, key: string | null = world.owner.key) {
  return app.graphql(query, { projectId: gqlProjectId(), ...variables }, key);
}

const CREATE = `mutation($projectId: ID!, $input: FeatureFlagCreateInput!) { flag: createFeatureFlag(projectId: $projectId, input: $input) { ${SELECTION} } }`;
const UPDATE = `mutation($projectId: ID!, $id: Int!, $input: FeatureFlagUpdateInput!) { flag: updateFeatureFlag(projectId: $projectId, id: $id, input: $input) { ${SELECTION} } }`;
const REPLACE = `mutation($projectId: ID!, $id: Int!, $input: FeatureFlagReplaceInput!) { flag: replaceFeatureFlag(projectId: $projectId, id: $id, input: $input) { ${SELECTION} } }`;
const GET = `query($projectId: ID!, $id: Int!) { flag: featureFlag(projectId: $projectId, id: $id) { ${SELECTION} } }`;
const LIST = `query($projectId: ID!, $limit: Int, $offset: Int, $search: String, $active: Boolean, $type: FeatureFlagType, $createdById: Int, $tags: [String!]) {
  page: featureFlags(projectId: $projectId, limit: $limit, offset: $offset, search: $search, active: $active, type: $type, createdById: $createdById, tags: $tags) {
    count
    results { ${SELECTION} }
  }
}`;

/** The same write through both transports; both succeed, answer the same flag, and the ids are returned. */
async function writeBoth(
  rest: { method: 'POST' | 'PATCH' | 'PUT'; id?: number },
  gql: { query: string; id?: number },
  body: Record<string, unknown>,
) {
  const restRes = await app.request(rest.id ? `${flagsPath()}/${rest.id}` : flagsPath(), {
    method: rest.method,
    key: world.owner.key,
    body,
  });
  expect(restRes.status).toBe(rest.method === 'POST' ? 201 : 200);
  const gqlRes = await viaGraphQL(gql.query, { ...(gql.id ? { id: gql.id } : {}), input: inputToGraphQL(body) });
  expect(gqlRes.status).toBe(200);
  expect(gqlRes.body.errors).toBeUndefined();
  const gqlFlag = flagToRest(gqlRes.body.data.flag);
  expect(Object.keys(gqlFlag)).toEqual(Object.keys(restRes.body));
  expect(comparable(gqlFlag)).toEqual(comparable(restRes.body));
  return { rest: restRes.body, graphql: gqlFlag };
}

/** The same refused write through both transports: the same error. */
async function refuseBoth(
  rest: { method: 'GET' | 'POST' | 'PATCH' | 'PUT'; path: string; key?: string | null },
  gql: { query: string; variables: Record<string, unknown>; key?: string | null },
  body?: Record<string, unknown>,
) {
  const key = rest.key === undefined ? world.owner.key : rest.key;
  const restRes = await app.request(rest.path, { method: rest.method, key, body });
  const gqlKey = gql.key === undefined ? world.owner.key : gql.key;
  const gqlRes = await viaGraphQL(gql.query, { ...gql.variables, ...(body ? { input: inputToGraphQL(body) } : {}) }, gqlKey);
  const mirrored = graphqlAsRestError(gqlRes);
  expect(mirrored).toEqual({ status: restRes.status, body: restRes.body });
  return restRes.body as RestError;
}

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
  restProject = world.project;
  graphqlProject = await app.factories.project(world.organization, 'GraphQL twin');
});
afterAll(() => app.close());

describe('one scenario through REST and GraphQL', () => {
  const ids = { rest: 0, graphql: 0 };

  it('the name mapping covers the whole REST flag shape', async () => {
    const res = await app.request(flagsPath(), { method: 'POST', key: world.owner.key, body: { key: 'shape-probe' } });
    expect(Object.keys(res.body)).toEqual(Object.keys(FLAG_FIELDS));
    expect(res.body).toMatchObject(REST_ONLY_FIELDS);
    expect(Object.keys(res.body.created_by)).toEqual(Object.keys(USER_FIELDS));
    const gql = await viaGraphQL(CREATE, { input: { key: 'shape-probe' } });
    expect(Object.keys(gql.body.data.flag)).toEqual(Object.values(FLAG_FIELDS).filter((name) => name !== null));
  });

  it('create with filters, tags and ensure_experience_continuity', async () => {
    const { rest, graphql } = await writeBoth(
      { method: 'POST' },
      { query: CREATE },
      {
        key: 'parity-flag',
        name: 'Parity flag',
        filters: {
          groups: [
            { properties: [{ key: 'email', value: '@example.com', operator: 'icontains', type: 'person' }], rollout_percentage: 40 },
            { properties: [], rollout_percentage: 10, variant: 'test' },
          ],
          multivariate: {
            variants: [
              { key: 'control', name: 'Control', rollout_percentage: 50 },
              { key: 'test', rollout_percentage: 50 },
            ],
          },
          payloads: { control: { color: 'blue' }, test: '"red"' },
          super_groups: [{ properties: [], rollout_percentage: 5 }],
        },
        tags: [' Beta ', 'beta', 'Ops', ''],
        ensure_experience_continuity: true,
        rollback_conditions: [{ threshold_type: 'insight', threshold: 50 }],
      },
    );
    expect(rest).toMatchObject({
      key: 'parity-flag',
      tags: ['beta', 'ops'],
      ensure_experience_continuity: true,
      is_simple_flag: false,
      rollout_percentage: null,
      version: 1,
      created_by: { id: world.owner.user.id, email: world.owner.user.email },
    });
    expect(graphql.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    expect(typeof graphql.usage_dashboard).toBe(typeof rest.usage_dashboard);
    ids.rest = rest.id as number;
    ids.graphql = graphql.id as number;
  });

  it('PATCH (partial update)', async () => {
    const { rest } = await writeBoth(
      { method: 'PATCH', id: ids.rest },
      { query: UPDATE, id: ids.graphql },
      {
        name: 'Parity flag, updated',
        filters: { groups: [{ properties: [], rollout_percentage: 65 }] },
        tags: ['beta', 'new'],
        ensure_experience_continuity: null,
        active: false,
        version: 1,
      },
    );
    expect(rest).toMatchObject({
      name: 'Parity flag, updated',
      key: 'parity-flag',
      is_simple_flag: true,
      rollout_percentage: 65,
      ensure_experience_continuity: null,
      active: false,
      tags: ['beta', 'new'],
      version: 2,
    });
    // A PATCH whose filters lack `groups` keeps the stored filters, on both transports.
    const kept = await writeBoth(
      { method: 'PATCH', id: ids.rest },
      { query: UPDATE, id: ids.graphql },
      { filters: { payloads: { true: 1 } } },
    );
    expect(kept.rest).toMatchObject({ filters: { groups: [{ properties: [], rollout_percentage: 65 }] }, version: 3 });
  });

  it('PUT (replace)', async () => {
    const { rest } = await writeBoth(
      { method: 'PUT', id: ids.rest },
      { query: REPLACE, id: ids.graphql },
      {
        key: 'parity-flag',
        filters: { groups: [{ properties: [], rollout_percentage: 70 }] },
        active: true,
      },
    );
    expect(rest).toMatchObject({ rollout_percentage: 70, active: true, performed_rollback: false, version: 4 });
  });

  it('list with filters', async () => {
    // Companions, written the same way on both sides.
    const companions = [
      { key: 'parity-other', name: 'Parity companion', tags: ['beta'], active: false },
      { key: 'parity-third', tags: ['ops'] },
      {
        key: 'unrelated',
        filters: {
          groups: [{ rollout_percentage: 100 }],
          multivariate: { variants: [{ key: 'a', rollout_percentage: 100 }] },
        },
      },
    ];
    for (const body of companions) await writeBoth({ method: 'POST' }, { query: CREATE }, body);

    const cases: Array<{ query: string; variables: Record<string, unknown> }> = [
      { query: 'search=PARITY&active=false&tags=%5B%22beta%22%5D', variables: { search: 'PARITY', active: false, tags: ['beta'] } },
      { query: 'search=parity', variables: { search: 'parity' } },
      { query: 'type=multivariant', variables: { type: 'multivariant' } },
      { query: 'type=boolean&active=true', variables: { type: 'boolean', active: true } },
      {
        query: `created_by_id=${world.owner.user.id}&limit=2&offset=1`,
        variables: { createdById: world.owner.user.id, limit: 2, offset: 1 },
      },
      { query: 'limit=2&offset=50', variables: { limit: 2, offset: 50 } },
      { query: 'tags=%5B%22ops%22%2C%22new%22%5D', variables: { tags: ['ops', 'new'] } },
    ];
    for (const { query, variables } of cases) {
      const rest = await app.request(`${flagsPath()}?${query}`, { key: world.owner.key });
      expect(rest.status).toBe(200);
      const gql = await viaGraphQL(LIST, variables);
      expect(gql.body.errors).toBeUndefined();
      const page = gql.body.data.page;
      expect({ query, count: page.count }).toEqual({ query, count: rest.body.count });
      expect(page.results.map((flag: Record<string, unknown>) => comparable(flagToRest(flag)))).toEqual(rest.body.results.map(comparable));
    }
    // Not vacuous: the first case finds exactly the companion.
    const first = await app.request(`${flagsPath()}?${cases[0].query}`, { key: world.owner.key });
    expect(first.body.results.map((f: { key: string }) => f.key)).toEqual(['parity-other']);
  });

  it('retrieve', async () => {
    const rest = await app.request(`${flagsPath()}/${ids.rest}`, { key: world.owner.key });
    expect(rest.status).toBe(200);
    const gql = await viaGraphQL(GET, { id: ids.graphql });
    expect(gql.body.errors).toBeUndefined();
    expect(comparable(flagToRest(gql.body.data.flag))).toEqual(comparable(rest.body));
    // The GraphQL flag is, id for id, the one REST shows in its own project.
    const twin = await app.request(`/api/projects/${graphqlProject.id}/feature_flags/${ids.graphql}`, { key: world.owner.key });
    expect(flagToRest(gql.body.data.flag)).toEqual(twin.body);
  });

  it('soft delete and restore', async () => {
    const deleted = await writeBoth({ method: 'PATCH', id: ids.rest }, { query: UPDATE, id: ids.graphql }, { deleted: true });
    expect(deleted.rest).toMatchObject({ deleted: true });
    const restored = await writeBoth({ method: 'PATCH', id: ids.rest }, { query: UPDATE, id: ids.graphql }, { deleted: false });
    expect(restored.rest).toMatchObject({ deleted: false });
  });

  describe('validation errors: same detail, code and attr', () => {
    const cases: Array<[string, Record<string, unknown>]> = [
      ['key with a space', { key: 'foo bar' }],
      ['taken key', { key: 'parity-flag' }],
      ['null name', { key: 'ok-key', name: null }],
      ['filters without groups', { key: 'ok-key', filters: { payloads: {} } }],
      [
        'variant sum',
        {
          key: 'ok-key',
          filters: {
            groups: [{ rollout_percentage: 100 }],
            multivariate: {
              variants: [
                { key: 'a', rollout_percentage: 50 },
                { key: 'b', rollout_percentage: 25 },
                { key: 'c', rollout_percentage: 0 },
              ],
            },
          },
        },
      ],
      ['variant override', { key: 'ok-key', filters: { groups: [{ variant: 'unknown-variant' }] } }],
      [
        'bad operator value',
        { key: 'ok-key', filters: { groups: [{ properties: [{ key: 'e', value: ['@x'], operator: 'icontains', type: 'person' }] }] } },
      ],
      ['unknown dashboard', { key: 'ok-key', analytics_dashboards: [55] }],
      ['tag too long', { key: 'ok-key', tags: ['t'.repeat(256)] }],
    ];
    it.each(cases)('create: %s', async (_name, body) => {
      const error = await refuseBoth({ method: 'POST', path: flagsPath() }, { query: CREATE, variables: {} }, body);
      expect(error.type).toBe('validation_error');
    });

    it('create: no key', async () => {
      const body = { name: 'x' };
      const rest = await app.request(flagsPath(), { method: 'POST', key: world.owner.key, body });
      expect({ status: rest.status, body: rest.body }).toEqual({
        status: 400,
        body: { type: 'validation_error', code: 'required', detail: 'This field is required.', attr: 'key' },
      });
      // Not the same error: the schema makes FeatureFlagCreateInput.key required (String!), so GraphQL
      // refuses the variables before the resolver runs; REST bodies reach the service uncoerced.
      expectRefused(await viaGraphQL(CREATE, { input: inputToGraphQL(body) }), notProvided('key', 'String!'));
    });

    it('control: nulls where the model allows them are accepted on both sides', async () => {
      await writeBoth(
        { method: 'POST' },
        { query: CREATE },
        {
          key: 'nullable-control',
          rollback_conditions: null,
          has_enriched_analytics: null,
          performed_rollback: null,
          ensure_experience_continuity: null,
        },
      );
    });

    it('PATCH: variant sum and key format', async () => {
      const variantSum = await refuseBoth(
        { method: 'PATCH', path: `${flagsPath()}/${ids.rest}` },
        { query: UPDATE, variables: { id: ids.graphql } },
        {
          filters: {
            groups: [{ rollout_percentage: 100 }],
            multivariate: {
              variants: [
                { key: 'a', rollout_percentage: 50 },
                { key: 'b', rollout_percentage: 25 },
                { key: 'c', rollout_percentage: 50 },
              ],
            },
          },
        },
      );
      expect(variantSum).toEqual({
        type: 'validation_error',
        code: 'invalid_input',
        detail: 'Invalid variant definitions: Variant rollout percentages must sum to 100.',
        attr: 'filters',
      });
      const keyFormat = await refuseBoth(
        { method: 'PATCH', path: `${flagsPath()}/${ids.rest}` },
        { query: UPDATE, variables: { id: ids.graphql } },
        { key: 'foo.bar' },
      );
      expect(keyFormat).toMatchObject({ code: 'invalid_key', attr: 'key' });
    });
  });

  it('409 on a stale version: the same message', async () => {
    const error = await refuseBoth(
      { method: 'PATCH', path: `${flagsPath()}/${ids.rest}` },
      { query: UPDATE, variables: { id: ids.graphql } },
      { name: 'stale', version: 1 },
    );
    expect(error).toEqual({
      type: 'server_error',
      code: 'conflict',
      detail: `The feature flag was updated by ${world.owner.user.email} since you started editing it. Please refresh and try again.`,
      attr: null,
    });
    // Nothing was written on either side.
    const rest = await app.request(`${flagsPath()}/${ids.rest}`, { key: world.owner.key });
    const gql = await viaGraphQL(GET, { id: ids.graphql });
    expect(rest.body.name).toBe('Parity flag, updated');
    expect(gql.body.data.flag.name).toBe('Parity flag, updated');
    expect(gql.body.data.flag.version).toBe(rest.body.version);
  });

  it('404: unknown flag and unknown project', async () => {
    expect(await refuseBoth({ method: 'GET', path: `${flagsPath()}/999999` }, { query: GET, variables: { id: 999999 } })).toEqual({
      type: 'invalid_request',
      code: 'not_found',
      detail: 'Not found.',
      attr: null,
    });
    expect(
      await refuseBoth({ method: 'PATCH', path: `${flagsPath()}/999999` }, { query: UPDATE, variables: { id: 999999 } }, { name: 'x' }),
    ).toMatchObject({ code: 'not_found', detail: 'Not found.' });
    // The other project's flag is invisible from this one, on both transports.
    expect(
      await refuseBoth({ method: 'GET', path: `${flagsPath()}/${ids.graphql}` }, { query: GET, variables: { id: ids.rest } }),
    ).toMatchObject({ code: 'not_found' });
    const restRes = await app.request('/api/projects/999999/feature_flags/1', { key: world.owner.key });
    const gqlRes = await app.graphql(GET, { projectId: '999999', id: 1 }, world.owner.key);
    expect(graphqlAsRestError(gqlRes)).toEqual({ status: restRes.status, body: restRes.body });
    expect(restRes.body.detail).toBe('Project not found.');
  });

  it('401 and 403: the same messages', async () => {
    expect(
      await refuseBoth(
        { method: 'GET', path: `${flagsPath()}/${ids.rest}`, key: null },
        { query: GET, variables: { id: ids.graphql }, key: null },
      ),
    ).toMatchObject({ code: 'not_authenticated' });
    expect(
      await refuseBoth(
        { method: 'GET', path: `${flagsPath()}/${ids.rest}`, key: 'phx_wrong' },
        { query: GET, variables: { id: ids.graphql }, key: 'phx_wrong' },
      ),
    ).toMatchObject({ code: 'authentication_failed' });
    const readOnly = await app.factories.key(world.owner.user, { scopes: ['feature_flag:read'] });
    expect(
      await refuseBoth(
        { method: 'PATCH', path: `${flagsPath()}/${ids.rest}`, key: readOnly },
        { query: UPDATE, variables: { id: ids.graphql }, key: readOnly },
        { name: 'x' },
      ),
    ).toEqual({
      type: 'authentication_error',
      code: 'permission_denied',
      detail: "API key missing required scope 'feature_flag:write'",
      attr: null,
    });
    const outsider = await app.factories.member(null);
    expect(
      await refuseBoth(
        { method: 'GET', path: `${flagsPath()}/${ids.rest}`, key: outsider.key },
        { query: GET, variables: { id: ids.graphql }, key: outsider.key },
      ),
    ).toMatchObject({ detail: "You don't have access to the project." });
  });
});
