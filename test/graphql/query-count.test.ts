import { startTestApp, type TestApp } from '../helpers/test-app';
import type { Member, World } from '../helpers/factories';
import type { Project } from '../../src/modules/project/project.entity';

/**
 * Listing flags costs a constant number of SQL statements, whatever the page size: the key (joined
 * with its user), the project with the caller's membership, the page (with its window count), and
 * one batch of creators. `canEdit` adds none.
 */

const MAX_STATEMENTS = 4;

let app: TestApp;
let world: World;
let creators: Member[];
let small: Project;
let large: Project;

/** Everything the app sends to the database, in order (shown when an assertion fails). */
const statements: string[] = [];

/** Fails with the statements themselves, so a regression shows what it added. */
function expectAtMost(list: string[], max = MAX_STATEMENTS) {
  if (list.length > max) throw new Error(`${list.length} SQL statements, at most ${max} expected:\n${list.map((sql, i) => `${i + 1}. ${sql}`).join('\n')}`);
}

async function measure(action: () => Promise<{ status: number; body: any }>) {
  statements.length = 0;
  let response: { status: number; body: any } | undefined;
  const count = await app.countQueries(async () => {
    response = await action();
  });
  expect(statements).toHaveLength(count);
  return { count, statements: [...statements], response: response! };
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
        createdBy { id uuid distinctId firstName email isEmailVerified }
        experimentSet
        features
        usageDashboard
      }
    }
  }
`;

const viaGraphQL = (project: Project, key = world.owner.key) => async () => {
  const res = await app.graphql(LIST, { projectId: String(project.id), limit: 100 }, key);
  expect(res.body.errors).toBeUndefined();
  return { status: res.status, body: res.body.data.featureFlags };
};
const viaRest = (project: Project | '@current', key = world.owner.key) => async () =>
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
  // Warm-up: the first use of each key stamps `last_used_at` (at most hourly); not counted below.
  for (const member of creators) await app.request(`/api/projects/${large.id}/feature_flags?limit=1`, { key: member.key });
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
    expectAtMost(res.statements);
  });
});
