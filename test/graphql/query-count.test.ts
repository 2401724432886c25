import { CREDENTIAL_TTL_MS } from '../../src/app-caches';
import { startTestApp, type TestApp } from '../helpers/test-app';
import type { Member, World } from '../helpers/factories';
import type { Project } from '../../src/modules/project/project.entity';

/**
 * Listing flags costs a constant number of SQL statements, whatever the page size: the project
 * with the caller's membership (unless remembered from the last second's requests), and the page
 * (with its window count, experiment ids and creators).
 * `canEdit` adds none. The key (joined with its user) is remembered for CREDENTIAL_TTL_MS on the
 * app's clock (docs/operations.md, "Time and caches"), which stands still in tests: every statement
 * is counted, and a test of its own moves the clock past the key's lookup.
 */

const MAX_STATEMENTS = 2;

let app: TestApp;
let world: World;
let creators: Member[];
let small: Project;
let large: Project;

/** Everything the app sends to the database, in order (shown when an assertion fails). */
const statements: string[] = [];

/** Fails with the statements themselves, so a regression shows what it added. */
function expectAtMost(list: string[], max = MAX_STATEMENTS) {
  if (list.length > max)
    throw new Error(`${list.length} SQL statements, at most ${max} expected:\n${list.map((sql, i) => `${i + 1}. ${sql}`).join('\n')}`);
}

async function measure(action: () => Promise<{ status: number; body: any }>) {
  statements.length = 0;
  let response: { status: number; body: any } | undefined;
  const count = await app.countQueries(async () => {
    response = await action();
  });
  expect(statements).toHaveLength(count);
  const keyLookups = statements.filter((sql) => /from personal_api_key k join app_user/.test(sql)).length;
  return { count, statements: [...statements], keyLookups, response: response! };
}

/** `n` flags in one INSERT, their creators taken in turn from `creators`, one without a creator. */
async function seed(project: Project, n: number) {
  const ids = creators.map((c) => c.user.id);
  await app.factories.sql(
    `insert into feature_flag (project_id, name, key, filters, created_by_id, last_modified_by_id, created_at, updated_at, tags, analytics_dashboards)
     select ?, 'Flag ' || i, 'flag-' || i,
            jsonb_build_object('groups', jsonb_build_array(jsonb_build_object('properties', '[]'::jsonb, 'rollout_percentage', i % 101))),
            case when i = 1 then null else (?::int[])[1 + i % ?] end,
            null, now() - make_interval(secs => i), now(), array['seeded'], '{}'
       from generate_series(1, ?) as i`,
    [project.id, `{${ids.join(',')}}`, ids.length, n],
  );
}

const LIST = /* GraphQL */ `
  query List($projectId: ID!, $limit: Int) {
    featureFlags(projectId: $projectId, limit: $limit) {
      count
      results {
        id
        key
        filters
        isSimpleFlag
        rolloutPercentage
        canEdit
        createdBy {
          id
          uuid
          distinctId
          firstName
          email
          isEmailVerified
        }
        experimentSet
        usageDashboardId
      }
    }
  }
`;

const viaGraphQL =
  (project: Project, key = world.owner.key) =>
  async () => {
    const res = await app.graphql(LIST, { projectId: String(project.id), limit: 100 }, key);
    expect(res.body.errors).toBeUndefined();
    return { status: res.status, body: res.body.data.featureFlags };
  };
const viaRest =
  (project: Project | '@current', key = world.owner.key) =>
  async () =>
    app.request(`/api/projects/${project === '@current' ? '@current' : project.id}/feature_flags?limit=100`, { key });

beforeAll(async () => {
  app = await startTestApp();
  app.orm.em
    .getConnection()
    .getKnex()
    .on('query', (q: { sql: string }) => statements.push(q.sql.replace(/\s+/g, ' ')));
  world = await app.factories.world();
  creators = [world.owner];
  for (let i = 0; i < 4; i++) creators.push(await app.factories.member(world.organization));
  large = world.project;
  small = await app.factories.project(world.organization, 'Small');
  await seed(large, 100);
  await seed(small, 10);
  // Warm-up, not counted below: the first use of each key stamps `last_used_at` (at most hourly), and
  // each caller's standing in a project is remembered (src/app-caches.ts), so 10 flags and 100 compare alike.
  for (const member of creators) await app.request(`/api/projects/${large.id}/feature_flags?limit=1`, { key: member.key });
  await app.request(`/api/projects/${small.id}/feature_flags?limit=1`, { key: world.owner.key });
});
afterAll(() => app.close());

