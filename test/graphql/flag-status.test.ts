import { startTestApp, type TestApp } from '../helpers/test-app';
import type { World } from '../helpers/factories';
import { capture, uniqueId } from '../ingestion/capture-helpers';

/**
 * docs/stale-flags.md §4 over GraphQL: `FeatureFlag.status`, `FeatureFlag.lastCalledAt`, the list's
 * `status` argument, and §5's cost: a page of flags with both fields costs the same statements for
 * 3 flags as for 30, and a write's answer looks its last call up in one statement.
 */

const DAY_MS = 86_400_000;

let app: TestApp;
let world: World;
let projectId: string;
const statements: string[] = [];

const LIST = /* GraphQL */ `
  query List($projectId: ID!, $status: FeatureFlagStatusValue, $limit: Int) {
    featureFlags(projectId: $projectId, status: $status, limit: $limit) {
      count
      results {
        key
        lastCalledAt
        status {
          status
          reason
        }
      }
    }
  }
`;

async function seed(project: number, prefix: string, n: number) {
  // Half rolled out, unchanged for 40 days: stale unless evaluated, so every status reads the last call.
  await app.factories.sql(
    `insert into feature_flag (project_id, name, key, filters, created_at, updated_at, tags, analytics_dashboards)
     select ?, '', ? || i, '{"groups": [{"properties": [], "rollout_percentage": 50}]}'::jsonb,
            now() - make_interval(days => 40, secs => i), now() - interval '40 days', '{}', '{}'
       from generate_series(1, ?) as i`,
    [project, prefix, n],
  );
}

async function called(flag: string, daysAgo: number, token = world.project.apiToken) {
  const res = await capture(app, '/batch/', {
    api_key: token,
    batch: [
      {
        event: '$feature_flag_called',
        distinct_id: uniqueId(),
        properties: { $feature_flag: flag },
        timestamp: new Date(app.clock.now() - daysAgo * DAY_MS),
      },
    ],
  });
  expect(res.status).toBe(200);
}

async function list(project: string | number, variables: Record<string, unknown> = {}) {
  const res = await app.graphql(LIST, { projectId: String(project), limit: 100, ...variables }, world.owner.key);
  expect(res.body.errors).toBeUndefined();
  return res.body.data.featureFlags as {
    count: number;
    results: Array<{ key: string; lastCalledAt: string | null; status: { status: string; reason: string } }>;
  };
}

async function measure(action: () => Promise<unknown>) {
  statements.length = 0;
  const count = await app.countQueries(action);
  return { count, sent: [...statements] };
}

beforeAll(async () => {
  app = await startTestApp();
  app.orm.em
    .getConnection()
    .getKnex()
    .on('query', (q: { sql: string }) => statements.push(q.sql.replace(/\s+/g, ' ')));
  world = await app.factories.world();
  projectId = String(world.project.id);
  await seed(world.project.id, 'flag-', 3);
  await called('flag-1', 3);
  await called('flag-2', 50);
});
afterAll(() => app.close());

describe('FeatureFlag.status and lastCalledAt', () => {
  it('answer the rule of docs/stale-flags.md §2, with the enum names', async () => {
    const page = await list(projectId);
    const byKey = Object.fromEntries(page.results.map((f) => [f.key, f]));
    expect(byKey['flag-1'].status).toEqual({ status: 'ACTIVE', reason: 'Flag was evaluated in the last 30 days and its answer can vary' });
    expect(byKey['flag-2'].status).toEqual({ status: 'STALE', reason: 'Flag has not been evaluated in 50 days' });
    expect(byKey['flag-3'].status).toEqual({ status: 'STALE', reason: 'Flag has never been evaluated' });
    expect(app.clock.now() - new Date(byKey['flag-1'].lastCalledAt!).getTime()).toBeGreaterThan(3 * DAY_MS - 60_000);
    expect(byKey['flag-3'].lastCalledAt).toBeNull();
  });

  it('the list keeps the status asked for, with its count', async () => {
    const stale = await list(projectId, { status: 'STALE' });
    expect(stale.results.map((f) => f.key)).toEqual(['flag-2', 'flag-3']);
    expect(stale.count).toBe(2);
    const active = await list(projectId, { status: 'ACTIVE' });
    expect(active.results.map((f) => f.key)).toEqual(['flag-1']);
    expect((await list(projectId, { status: 'DELETED' })).count).toBe(0);
  });

  it('a soft-deleted flag read by id is DELETED', async () => {
    const [{ id }] = await app.factories.sql(`select id from feature_flag where project_id = ? and key = 'flag-3'`, [world.project.id]);
    await app.factories.sql(`update feature_flag set deleted = true where id = ?`, [id]);
    const res = await app.graphql(
      `query ($projectId: ID!, $id: Int!) { featureFlag(projectId: $projectId, id: $id) { status { status reason } } }`,
      { projectId, id: Number(id) },
      world.owner.key,
    );
    expect(res.body.data.featureFlag.status).toEqual({ status: 'DELETED', reason: 'Flag has been deleted' });
    await app.factories.sql(`update feature_flag set deleted = false where id = ?`, [id]);
  });

  it('a write answers its lastCalledAt and status too', async () => {
    await called('written', 2);
    const res = await app.graphql(
      `mutation ($projectId: ID!) { createFeatureFlag(projectId: $projectId, input: {key: "written"}) { lastCalledAt status { status } } }`,
      { projectId },
      world.owner.key,
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.createFeatureFlag.lastCalledAt).not.toBeNull();
    expect(res.body.data.createFeatureFlag.status).toEqual({ status: 'ACTIVE' });
  });
});

describe('cost (docs/stale-flags.md §5)', () => {
  it('a page with status and lastCalledAt costs the same statements for 3 flags as for 30', async () => {
    const small = await app.factories.project(world.organization, 'Small');
    const large = await app.factories.project(world.organization, 'Large');
    await seed(small.id, 's-', 3);
    await seed(large.id, 'l-', 30);
    // The key's first use in a project (its standing there is then remembered) is not what is measured.
    await list(small.id);
    await list(large.id);
    const few = await measure(() => list(small.id));
    const many = await measure(() => list(large.id));
    expect(many.sent).toHaveLength(few.sent.length);
    const filtered = await measure(() => list(large.id, { status: 'STALE' }));
    expect(filtered.sent).toHaveLength(few.sent.length);
  });
});
