import { expectRefused, notProvided, nullGiven } from '../helpers/graphql-refusal';
import { startTestApp, type TestApp } from '../helpers/test-app';
import type { Member, World } from '../helpers/factories';

/**
 * The flag model over GraphQL: queries, mutations, `me`, and docs/README.md decision 3's error shape
 * (message = REST detail; extensions code/type/reason/attr; HTTP 200 for execution errors).
 */

let app: TestApp;
let world: World;
let projectId: string;

const FLAG_FIELDS = /* GraphQL */ `
  fragment Flag on FeatureFlag {
    id
    name
    key
    filters
    deleted
    active
    createdBy {
      id
      uuid
      distinctId
      firstName
      email
      isEmailVerified
    }
    createdAt
    isSimpleFlag
    rolloutPercentage
    ensureExperienceContinuity
    experimentSet
    rollbackConditions
    performedRollback
    canEdit
    tags
    usageDashboardId
    analyticsDashboards
    hasEnrichedAnalytics
    version
  }
`;

const CREATE = /* GraphQL */ `
  mutation Create($projectId: ID!, $input: FeatureFlagCreateInput!) {
    createFeatureFlag(projectId: $projectId, input: $input) {
      ...Flag
    }
  }
  ${FLAG_FIELDS}
`;

const UPDATE = /* GraphQL */ `
  mutation Update($projectId: ID!, $id: Int!, $input: FeatureFlagUpdateInput!) {
    updateFeatureFlag(projectId: $projectId, id: $id, input: $input) {
      ...Flag
    }
  }
  ${FLAG_FIELDS}
`;

const REPLACE = /* GraphQL */ `
  mutation Replace($projectId: ID!, $id: Int!, $input: FeatureFlagReplaceInput!) {
    replaceFeatureFlag(projectId: $projectId, id: $id, input: $input) {
      ...Flag
    }
  }
  ${FLAG_FIELDS}
`;

const GET = /* GraphQL */ `
  query Get($projectId: ID!, $id: Int, $key: String) {
    featureFlag(projectId: $projectId, id: $id, key: $key) {
      ...Flag
    }
  }
  ${FLAG_FIELDS}
`;

const LIST = /* GraphQL */ `
  query List(
    $projectId: ID!
    $limit: Int
    $offset: Int
    $search: String
    $active: Boolean
    $type: FeatureFlagType
    $createdById: Int
    $tags: [String!]
  ) {
    featureFlags(
      projectId: $projectId
      limit: $limit
      offset: $offset
      search: $search
      active: $active
      type: $type
      createdById: $createdById
      tags: $tags
    ) {
      count
      results {
        id
        key
      }
    }
  }
`;

const ME = /* GraphQL */ `
  query Me {
    me {
      user {
        id
        uuid
        distinctId
        firstName
        email
        isEmailVerified
      }
      organizations {
        id
        name
        projects {
          id
          name
          apiToken
        }
      }
    }
  }
`;

const userShape = (member: Member) => ({
  id: member.user.id,
  uuid: member.user.uuid,
  distinctId: member.user.distinctId,
  firstName: member.user.firstName,
  email: member.user.email,
  isEmailVerified: false,
});

/** The single error of a response, after checking the status and that no data leaked. */
function onlyError(res: { status: number; body: { data?: any; errors?: any[] } }, field: string) {
  expect(res.status).toBe(200);
  expect(res.body.errors).toHaveLength(1);
  expect(res.body.data?.[field] ?? null).toBeNull();
  const [error] = res.body.errors!;
  expect(error.path).toEqual([field]);
  return { message: error.message, ...error.extensions };
}

async function create(input: Record<string, unknown>, key = world.owner.key, project = projectId) {
  const res = await app.graphql(CREATE, { projectId: project, input }, key);
  expect(res.body.errors).toBeUndefined();
  return res.body.data.createFeatureFlag;
}

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
  projectId = String(world.project.id);
});
afterAll(() => app.close());