describe('listing flags with createdBy and canEdit', () => {
  it('seeds what the test claims', async () => {
    const res = await app.request(`/api/projects/${large.id}/feature_flags?limit=100`, { key: world.owner.key });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(100);
    expect(res.body.results).toHaveLength(100);
    const creatorIds = new Set(res.body.results.map((f: { created_by: { id: number } | null }) => f.created_by?.id ?? null));
    expect(creatorIds).toEqual(new Set([null, ...creators.map((c) => c.user.id)]));
    expect(res.body.results.every((f: { can_edit: boolean }) => f.can_edit === true)).toBe(true);
    const small10 = await app.request(`/api/projects/${small.id}/feature_flags`, { key: world.owner.key });
    expect(small10.body.count).toBe(10);
  });

  it(`GraphQL: at most ${MAX_STATEMENTS} statements, the same for 10 flags as for 100`, async () => {
    const ten = await measure(viaGraphQL(small));
    const hundred = await measure(viaGraphQL(large));
    expect(ten.response.body.results).toHaveLength(10);
    expect(hundred.response.body.results).toHaveLength(100);
    const shownCreators = new Set(hundred.response.body.results.map((f: { createdBy: { id: number } | null }) => f.createdBy?.id ?? null));
    expect(shownCreators).toEqual(new Set([null, ...creators.map((c) => c.user.id)]));
    expect(hundred.response.body.results.every((f: { canEdit: boolean }) => f.canEdit)).toBe(true);
    expectAtMost(hundred.statements);
    expect(hundred.statements).toHaveLength(ten.count);
  });

  it('reads the project once per request, whatever scopes its fields need', async () => {
    const query = /* GraphQL */ `
      query ($projectId: ID!) {
        featureFlags(projectId: $projectId, limit: 10) {
          results {
            key
            cohorts {
              id
            }
            experiments {
              id
            }
          }
        }
      }
    `;
    // A project the owner has not asked about yet, so its standing there is looked up (src/app-caches.ts).
    const fresh = await app.factories.project(world.organization, 'Not asked about yet');
    await seed(fresh, 10);
    const { response, statements: sent } = await measure(async () => {
      const res = await app.graphql(query, { projectId: String(fresh.id) }, world.owner.key);
      return { status: res.status, body: res.body };
    });
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data.featureFlags.results).toHaveLength(10);
    // feature_flag:read for the list, cohort:read and experiment:read for the fields: one project statement.
    expect(sent.filter((sql) => /from project p left join organization_membership/.test(sql))).toHaveLength(1);
  });

  it(`REST GET /feature_flags?limit=100: at most ${MAX_STATEMENTS} statements, the same for 10 flags as for 100`, async () => {
    const ten = await measure(viaRest(small));
    const hundred = await measure(viaRest(large));
    expect(ten.response.status).toBe(200);
    expect(hundred.response.status).toBe(200);
    expect(ten.response.body.results).toHaveLength(10);
    expect(hundred.response.body.results).toHaveLength(100);
    expectAtMost(hundred.statements);
    expect(hundred.statements).toHaveLength(ten.count);
  });

  it('the same for a member who is not an admin and created only some flags', async () => {
    const member = creators[1];
    const graphql = await measure(viaGraphQL(large, member.key));
    const rest = await measure(viaRest(large, member.key));
    expect(graphql.response.body.results).toHaveLength(100);
    expect(rest.response.body.results).toHaveLength(100);
    expectAtMost(graphql.statements);
    expectAtMost(rest.statements);
  });

  it('the same through /api/projects/@current', async () => {
    // The owner's current project is `large` (the organization's first project).
    const rest = await measure(viaRest('@current'));
    expect(rest.response.status).toBe(200);
    expect(rest.response.body.count).toBe(100);
    expectAtMost(rest.statements);
  });

  it('a page past the end costs one count more, still constant', async () => {
    const res = await measure(async () => app.request(`/api/projects/${large.id}/feature_flags?offset=500`, { key: world.owner.key }));
    expect(res.response.body).toMatchObject({ count: 100, results: [] });
    expectAtMost(res.statements, MAX_STATEMENTS + 1);
  });

  it('looks a key up once while it is remembered, however many requests it makes, and again after CREDENTIAL_TTL_MS', async () => {
    const fiveRequests = () =>
      measure(async () => {
        let last: { status: number; body: any } | undefined;
        for (let i = 0; i < 5; i++) last = await app.request(`/api/projects/${large.id}/feature_flags?limit=1`, { key: creators[1].key });
        return last!;
      });
    app.clock.advance(CREDENTIAL_TTL_MS + 1);
    const first = await fiveRequests();
    expect(first.response.status).toBe(200);
    expect(first.keyLookups).toBe(1);
    expect((await fiveRequests()).keyLookups).toBe(0);
    app.clock.advance(CREDENTIAL_TTL_MS - 1);
    expect((await fiveRequests()).keyLookups).toBe(0);
    app.clock.advance(2);
    expect((await fiveRequests()).keyLookups).toBe(1);
  });
});

/**
 * The costly case for `can_edit`: organization level 21 and a caller in a level-21 role, so
 * whether each flag is editable depends on its role-access records. With `roleAccess { role }`
 * selected too, a page costs the statements above plus exactly three: the caller's role-access
 * grants for the page (can_edit), the page's role-access records, and their roles.
 */
describe('listing flags with canEdit and roleAccess at organization level 21', () => {
  /**
   * The page (with creators), can_edit grants, role-access records, roles; the project access (with
   * both levels) is remembered from the viewer's earlier request in the project (src/app-caches.ts).
   */
  const GRAPHQL_STATEMENTS = 4;
  /** REST shows can_edit but not roleAccess: the page (with creators), can_edit grants. */
  const REST_STATEMENTS = 2;

  let restricted: World;
  let viewer: Member;
  let small21: Project;
  let large21: Project;

  const WITH_ROLE_ACCESS = /* GraphQL */ `
    query List($projectId: ID!, $limit: Int) {
      featureFlags(projectId: $projectId, limit: $limit) {
        count
        results {
          id
          key
          canEdit
          createdBy {
            id
            email
          }
          roleAccess {
            id
            role {
              name
            }
          }
        }
      }
    }
  `;
  const graphql = (project: Project) => async () => {
    const res = await app.graphql(WITH_ROLE_ACCESS, { projectId: String(project.id), limit: 100 }, viewer.key);
    expect(res.body.errors).toBeUndefined();
    return { status: res.status, body: res.body.data.featureFlags };
  };
  const rest = (project: Project) => async () => app.request(`/api/projects/${project.id}/feature_flags?limit=100`, { key: viewer.key });

  /** `n` flags `flag-<i>`: by the viewer when 5 divides i; a record when 3 divides i, for the viewer's role when i is even, else the other. */
  async function seedWithRoleAccess(project: Project, n: number, viewerRole: string, otherRole: string) {
    await app.factories.sql(
      `insert into feature_flag (project_id, name, key, filters, created_by_id, last_modified_by_id, created_at, updated_at, tags, analytics_dashboards)
       select ?, 'Flag ' || i, 'flag-' || i, '{}'::jsonb, case when i % 5 = 0 then ? else ? end, null,
              now() - make_interval(secs => i), now(), '{}', '{}'
         from generate_series(1, ?) as i`,
      [project.id, viewer.user.id, restricted.owner.user.id, n],
    );
    await app.factories.sql(
      `insert into feature_flag_role_access (feature_flag_id, role_id, added_at, updated_at)
       select f.id, case when s.i % 2 = 0 then ?::uuid else ?::uuid end, now(), now()
         from feature_flag f, lateral (select split_part(f.key, '-', 2)::int as i) s
        where f.project_id = ? and s.i % 3 = 0`,
      [viewerRole, otherRole, project.id],
    );
  }

  beforeAll(async () => {
    restricted = await app.factories.world();
    const org = restricted.organization;
    const owner = restricted.owner.key;
    viewer = await app.factories.member(org);
    const level = await app.request(`/api/organizations/${org.id}/resource_access`, {
      method: 'POST',
      key: owner,
      body: { resource: 'feature flags', access_level: 21 },
    });
    expect(level.status).toBe(201);
    const role = async (name: string) => {
      const res = await app.request(`/api/organizations/${org.id}/roles`, { method: 'POST', key: owner, body: { name } });
      expect(res.body.feature_flags_access_level).toBe(21);
      return res.body.id as string;
    };
    const viewerRole = await role('Viewers');
    const otherRole = await role('Others');
    const joined = await app.request(`/api/organizations/${org.id}/roles/${viewerRole}/role_memberships`, {
      method: 'POST',
      key: owner,
      body: { user_uuid: viewer.user.uuid },
    });
    expect(joined.status).toBe(201);
    large21 = restricted.project;
    small21 = await app.factories.project(org, 'Small at 21');
    await seedWithRoleAccess(large21, 100, viewerRole, otherRole);
    await seedWithRoleAccess(small21, 10, viewerRole, otherRole);
    // Stamps last_used_at; the viewer's standing in both projects is remembered for the counts below.
    await app.request(`/api/projects/${large21.id}/feature_flags?limit=1`, { key: viewer.key });
    await app.request(`/api/projects/${small21.id}/feature_flags?limit=1`, { key: viewer.key });
  });

  it('seeds flags whose can_edit depends on the role-access records', async () => {
    const { response } = await measure(graphql(large21));
    const results: Array<{ canEdit: boolean; createdBy: { id: number }; roleAccess: Array<{ role: { name: string } }> }> =
      response.body.results;
    expect(results).toHaveLength(100);
    for (const flag of results) {
      const byViewer = flag.createdBy.id === viewer.user.id;
      const granted = flag.roleAccess.some((r) => r.role.name === 'Viewers');
      expect(flag.canEdit).toBe(byViewer || granted);
    }
    const grantedOnly = results.filter((f) => f.createdBy.id !== viewer.user.id && f.roleAccess.some((r) => r.role.name === 'Viewers'));
    expect(grantedOnly.length).toBeGreaterThan(5);
    expect(results.some((f) => f.roleAccess.some((r) => r.role.name === 'Others'))).toBe(true);
    expect(results.some((f) => !f.canEdit)).toBe(true);
  });

  it(`GraphQL with canEdit and roleAccess { role { name } }: exactly ${GRAPHQL_STATEMENTS} statements for 10 flags and for 100`, async () => {
    const ten = await measure(graphql(small21));
    const hundred = await measure(graphql(large21));
    expect(ten.response.body.results).toHaveLength(10);
    expect(hundred.response.body.results).toHaveLength(100);
    expectAtMost(hundred.statements, GRAPHQL_STATEMENTS);
    expect(hundred.count).toBe(GRAPHQL_STATEMENTS);
    expect(ten.count).toBe(GRAPHQL_STATEMENTS);
  });

  it(`REST GET /feature_flags?limit=100 with can_edit: exactly ${REST_STATEMENTS} statements for 10 flags and for 100`, async () => {
    const ten = await measure(rest(small21));
    const hundred = await measure(rest(large21));
    expect([ten.response.status, hundred.response.status]).toEqual([200, 200]);
    expect(hundred.response.body.results).toHaveLength(100);
    expect(hundred.response.body.results.some((f: { can_edit: boolean }) => !f.can_edit)).toBe(true);
    expectAtMost(hundred.statements, REST_STATEMENTS);
    expect(hundred.count).toBe(REST_STATEMENTS);
    expect(ten.count).toBe(REST_STATEMENTS);
  });
});