describe('anonymous access (docs/README.md decision 13)', () => {
  it('answers introspection and __typename without a key', async () => {
    const introspection = await app.graphql('{ __schema { queryType { name } mutationType { name } } }', undefined, null);
    expect(introspection.status).toBe(200);
    expect(introspection.body).toEqual({ data: { __schema: { queryType: { name: 'Query' }, mutationType: { name: 'Mutation' } } } });

    const typename = await app.graphql('{ __typename }', undefined, null);
    expect(typename.status).toBe(200);
    expect(typename.body).toEqual({ data: { __typename: 'Query' } });

    const type = await app.graphql('{ __type(name: "FeatureFlag") { fields { name } } }', undefined, null);
    expect(type.body.errors).toBeUndefined();
    expect(type.body.data.__type.fields.map((f: { name: string }) => f.name)).toEqual(
      expect.arrayContaining(['createdBy', 'canEdit', 'isSimpleFlag', 'rolloutPercentage', 'experimentSet', 'usageDashboardId']),
    );
  });

  it('answers GET /graphql?query={__typename} without a key', async () => {
    const res = await app.request(`/graphql?query=${encodeURIComponent('{__typename}')}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { __typename: 'Query' } });
    const slash = await app.request(`/graphql/?query=${encodeURIComponent('{ __schema { queryType { name } } }')}`);
    expect(slash.status).toBe(200);
    expect(slash.body).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
  });

  it('refuses project data without a key: UNAUTHENTICATED with the REST 401 message', async () => {
    for (const [query, field] of [
      [LIST, 'featureFlags'],
      [GET, 'featureFlag'],
    ] as const) {
      const res = await app.graphql(query, { projectId, id: 1 }, null);
      expect(onlyError(res, field)).toEqual({
        message: 'Authentication credentials were not provided.',
        code: 'UNAUTHENTICATED',
        type: 'authentication_error',
        reason: 'not_authenticated',
        attr: null,
      });
    }
    const created = await app.graphql(CREATE, { projectId, input: { key: 'anonymous' } }, null);
    expect(onlyError(created, 'createFeatureFlag').code).toBe('UNAUTHENTICATED');
    const me = await app.graphql(ME, undefined, null);
    expect(onlyError(me, 'me')).toEqual({
      message: 'Authentication credentials were not provided.',
      code: 'UNAUTHENTICATED',
      type: 'authentication_error',
      reason: 'not_authenticated',
      attr: null,
    });
    // Nothing was written by the refused mutation.
    const list = await app.graphql(LIST, { projectId, search: 'anonymous' }, world.owner.key);
    expect(list.body.data.featureFlags.count).toBe(0);
  });

  it('refuses an unknown key with the REST message for where it was found', async () => {
    const res = await app.graphql(LIST, { projectId }, 'phx_wrong');
    expect(onlyError(res, 'featureFlags')).toEqual({
      message: 'Personal API key found in request Authorization header is invalid.',
      code: 'UNAUTHENTICATED',
      type: 'authentication_error',
      reason: 'authentication_failed',
      attr: null,
    });
    const inQuery = await app.request(`/graphql?personal_api_key=phx_wrong&query=${encodeURIComponent('{ me { user { id } } }')}`);
    expect(inQuery.status).toBe(200);
    expect(inQuery.body.errors[0].message).toBe('Personal API key found in request query string is invalid.');
    expect(inQuery.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });
});

describe('authorization', () => {
  it('a read-only key reads but cannot write: FORBIDDEN missing scope', async () => {
    const flag = await create({ key: 'scope-target' });
    const readOnly = await app.factories.key(world.owner.user, { scopes: ['feature_flag:read'] });
    const list = await app.graphql(LIST, { projectId }, readOnly);
    expect(list.body.errors).toBeUndefined();
    expect(list.body.data.featureFlags.results.map((f: { key: string }) => f.key)).toContain('scope-target');

    const expected = {
      message: "API key missing required scope 'feature_flag:write'",
      code: 'FORBIDDEN',
      type: 'authentication_error',
      reason: 'permission_denied',
      attr: null,
    };
    expect(onlyError(await app.graphql(CREATE, { projectId, input: { key: 'nope' } }, readOnly), 'createFeatureFlag')).toEqual(expected);
    expect(onlyError(await app.graphql(UPDATE, { projectId, id: flag.id, input: { name: 'x' } }, readOnly), 'updateFeatureFlag')).toEqual(
      expected,
    );
    expect(
      onlyError(
        await app.graphql(REPLACE, { projectId, id: flag.id, input: { key: 'scope-target', filters: flag.filters } }, readOnly),
        'replaceFeatureFlag',
      ),
    ).toEqual(expected);

    const other = await app.factories.key(world.owner.user, { scopes: ['experiment:read'] });
    expect(onlyError(await app.graphql(LIST, { projectId }, other), 'featureFlags').message).toBe(
      "API key missing required scope 'feature_flag:read'",
    );
    const unchanged = await app.graphql(GET, { projectId, id: flag.id }, world.owner.key);
    expect(unchanged.body.data.featureFlag).toEqual(flag);
  });

  it("another organization's member is FORBIDDEN; an unknown project is NOT_FOUND", async () => {
    const outsider = await app.factories.member(null);
    for (const [query, field, variables] of [
      [LIST, 'featureFlags', { projectId }],
      [GET, 'featureFlag', { projectId, id: 1 }],
      [CREATE, 'createFeatureFlag', { projectId, input: { key: 'intruder' } }],
    ] as const) {
      expect(onlyError(await app.graphql(query, variables, outsider.key), field)).toEqual({
        message: "You don't have access to the project.",
        code: 'FORBIDDEN',
        type: 'authentication_error',
        reason: 'permission_denied',
        attr: null,
      });
    }
    for (const unknown of ['999999', 'abc', '0', '-1', '99999999999']) {
      expect(onlyError(await app.graphql(LIST, { projectId: unknown }, world.owner.key), 'featureFlags')).toEqual({
        message: 'Project not found.',
        code: 'NOT_FOUND',
        type: 'invalid_request',
        reason: 'not_found',
        attr: null,
      });
    }
  });

  it('a key limited to projects or organizations reaches only those', async () => {
    const other = await app.factories.world();
    const second = await app.factories.project(world.organization, 'Second');
    const scopedToProject = await app.factories.key(world.owner.user, { projects: [world.project.id] });
    expect(onlyError(await app.graphql(LIST, { projectId: String(second.id) }, scopedToProject), 'featureFlags')).toEqual({
      message: `API key does not have access to the requested project: ID ${second.id}.`,
      code: 'FORBIDDEN',
      type: 'authentication_error',
      reason: 'permission_denied',
      attr: null,
    });
    expect((await app.graphql(LIST, { projectId }, scopedToProject)).body.errors).toBeUndefined();

    const scopedToOrganization = await app.factories.key(other.owner.user, { organizations: [world.organization.id] });
    expect(onlyError(await app.graphql(LIST, { projectId: String(other.project.id) }, scopedToOrganization), 'featureFlags')).toEqual({
      message: `API key does not have access to the requested organization: ID ${other.organization.id}.`,
      code: 'FORBIDDEN',
      type: 'authentication_error',
      reason: 'permission_denied',
      attr: null,
    });
  });
});

describe('me', () => {
  it('shows the caller, their organizations and projects', async () => {
    const owner = await app.factories.world();
    const extra = await app.factories.project(owner.organization, 'Extra');
    const res = await app.graphql(ME, undefined, owner.owner.key);
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.me).toEqual({
      user: userShape(owner.owner),
      organizations: [
        {
          id: owner.organization.id,
          name: owner.organization.name,
          projects: [
            { id: owner.project.id, name: 'Project', apiToken: owner.project.apiToken },
            { id: extra.id, name: 'Extra', apiToken: extra.apiToken },
          ],
        },
      ],
    });
    expect(owner.project.apiToken).toMatch(/^phc_/);
  });

  it('never exposes the secret project token', async () => {
    const res = await app.graphql('{ me { organizations { projects { secretApiToken } } } }', undefined, world.owner.key);
    expect(res.status).toBe(400);
    expect(res.body.errors![0].extensions.code).toBe('BAD_USER_INPUT');
    expect(res.text).not.toMatch(/phs_/);
  });

  it('a key limited to projects or organizations only sees those', async () => {
    // One user in two organizations: O1 with projects A and A2, O2 with project B.
    const o1 = await app.factories.world();
    const a2 = await app.factories.project(o1.organization, 'A2');
    const o2 = await app.factories.world();
    await app.factories.sql(`insert into organization_membership (organization_id, user_id, level, joined_at) values (?, ?, 1, now())`, [
      o2.organization.id,
      o1.owner.user.id,
    ]);

    const all = await app.graphql(ME, undefined, o1.owner.key);
    expect(all.body.data.me.organizations.map((o: { id: string }) => o.id)).toEqual([o1.organization.id, o2.organization.id]);
    expect(all.body.data.me.organizations[0].projects.map((p: { id: number }) => p.id)).toEqual([o1.project.id, a2.id]);
    expect(all.body.data.me.organizations[1].projects.map((p: { id: number }) => p.id)).toEqual([o2.project.id]);

    const projectKey = await app.factories.key(o1.owner.user, { projects: [a2.id] });
    const byProject = await app.graphql(ME, undefined, projectKey);
    expect(byProject.body.errors).toBeUndefined();
    expect(byProject.body.data.me.organizations).toEqual([
      { id: o1.organization.id, name: o1.organization.name, projects: [{ id: a2.id, name: 'A2', apiToken: a2.apiToken }] },
    ]);

    const organizationKey = await app.factories.key(o1.owner.user, { organizations: [o2.organization.id] });
    const byOrganization = await app.graphql(ME, undefined, organizationKey);
    expect(byOrganization.body.errors).toBeUndefined();
    expect(byOrganization.body.data.me.organizations).toEqual([
      {
        id: o2.organization.id,
        name: o2.organization.name,
        projects: [{ id: o2.project.id, name: 'Project', apiToken: o2.project.apiToken }],
      },
    ]);
    expect(byOrganization.body.data.me.user).toEqual(userShape(o1.owner));
  });
});

describe('createFeatureFlag', () => {
  it('answers the flag with every field (in GraphQL names)', async () => {
    const flag = await create({ key: 'omega-feature' });
    const { id, createdAt, ...rest } = flag;
    expect(Number.isInteger(id)).toBe(true);
    expect(createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    expect(rest).toEqual({
      name: '',
      key: 'omega-feature',
      filters: { groups: [{ properties: [], rollout_percentage: null }] },
      deleted: false,
      active: true,
      createdBy: userShape(world.owner),
      isSimpleFlag: true,
      rolloutPercentage: null,
      ensureExperienceContinuity: false,
      experimentSet: [],
      rollbackConditions: null,
      performedRollback: null,
      canEdit: true,
      tags: [],
      // docs/README.md decision 12's usage dashboard: an id once dashboards are generated on create.
      usageDashboardId: rest.usageDashboardId,
      analyticsDashboards: [],
      hasEnrichedAnalytics: false,
      version: 1,
    });
    expect(rest.usageDashboardId === null || Number.isInteger(rest.usageDashboardId)).toBe(true);
    // The same flag as REST shows it.
    const viaRest = await app.request(`/api/projects/${projectId}/feature_flags/${id}`, { key: world.owner.key });
    expect(viaRest.body.usage_dashboard).toBe(rest.usageDashboardId);
  });

  it('stores every writable field and shows the computed ones', async () => {
    const filters = {
      groups: [{ properties: [], rollout_percentage: 65 }],
      payloads: { true: { color: 'red' } },
    };
    const flag = await create({
      key: ' padded-key ',
      name: 'Described',
      filters,
      active: false,
      ensureExperienceContinuity: true,
      rollbackConditions: [{ threshold: 5 }],
      performedRollback: true,
      tags: [' Beta ', 'beta', 'ops', ''],
      hasEnrichedAnalytics: null,
      createdAt: '2024-01-31T12:00:00.123Z',
    });
    expect(flag).toMatchObject({
      key: 'padded-key',
      name: 'Described',
      filters,
      active: false,
      isSimpleFlag: true,
      rolloutPercentage: 65,
      ensureExperienceContinuity: true,
      rollbackConditions: [{ threshold: 5 }],
      performedRollback: true,
      tags: ['beta', 'ops'],
      hasEnrichedAnalytics: null,
      createdAt: '2024-01-31T12:00:00.123000Z',
      createdBy: userShape(world.owner),
      canEdit: true,
    });
  });

  it('computes isSimpleFlag and rolloutPercentage', async () => {
    const withProperty = await create({
      key: 'simple-with-property',
      filters: { groups: [{ properties: [{ key: 'email', value: 'x', type: 'person' }], rollout_percentage: 65 }] },
    });
    expect(withProperty).toMatchObject({ isSimpleFlag: false, rolloutPercentage: null });
    const aggregated = await create({
      key: 'simple-aggregated',
      filters: { aggregation_group_type_index: 0, groups: [{ rollout_percentage: 65 }] },
    });
    expect(aggregated).toMatchObject({ isSimpleFlag: false, rolloutPercentage: null });
    const twoGroups = await create({
      key: 'simple-two-groups',
      filters: { groups: [{ rollout_percentage: 10 }, { rollout_percentage: 20 }] },
    });
    expect(twoGroups).toMatchObject({ isSimpleFlag: false, rolloutPercentage: null });
    const fractional = await create({ key: 'simple-fractional', filters: { groups: [{ rollout_percentage: 12.5 }] } });
    expect(fractional).toMatchObject({ isSimpleFlag: true, rolloutPercentage: 12.5 });
  });

  it('shows legacy stored filters in the normalised form, and the usage dashboard id', async () => {
    const flag = await create({ key: 'legacy-filters' });
    const properties = [{ key: 'email', value: 'a@b.c', type: 'person' }];
    await app.factories.sql(`update feature_flag set filters = ?::jsonb, usage_dashboard_id = 4242 where id = ?`, [
      JSON.stringify({ properties }),
      flag.id,
    ]);
    const res = await app.graphql(GET, { projectId, id: flag.id }, world.owner.key);
    expect(res.body.data.featureFlag).toMatchObject({
      filters: { groups: [{ properties, rollout_percentage: null }] },
      isSimpleFlag: false,
      rolloutPercentage: null,
      usageDashboardId: 4242,
    });
    await app.factories.sql(`update feature_flag set filters = '{}'::jsonb where id = ?`, [flag.id]);
    const empty = await app.graphql(GET, { projectId, id: flag.id }, world.owner.key);
    expect(empty.body.data.featureFlag).toMatchObject({
      filters: { groups: [{ properties: [], rollout_percentage: null }] },
      isSimpleFlag: true,
    });
  });

  it('sdkFilters is what local evaluation serves for the flag', async () => {
    const flag = await create({ key: 'sdk-filters' });
    // Stored keys the service does not apply are shown in `filters` but not served to SDKs.
    const groups = [{ properties: [{ key: 'email', value: 'a@b.c', type: 'person' }], rollout_percentage: 50 }];
    await app.factories.sql(`update feature_flag set filters = ?::jsonb where id = ?`, [
      JSON.stringify({ groups, unapplied: true }),
      flag.id,
    ]);
    const res = await app.graphql(
      'query ($projectId: ID!, $id: Int!) { featureFlag(projectId: $projectId, id: $id) { filters sdkFilters } }',
      { projectId, id: flag.id },
      world.owner.key,
    );
    const served = await app.request(`/api/projects/${projectId}/feature_flags/local_evaluation`, { key: world.owner.key });
    const local = served.body.flags.find((f: { key: string }) => f.key === 'sdk-filters');
    expect(res.body.data.featureFlag).toEqual({ filters: { groups, unapplied: true }, sdkFilters: { groups } });
    expect(local.filters).toEqual({ groups });
  });

  describe('validation errors: BAD_USER_INPUT with the REST detail, code and attr', () => {
    const cases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
      ['blank key', { key: '  ' }, { message: 'This field may not be blank.', reason: 'blank', attr: 'key' }],
      [
        'key with a space',
        { key: 'foo bar' },
        { message: 'Only letters, numbers, hyphens (-) & underscores (_) are allowed.', reason: 'invalid_key', attr: 'key' },
      ],
      [
        'key too long',
        { key: 'k'.repeat(401) },
        { message: 'Ensure this field has no more than 400 characters.', reason: 'max_length', attr: 'key' },
      ],
      ['null name', { key: 'null-name', name: null }, { message: 'This field may not be null.', reason: 'null', attr: 'name' }],
      [
        'filters without groups',
        { key: 'no-groups', filters: {} },
        { message: 'Feature flags must have at least one condition set (group).', reason: 'invalid_input', attr: 'filters' },
      ],
      [
        'variants not summing to 100',
        {
          key: 'bad-variants',
          filters: {
            groups: [{ properties: [], rollout_percentage: 100 }],
            multivariate: {
              variants: [
                { key: 'a', rollout_percentage: 50 },
                { key: 'b', rollout_percentage: 25 },
                { key: 'c', rollout_percentage: 0 },
              ],
            },
          },
        },
        { message: 'Invalid variant definitions: Variant rollout percentages must sum to 100.', reason: 'invalid_input', attr: 'filters' },
      ],
      [
        'rollout over 100',
        { key: 'too-much', filters: { groups: [{ rollout_percentage: 150 }] } },
        { message: 'groups[0].rollout_percentage must be between 0 and 100, got 150', reason: 'invalid_input', attr: 'filters' },
      ],
      [
        'unknown dashboard',
        { key: 'with-dashboard', analyticsDashboards: [55] },
        { message: 'Invalid pk "55" - object does not exist.', reason: 'does_not_exist', attr: 'analytics_dashboards' },
      ],
    ];
    it.each(cases)('%s', async (_name, input, expected) => {
      const res = await app.graphql(CREATE, { projectId, input }, world.owner.key);
      expect(onlyError(res, 'createFeatureFlag')).toEqual({ code: 'BAD_USER_INPUT', type: 'validation_error', ...expected });
    });

    // FeatureFlagCreateInput.key is String!: GraphQL refuses a missing or null key before the resolver runs
    // (REST still answers `required` / `null` with attr `key`).
    it.each([
      ['no key', {}, notProvided('key', 'String!')],
      ['null key', { key: null }, nullGiven('input.key', 'String!')],
    ])('%s', async (_name, input, message) => {
      expectRefused(await app.graphql(CREATE, { projectId, input }, world.owner.key), message);
    });

    it('a taken key is `unique`; nothing is created', async () => {
      await create({ key: 'taken-key' });
      const res = await app.graphql(CREATE, { projectId, input: { key: 'taken-key', name: 'second' } }, world.owner.key);
      expect(onlyError(res, 'createFeatureFlag')).toEqual({
        message: 'There is already a feature flag with this key.',
        code: 'BAD_USER_INPUT',
        type: 'validation_error',
        reason: 'unique',
        attr: 'key',
      });
      const list = await app.graphql(LIST, { projectId, search: 'taken-key' }, world.owner.key);
      expect(list.body.data.featureFlags.count).toBe(1);
    });
  });
});

describe('featureFlag and featureFlags', () => {
  let other: World;
  let keys: Record<string, number>;
  const LIST_PROJECT = () => String(other.project.id);

  beforeAll(async () => {
    other = await app.factories.world();
    const colleague = await app.factories.member(other.organization);
    const make = async (input: Record<string, unknown>, key = other.owner.key) => (await create(input, key, LIST_PROJECT())).id as number;
    keys = {};
    keys.red_button = await make({ key: 'red_button', tags: ['beta'] });
    keys.theme = await make({ key: 'theme-flag', name: 'Red theme', tags: ['Ops'] });
    keys.inactive = await make({ key: 'inactive-flag', active: false }, colleague.key);
    keys.multi = await make(
      {
        key: 'multi-flag',
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
      colleague.key,
    );
    keys.gone = await make({ key: 'gone-flag' });
    const deleted = await app.graphql(UPDATE, { projectId: LIST_PROJECT(), id: keys.gone, input: { deleted: true } }, other.owner.key);
    expect(deleted.body.data.updateFeatureFlag.deleted).toBe(true);
    (other as World & { colleague: Member }).colleague = colleague;
  });

  const list = async (args: Record<string, unknown>) => {
    const res = await app.graphql(LIST, { projectId: LIST_PROJECT(), ...args }, other.owner.key);
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    const page = res.body.data.featureFlags as { count: number; results: Array<{ id: number; key: string }> };
    return { count: page.count, keys: page.results.map((f) => f.key) };
  };

  it('lists non-deleted flags newest first with the count', async () => {
    expect(await list({})).toEqual({ count: 4, keys: ['multi-flag', 'inactive-flag', 'theme-flag', 'red_button'] });
  });

  it('pages with limit and offset', async () => {
    expect(await list({ limit: 2 })).toEqual({ count: 4, keys: ['multi-flag', 'inactive-flag'] });
    expect(await list({ limit: 2, offset: 2 })).toEqual({ count: 4, keys: ['theme-flag', 'red_button'] });
    expect(await list({ limit: 2, offset: 10 })).toEqual({ count: 4, keys: [] });
    expect(await list({ limit: -3 })).toEqual({ count: 4, keys: ['multi-flag', 'inactive-flag', 'theme-flag', 'red_button'] });
    expect(await list({ limit: 0, offset: -5 })).toEqual({ count: 4, keys: ['multi-flag', 'inactive-flag', 'theme-flag', 'red_button'] });
  });

  it('filters by search, active, type, createdById and tags (AND)', async () => {
    expect(await list({ search: 'RED' })).toEqual({ count: 2, keys: ['theme-flag', 'red_button'] });
    expect(await list({ search: '_' })).toEqual({ count: 1, keys: ['red_button'] });
    expect(await list({ search: '%' })).toEqual({ count: 0, keys: [] });
    expect(await list({ active: false })).toEqual({ count: 1, keys: ['inactive-flag'] });
    expect(await list({ active: true })).toEqual({ count: 3, keys: ['multi-flag', 'theme-flag', 'red_button'] });
    expect(await list({ type: 'multivariant' })).toEqual({ count: 1, keys: ['multi-flag'] });
    expect(await list({ type: 'boolean' })).toEqual({ count: 3, keys: ['inactive-flag', 'theme-flag', 'red_button'] });
    expect(await list({ type: 'experiment' })).toEqual({ count: 0, keys: [] });
    const colleague = (other as World & { colleague: Member }).colleague;
    expect(await list({ createdById: colleague.user.id })).toEqual({ count: 2, keys: ['multi-flag', 'inactive-flag'] });
    expect(await list({ createdById: other.owner.user.id, search: 'red' })).toEqual({ count: 2, keys: ['theme-flag', 'red_button'] });
    expect(await list({ tags: ['beta'] })).toEqual({ count: 1, keys: ['red_button'] });
    expect(await list({ tags: ['OPS', 'beta'] })).toEqual({ count: 2, keys: ['theme-flag', 'red_button'] });
    expect(await list({ tags: [] })).toEqual({ count: 4, keys: ['multi-flag', 'inactive-flag', 'theme-flag', 'red_button'] });
    expect(await list({ tags: ['beta'], active: false })).toEqual({ count: 0, keys: [] });
  });

  it('refuses a type outside the enum as a GraphQL input error', async () => {
    const res = await app.graphql(LIST, { projectId: LIST_PROJECT(), type: 'nonsense' }, other.owner.key);
    expect(res.status).toBe(400);
    expect(res.body.errors![0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('retrieves by id or key, soft-deleted included', async () => {
    const byId = await app.graphql(GET, { projectId: LIST_PROJECT(), id: keys.theme }, other.owner.key);
    expect(byId.body.errors).toBeUndefined();
    expect(byId.body.data.featureFlag).toMatchObject({ id: keys.theme, key: 'theme-flag', name: 'Red theme', tags: ['ops'] });
    const byKey = await app.graphql(GET, { projectId: LIST_PROJECT(), key: 'theme-flag' }, other.owner.key);
    expect(byKey.body.data.featureFlag).toEqual(byId.body.data.featureFlag);
    const gone = await app.graphql(GET, { projectId: LIST_PROJECT(), id: keys.gone }, other.owner.key);
    expect(gone.body.data.featureFlag).toMatchObject({ key: 'gone-flag', deleted: true });
    const goneByKey = await app.graphql(GET, { projectId: LIST_PROJECT(), key: 'gone-flag' }, other.owner.key);
    expect(goneByKey.body.data.featureFlag).toMatchObject({ id: keys.gone, deleted: true });
  });

  it('shows createdBy per flag and canEdit for the caller', async () => {
    const colleague = (other as World & { colleague: Member }).colleague;
    const res = await app.graphql(
      `query($projectId: ID!) { featureFlags(projectId: $projectId) { results { key canEdit createdBy { id email } } } }`,
      { projectId: LIST_PROJECT() },
      colleague.key,
    );
    expect(res.body.errors).toBeUndefined();
    const byKey = Object.fromEntries(res.body.data.featureFlags.results.map((f: { key: string }) => [f.key, f]));
    expect(byKey['red_button']).toEqual({
      key: 'red_button',
      canEdit: true,
      createdBy: { id: other.owner.user.id, email: other.owner.user.email },
    });
    expect(byKey['multi-flag']).toEqual({
      key: 'multi-flag',
      canEdit: true,
      createdBy: { id: colleague.user.id, email: colleague.user.email },
    });
  });

  it('a flag whose creator is gone shows createdBy null', async () => {
    await app.factories.sql(`update feature_flag set created_by_id = null where id = ?`, [keys.theme]);
    const res = await app.graphql(GET, { projectId: LIST_PROJECT(), id: keys.theme }, other.owner.key);
    expect(res.body.data.featureFlag).toMatchObject({ createdBy: null, canEdit: true });
  });

  it('NOT_FOUND for unknown ids, ids of other projects and unknown keys', async () => {
    const notFound = { message: 'Not found.', code: 'NOT_FOUND', type: 'invalid_request', reason: 'not_found', attr: null };
    // A flag of the caller's other project (same organization) is invisible from this one.
    const sibling = await app.factories.project(other.organization, 'Sibling');
    const siblingFlag = await create({ key: 'sibling-flag' }, other.owner.key, String(sibling.id));
    const found = await app.graphql(GET, { projectId: String(sibling.id), id: siblingFlag.id }, other.owner.key);
    expect(found.body.data.featureFlag.key).toBe('sibling-flag');
    for (const variables of [
      { id: 999999 },
      { id: 0 },
      { id: -1 },
      { id: siblingFlag.id },
      { key: 'sibling-flag' },
      { key: 'no-such-flag' },
      {},
    ]) {
      const res = await app.graphql(GET, { projectId: LIST_PROJECT(), ...variables }, other.owner.key);
      expect(onlyError(res, 'featureFlag')).toEqual(notFound);
    }
    // world.owner is not in `other`'s organization: the project check comes first.
    const res = await app.graphql(GET, { projectId: LIST_PROJECT(), id: keys.red_button }, world.owner.key);
    expect(onlyError(res, 'featureFlag').code).toBe('FORBIDDEN');
  });
});

describe('updateFeatureFlag and replaceFeatureFlag', () => {
  it('updates only the fields sent and bumps the version', async () => {
    const flag = await create({ key: 'patch-me', name: 'original name', tags: ['keep'], ensureExperienceContinuity: true });
    const res = await app.graphql(UPDATE, { projectId, id: flag.id, input: { name: 'Updated name' } }, world.owner.key);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.updateFeatureFlag).toEqual({ ...flag, name: 'Updated name', version: 2 });

    const filters = { groups: [{ properties: [{ key: 'email', value: 'a@b.c', type: 'person' }], rollout_percentage: 65 }] };
    const second = await app.graphql(UPDATE, { projectId, id: flag.id, input: { filters, tags: [] } }, world.owner.key);
    expect(second.body.data.updateFeatureFlag).toMatchObject({
      name: 'Updated name',
      filters,
      tags: [],
      isSimpleFlag: false,
      ensureExperienceContinuity: true,
      version: 3,
    });
    // PATCH filters without `groups` leaves them alone.
    const ignored = await app.graphql(UPDATE, { projectId, id: flag.id, input: { filters: { payloads: { true: 1 } } } }, world.owner.key);
    expect(ignored.body.data.updateFeatureFlag).toMatchObject({ filters, version: 4 });
  });

  it('null clears nullable fields and is refused for the others', async () => {
    const flag = await create({ key: 'nullable-fields', performedRollback: true, active: false });
    const cleared = await app.graphql(UPDATE, { projectId, id: flag.id, input: { ensureExperienceContinuity: null } }, world.owner.key);
    expect(cleared.body.data.updateFeatureFlag.ensureExperienceContinuity).toBeNull();
    const active = await app.graphql(UPDATE, { projectId, id: flag.id, input: { active: true } }, world.owner.key);
    expect(active.body.data.updateFeatureFlag).toMatchObject({ active: true, performedRollback: false });
    const refused = await app.graphql(UPDATE, { projectId, id: flag.id, input: { name: null } }, world.owner.key);
    expect(onlyError(refused, 'updateFeatureFlag')).toEqual({
      message: 'This field may not be null.',
      code: 'BAD_USER_INPUT',
      type: 'validation_error',
      reason: 'null',
      attr: 'name',
    });
  });

  it('soft-deletes and restores through `deleted`', async () => {
    const flag = await create({ key: 'soft-delete-me' });
    const inList = async () =>
      (await app.graphql(LIST, { projectId, search: 'soft-delete-me' }, world.owner.key)).body.data.featureFlags.count as number;
    expect(await inList()).toBe(1);
    const deleted = await app.graphql(UPDATE, { projectId, id: flag.id, input: { deleted: true } }, world.owner.key);
    expect(deleted.body.data.updateFeatureFlag).toMatchObject({ deleted: true, version: 2 });
    expect(await inList()).toBe(0);
    const still = await app.graphql(GET, { projectId, id: flag.id }, world.owner.key);
    expect(still.body.data.featureFlag).toMatchObject({ deleted: true });
    // A deleted flag stays editable.
    const edited = await app.graphql(UPDATE, { projectId, id: flag.id, input: { name: 'while deleted' } }, world.owner.key);
    expect(edited.body.data.updateFeatureFlag).toMatchObject({ deleted: true, name: 'while deleted' });
    const restored = await app.graphql(UPDATE, { projectId, id: flag.id, input: { deleted: false } }, world.owner.key);
    expect(restored.body.data.updateFeatureFlag).toMatchObject({ deleted: false, version: 4 });
    expect(await inList()).toBe(1);
  });

  it("a soft-deleted flag's key can be taken; its id then 404s", async () => {
    const old = await create({ key: 'reused-key' });
    await app.graphql(UPDATE, { projectId, id: old.id, input: { deleted: true } }, world.owner.key);
    const fresh = await create({ key: 'reused-key' });
    expect(fresh.id).not.toBe(old.id);
    expect(onlyError(await app.graphql(GET, { projectId, id: old.id }, world.owner.key), 'featureFlag').code).toBe('NOT_FOUND');
    const byKey = await app.graphql(GET, { projectId, key: 'reused-key' }, world.owner.key);
    expect(byKey.body.data.featureFlag.id).toBe(fresh.id);
  });

  it('a stale version is CONFLICT and writes nothing', async () => {
    const flag = await create({ key: 'versioned' });
    await app.graphql(UPDATE, { projectId, id: flag.id, input: { name: 'v2' } }, world.owner.key);
    const stale = await app.graphql(UPDATE, { projectId, id: flag.id, input: { name: 'a', version: 1 } }, world.owner.key);
    expect(onlyError(stale, 'updateFeatureFlag')).toEqual({
      message: `The feature flag was updated by ${world.owner.user.email} since you started editing it. Please refresh and try again.`,
      code: 'CONFLICT',
      type: 'server_error',
      reason: 'conflict',
      attr: null,
    });
    const unchanged = await app.graphql(GET, { projectId, id: flag.id }, world.owner.key);
    expect(unchanged.body.data.featureFlag).toMatchObject({ name: 'v2', version: 2 });
    const current = await app.graphql(UPDATE, { projectId, id: flag.id, input: { name: 'b', version: 2 } }, world.owner.key);
    expect(current.body.data.updateFeatureFlag).toMatchObject({ name: 'b', version: 3 });
    const unchecked = await app.graphql(UPDATE, { projectId, id: flag.id, input: { name: 'c', version: null } }, world.owner.key);
    expect(unchecked.body.data.updateFeatureFlag).toMatchObject({ name: 'c', version: 4 });
    // The message names the last writer, not the creator.
    const colleague = await app.factories.member(world.organization);
    await app.graphql(UPDATE, { projectId, id: flag.id, input: { name: 'd' } }, colleague.key);
    const staleAgain = await app.graphql(UPDATE, { projectId, id: flag.id, input: { name: 'e', version: 4 } }, world.owner.key);
    expect(onlyError(staleAgain, 'updateFeatureFlag').message).toBe(
      `The feature flag was updated by ${colleague.user.email} since you started editing it. Please refresh and try again.`,
    );
  });

  it('validates PATCH input like create (variant sum, key format, taken key)', async () => {
    const flag = await create({ key: 'patch-validation' });
    await create({ key: 'patch-validation-other' });
    const variants = await app.graphql(
      UPDATE,
      {
        projectId,
        id: flag.id,
        input: {
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
      },
      world.owner.key,
    );
    expect(onlyError(variants, 'updateFeatureFlag')).toEqual({
      message: 'Invalid variant definitions: Variant rollout percentages must sum to 100.',
      code: 'BAD_USER_INPUT',
      type: 'validation_error',
      reason: 'invalid_input',
      attr: 'filters',
    });
    const badKey = await app.graphql(UPDATE, { projectId, id: flag.id, input: { key: 'foo.bar' } }, world.owner.key);
    expect(onlyError(badKey, 'updateFeatureFlag')).toMatchObject({ reason: 'invalid_key', attr: 'key', code: 'BAD_USER_INPUT' });
    const taken = await app.graphql(UPDATE, { projectId, id: flag.id, input: { key: 'patch-validation-other' } }, world.owner.key);
    expect(onlyError(taken, 'updateFeatureFlag')).toMatchObject({ reason: 'unique', attr: 'key' });
    const unchanged = await app.graphql(GET, { projectId, id: flag.id }, world.owner.key);
    expect(unchanged.body.data.featureFlag).toEqual(flag);
  });

  it('NOT_FOUND for an unknown flag or another project\u2019s flag', async () => {
    const other = await app.factories.world();
    const foreign = await create({ key: 'foreign' }, other.owner.key, String(other.project.id));
    for (const id of [999999, foreign.id]) {
      const res = await app.graphql(UPDATE, { projectId, id, input: { name: 'x' } }, world.owner.key);
      expect(onlyError(res, 'updateFeatureFlag')).toEqual({
        message: 'Not found.',
        code: 'NOT_FOUND',
        type: 'invalid_request',
        reason: 'not_found',
        attr: null,
      });
    }
  });

  it('replaceFeatureFlag requires key and filters, and groups in the filters (PUT)', async () => {
    const flag = await create({ key: 'put-me', name: 'before', tags: ['t'] });
    // FeatureFlagReplaceInput makes key and filters non-null: GraphQL refuses them missing before the resolver runs.
    expectRefused(
      await app.graphql(REPLACE, { projectId, id: flag.id, input: { name: 'after', filters: flag.filters } }, world.owner.key),
      notProvided('key', 'String!'),
    );
    expectRefused(
      await app.graphql(REPLACE, { projectId, id: flag.id, input: { key: 'put-me', name: 'after' } }, world.owner.key),
      notProvided('filters', 'JSONObject!'),
    );
    const noGroups = await app.graphql(
      REPLACE,
      { projectId, id: flag.id, input: { key: 'put-me', filters: { payloads: {} } } },
      world.owner.key,
    );
    expect(onlyError(noGroups, 'replaceFeatureFlag')).toEqual({
      message: 'Feature flags must have at least one condition set (group).',
      code: 'BAD_USER_INPUT',
      type: 'validation_error',
      reason: 'invalid_input',
      attr: 'filters',
    });
    const filters = { groups: [{ properties: [], rollout_percentage: 30 }] };
    const ok = await app.graphql(
      REPLACE,
      { projectId, id: flag.id, input: { key: 'put-me-renamed', name: 'after', filters } },
      world.owner.key,
    );
    expect(ok.body.errors).toBeUndefined();
    expect(ok.body.data.replaceFeatureFlag).toMatchObject({
      key: 'put-me-renamed',
      name: 'after',
      filters,
      rolloutPercentage: 30,
      tags: ['t'],
      version: 2,
    });
    const stale = await app.graphql(
      REPLACE,
      { projectId, id: flag.id, input: { key: 'put-me-renamed', filters, version: 1 } },
      world.owner.key,
    );
    expect(onlyError(stale, 'replaceFeatureFlag').code).toBe('CONFLICT');
  });
});

describe('malformed GraphQL requests are errors, never 500s', () => {
  const expectClientError = (res: { status: number; body: any; text: string }) => {
    expect(res.status).toBeGreaterThanOrEqual(200);
    expect(res.status).toBeLessThan(500);
    expect(res.body.errors?.length).toBeGreaterThan(0);
    for (const error of res.body.errors) {
      expect(error.extensions?.code).not.toBe('INTERNAL_SERVER_ERROR');
      expect(error.message).not.toMatch(/at .*\.ts:\d+/);
    }
    expect(res.text).not.toMatch(/stacktrace/i);
  };

  it('a syntax error', async () => {
    const res = await app.graphql('{ featureFlags(projectId: ', undefined, world.owner.key);
    expectClientError(res);
    expect(res.body.errors![0].extensions.code).toBe('BAD_USER_INPUT');
    const anonymous = await app.graphql('query {', undefined, null);
    expectClientError(anonymous);
  });

  it('wrong variable types', async () => {
    for (const variables of [
      { projectId, id: 'abc' },
      { projectId, id: 99999999999 },
      { projectId, id: 1.5 },
      { projectId: { nested: true }, id: 1 },
      { projectId: null, id: 1 },
    ]) {
      const res = await app.graphql(GET, variables, world.owner.key);
      expectClientError(res);
      expect(res.body.errors![0].extensions.code).toBe('BAD_USER_INPUT');
    }
    const input = await app.graphql(CREATE, { projectId, input: { key: 5, tags: 'not-a-list', filters: [] } }, world.owner.key);
    expectClientError(input);
    const filtersList = await app.graphql(CREATE, { projectId, input: { key: 'list-filters', filters: [] } }, world.owner.key);
    expectClientError(filtersList);
    const noInput = await app.graphql(CREATE, { projectId }, world.owner.key);
    expectClientError(noInput);
    const badDate = await app.graphql(CREATE, { projectId, input: { key: 'bad-date', createdAt: 'yesterday' } }, world.owner.key);
    expectClientError(badDate);
  });

  it('wrong literal types, unknown fields and missing arguments', async () => {
    for (const query of [
      `{ featureFlag(projectId: "${projectId}", id: "abc") { id } }`,
      `{ featureFlag(projectId: "${projectId}", id: 1) { nope } }`,
      `{ featureFlags { count } }`,
      `{ featureFlags(projectId: "${projectId}", type: nonsense) { count } }`,
      `mutation { createFeatureFlag(projectId: "${projectId}", input: { key: "x", createdAt: "not a date" }) { id } }`,
      `mutation { createFeatureFlag(projectId: "${projectId}", input: { key: "x", filters: 5 }) { id } }`,
      `subscription { nothing }`,
    ]) {
      expectClientError(await app.graphql(query, undefined, world.owner.key));
    }
  });

  it('odd HTTP requests', async () => {
    expectClientError(await app.request('/graphql', { method: 'POST', key: world.owner.key, body: { variables: {} } }));
    expectClientError(await app.request('/graphql', { method: 'POST', key: world.owner.key, body: { query: 5 } }));
    expectClientError(
      await app.request('/graphql', { method: 'POST', key: world.owner.key, body: { query: '{ __typename }', variables: 'oops' } }),
    );
    // A mutation over GET is refused.
    const get = await app.request(
      `/graphql?query=${encodeURIComponent(`mutation { createFeatureFlag(projectId: "${projectId}", input: { key: "via-get" }) { id } }`)}`,
      { key: world.owner.key },
    );
    expect(get.status).toBeGreaterThanOrEqual(400);
    expect(get.status).toBeLessThan(500);
    const list = await app.graphql(LIST, { projectId, search: 'via-get' }, world.owner.key);
    expect(list.body.data.featureFlags.count).toBe(0);
    // Malformed JSON.
    const malformed = await app.request('/graphql', {
      method: 'POST',
      key: world.owner.key,
      body: '{bad',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
  });

  it('an error in one of several root fields nulls the (non-null) root and keeps its path', async () => {
    const res = await app.graphql(
      `query($p: ID!) { a: featureFlags(projectId: $p) { count } b: featureFlags(projectId: "999999") { count } c: __typename }`,
      { p: projectId },
      world.owner.key,
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toBeNull();
    expect(res.body.errors).toEqual([expect.objectContaining({ message: 'Project not found.', path: ['b'] })]);
    expect(res.body.errors![0].extensions).toEqual({ code: 'NOT_FOUND', type: 'invalid_request', reason: 'not_found', attr: null });
  });

  it('an operation type the schema lacks', async () => {
    const res = await app.graphql('subscription { nothing }', undefined, world.owner.key);
    expectClientError(res);
    expect(res.body.errors![0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', type: 'validation_error', attr: null });
    expectClientError(await app.graphql('subscription { nothing }', undefined, null));
  });
});