/**
 * A flag's role-access list embeds, per record, the whole flag (creator, can_edit) and the whole
 * role (creator, members with their users, associated flags): still a constant number of statements.
 */
describe('listing role-access records with their flag and role', () => {
  let restricted: World;
  let viewer: Member;
  let few: number;
  let many: number;

  /** `n` roles, each with two members, all granted access to `flagId`. */
  async function rolesOn(flagId: number, n: number, prefix: string) {
    const org = restricted.organization.id;
    await app.factories.sql(
      `insert into role (id, organization_id, name, feature_flags_access_level, created_at, created_by_id)
       select gen_random_uuid(), ?, ? || i, 21, now() - make_interval(secs => i), ? from generate_series(1, ?) as i`,
      [org, prefix, restricted.owner.user.id, n],
    );
    await app.factories.sql(
      `insert into role_membership (id, role_id, user_id, joined_at, updated_at)
       select gen_random_uuid(), r.id, u.id, now(), now() from role r, (values (?::int), (?::int)) as u(id)
        where r.organization_id = ? and r.name like ? || '%'`,
      [viewer.user.id, restricted.owner.user.id, org, prefix],
    );
    await app.factories.sql(
      `insert into feature_flag_role_access (feature_flag_id, role_id, added_at, updated_at)
       select ?, r.id, now(), now() from role r where r.organization_id = ? and r.name like ? || '%'`,
      [flagId, org, prefix],
    );
  }

  beforeAll(async () => {
    restricted = await app.factories.world();
    viewer = await app.factories.member(restricted.organization);
    const owner = restricted.owner.key;
    const orgId = restricted.organization.id;
    expect(
      (
        await app.request(`/api/organizations/${orgId}/resource_access`, {
          method: 'POST',
          key: owner,
          body: { resource: 'feature flags', access_level: 21 },
        })
      ).status,
    ).toBe(201);
    const flag = async (key: string) =>
      (await app.request(`/api/projects/${restricted.project.id}/feature_flags`, { method: 'POST', key: owner, body: { key } })).body
        .id as number;
    few = await flag('few-roles');
    many = await flag('many-roles');
    await rolesOn(few, 3, 'Few ');
    await rolesOn(many, 40, 'Many ');
    await app.request(`/api/projects/${restricted.project.id}/feature_flags?limit=1`, { key: viewer.key }); // stamps last_used_at
  });

  it('REST GET /role_access costs the same for 3 records as for 40', async () => {
    const list = (flagId: number) => () =>
      app.request(`/api/projects/${restricted.project.id}/feature_flags/${flagId}/role_access`, { key: viewer.key });
    const small = await measure(list(few));
    const large = await measure(list(many));
    expect(small.response.body.count).toBe(3);
    expect(large.response.body.results).toHaveLength(40);
    expect(large.response.body.results[0].role.members).toHaveLength(2);
    expect(large.response.body.results[0].feature_flag.can_edit).toBe(true);
    expect(large.statements).toHaveLength(small.count);
  });
});
