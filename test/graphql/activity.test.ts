import type { Member, World } from '../helpers/factories';
import { startTestApp, type TestApp } from '../helpers/test-app';

/** The GraphQL twins of the activity endpoints: FeatureFlag.activity, Experiment.activity, activity, featureFlagActivity. */

let app: TestApp;
let world: World;
let projectId: string;
let key: string;

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
  projectId = String(world.project.id);
  key = world.owner.key;
});
afterAll(() => app.close());

const ENTRY = `activity scope itemId createdAt user { email firstName }
  detail { name trigger type shortId changes { type action field before after } }`;
const EXPERIMENT_FILTERS = { events: [{ order: 0, id: '$pageview' }], properties: [] };

async function ok<T = any>(query: string, variables: Record<string, unknown>, as = key): Promise<T> {
  const res = await app.graphql<T>(query, variables, as);
  if (res.status !== 200 || res.body.errors) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as T;
}

const createFlag = (input: Record<string, unknown>, as = key) =>
  ok(
    `mutation($p: ID!, $input: FeatureFlagCreateInput!) { createFeatureFlag(projectId: $p, input: $input) { id key } }`,
    { p: projectId, input },
    as,
  ).then((data: any) => data.createFeatureFlag as { id: number; key: string });
const createFlagIn = (p: string, as: string, flagKey: string) =>
  ok(
    `mutation($p: ID!, $input: FeatureFlagCreateInput!) { createFeatureFlag(projectId: $p, input: $input) { id } }`,
    { p, input: { key: flagKey } },
    as,
  ).then((data: any) => data.createFeatureFlag as { id: number });
const updateFlag = (id: number, input: Record<string, unknown>, as = key) =>
  app.graphql(
    `mutation($p: ID!, $id: Int!, $input: FeatureFlagUpdateInput!) { updateFeatureFlag(projectId: $p, id: $id, input: $input) { version } }`,
    { p: projectId, id, input },
    as,
  );

describe('FeatureFlag.activity', () => {
  it("shows the flag's entries, newest first, with the changes and the user", async () => {
    const flag = await createFlag({ key: 'gql-activity', name: 'before' });
    expect((await updateFlag(flag.id, { name: 'after', tags: ['Ops'] })).body.data).toEqual({ updateFeatureFlag: { version: 2 } });
    // Refused (400) and no-op updates write nothing.
    expect((await updateFlag(flag.id, { name: null })).body.errors?.[0].extensions.code).toBe('BAD_USER_INPUT');
    expect((await updateFlag(flag.id, { name: 'after' })).body.data).toEqual({ updateFeatureFlag: { version: 3 } });

    const data = await ok(
      `query($p: ID!, $id: Int!) { featureFlag(projectId: $p, id: $id) { activity { totalCount page limit results { ${ENTRY} } } } }`,
      {
        p: projectId,
        id: flag.id,
      },
    );
    const user = { email: world.owner.user.email, firstName: world.owner.user.firstName };
    expect(data.featureFlag.activity).toEqual({
      totalCount: 2,
      page: 1,
      limit: 10,
      results: [
        {
          activity: 'updated',
          scope: 'FeatureFlag',
          itemId: String(flag.id),
          createdAt: expect.stringMatching(/Z$/),
          user,
          detail: {
            name: 'gql-activity',
            trigger: null,
            type: null,
            shortId: null,
            changes: [
              { type: 'FeatureFlag', action: 'changed', field: 'name', before: 'before', after: 'after' },
              { type: 'FeatureFlag', action: 'changed', field: 'tags', before: [], after: ['ops'] },
            ],
          },
        },
        {
          activity: 'created',
          scope: 'FeatureFlag',
          itemId: String(flag.id),
          createdAt: expect.stringMatching(/Z$/),
          user,
          detail: { name: 'gql-activity', trigger: null, type: null, shortId: null, changes: null },
        },
      ],
    });
  });

  it('pages with page and limit, falling back like REST', async () => {
    const flag = await createFlag({ key: 'gql-paged' });
    for (let i = 0; i < 4; i++) await updateFlag(flag.id, { name: `n${i}` });
    const page = (args: string) =>
      ok(
        `query($p: ID!, $id: Int!) { featureFlag(projectId: $p, id: $id) { activity${args} { totalCount page limit results { detail { changes { after } } } } } }`,
        {
          p: projectId,
          id: flag.id,
        },
      ).then((data: any) => data.featureFlag.activity);
    const second = await page('(page: 2, limit: 2)');
    expect(second).toMatchObject({ totalCount: 5, page: 2, limit: 2 });
    expect(second.results.map((entry: any) => entry.detail.changes[0].after)).toEqual(['n1', 'n0']);
    expect(await page('(page: 0, limit: -1)')).toMatchObject({ page: 1, limit: 10 });
    expect(await page('(limit: 5000)')).toMatchObject({ page: 1, limit: 1000 });
  });

  it("reads a list's histories in the same statements however many flags it shows", async () => {
    const listWorld = await app.factories.world();
    const p = String(listWorld.project.id);
    const make = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const flag = await createFlagIn(p, listWorld.owner.key, `list-${n}-${i}`);
        for (let j = 0; j < 3; j++)
          await app.graphql(
            `mutation($p: ID!, $id: Int!) { updateFeatureFlag(projectId: $p, id: $id, input: { name: "v${j}" }) { id } }`,
            { p, id: flag.id },
            listWorld.owner.key,
          );
      }
    };
    const query = `query($p: ID!, $n: Int!) { featureFlags(projectId: $p, limit: $n) { results { key activity(limit: 2, page: 2) { totalCount page results { activity user { email } detail { changes { after } } } } } } }`;
    const read = async (n: number) => {
      let data: any;
      const count = await app.countQueries(async () => {
        data = await ok(query, { p, n }, listWorld.owner.key);
      });
      return { count, data };
    };
    await make(2);
    await read(1); // the key's first use of the hour writes last_used_at
    const two = await read(2);
    await make(4);
    const six = await read(6);
    expect(six.data.featureFlags.results).toHaveLength(6);
    for (const flag of six.data.featureFlags.results) {
      expect(flag.activity).toMatchObject({ totalCount: 4, page: 2 });
      expect(flag.activity.results.map((entry: any) => [entry.activity, entry.detail.changes?.[0].after ?? null])).toEqual([
        ['updated', 'v0'],
        ['created', null],
      ]);
    }
    expect(six.count).toBe(two.count);
  });

  it('needs activity_log:read', async () => {
    const flag = await createFlag({ key: 'gql-scoped' });
    const readOnly = await app.factories.key(world.owner.user, { scopes: ['feature_flag:read'] });
    const res = await app.graphql(
      `query($p: ID!, $id: Int!) { featureFlag(projectId: $p, id: $id) { key activity { totalCount } } }`,
      { p: projectId, id: flag.id },
      readOnly,
    );
    expect(res.body.errors?.[0]).toMatchObject({
      message: "API key missing required scope 'activity_log:read'",
      extensions: { code: 'FORBIDDEN' },
    });
  });
});

describe('featureFlagActivity and activity', () => {
  it("reads one flag's activity with the REST rules: 404 for another project's flag", async () => {
    const flag = await createFlag({ key: 'gql-by-id' });
    const query = `query($p: ID!, $id: Int!) { featureFlagActivity(projectId: $p, id: $id) { totalCount results { activity } } }`;
    expect(await ok(query, { p: projectId, id: flag.id })).toEqual({
      featureFlagActivity: { totalCount: 1, results: [{ activity: 'created' }] },
    });
    const elsewhere = await app.factories.world();
    const res = await app.graphql(query, { p: String(elsewhere.project.id), id: flag.id }, elsewhere.owner.key);
    expect(res.body.errors?.[0]).toMatchObject({ message: 'Not found.', extensions: { code: 'NOT_FOUND' } });
  });

  it('records experiments: created, updated with changes, deleted; a no-op update writes nothing', async () => {
    const created = await ok(
      `mutation($p: ID!, $input: ExperimentCreateInput!) { createExperiment(projectId: $p, input: $input) { id featureFlag { id } } }`,
      { p: projectId, input: { name: 'Checkout', featureFlagKey: 'gql-experiment-flag', filters: EXPERIMENT_FILTERS } },
    );
    const id = created.createExperiment.id;
    const update = (input: Record<string, unknown>) =>
      ok(
        `mutation($p: ID!, $id: Int!, $input: ExperimentUpdateInput!) { updateExperiment(projectId: $p, id: $id, input: $input) { id } }`,
        { p: projectId, id, input },
      );
    await update({ description: 'first', endDate: null });
    await update({ description: 'first' });
    await update({ startDate: '2021-12-01T10:23:00Z' });

    const read = await ok(
      `query($p: ID!, $id: Int!) { experiment(projectId: $p, id: $id) { activity { totalCount results { ${ENTRY} } } } }`,
      { p: projectId, id },
    );
    expect(read.experiment.activity.totalCount).toBe(3);
    expect(
      read.experiment.activity.results.map((entry: any) => [
        entry.activity,
        entry.scope,
        entry.itemId,
        entry.detail.name,
        entry.detail.changes,
      ]),
    ).toEqual([
      [
        'updated',
        'Experiment',
        String(id),
        'Checkout',
        [{ type: 'Experiment', action: 'created', field: 'start_date', before: null, after: '2021-12-01T10:23:00Z' }],
      ],
      [
        'updated',
        'Experiment',
        String(id),
        'Checkout',
        [{ type: 'Experiment', action: 'created', field: 'description', before: null, after: 'first' }],
      ],
      ['created', 'Experiment', String(id), 'Checkout', null],
    ]);

    await ok(`mutation($p: ID!, $id: Int!) { deleteExperiment(projectId: $p, id: $id) }`, { p: projectId, id });
    const experiments = await ok(
      `query($p: ID!) { activity(projectId: $p, scope: Experiment, limit: 2) { totalCount results { activity itemId } } }`,
      { p: projectId },
    );
    expect(experiments.activity).toEqual({
      totalCount: 4,
      results: [
        { activity: 'deleted', itemId: String(id) },
        { activity: 'updated', itemId: String(id) },
      ],
    });

    // Without a scope: every scope of the project, newest first (the delete soft-deletes the flag after removing the experiment).
    const everything = await ok(`query($p: ID!) { activity(projectId: $p, limit: 2) { results { activity scope itemId } } }`, {
      p: projectId,
    });
    expect(everything.activity.results).toEqual([
      { activity: 'deleted', scope: 'FeatureFlag', itemId: String(created.createExperiment.featureFlag.id) },
      { activity: 'deleted', scope: 'Experiment', itemId: String(id) },
    ]);
  });

  it('records cohorts: created, updated with changes, deleted and restored; a no-op update writes nothing', async () => {
    const filters = { properties: { type: 'AND', values: [{ key: 'plan', value: 'pro', type: 'person' }] } };
    const created = await ok(`mutation($p: ID!, $input: CohortCreateInput!) { createCohort(projectId: $p, input: $input) { id } }`, {
      p: projectId,
      input: { name: 'Pro users', filters },
    });
    const id = created.createCohort.id;
    const update = (input: Record<string, unknown>) =>
      ok(`mutation($p: ID!, $id: Int!, $input: CohortUpdateInput!) { updateCohort(projectId: $p, id: $id, input: $input) { id } }`, {
        p: projectId,
        id,
        input,
      });
    await update({ name: 'Paying users' });
    await update({ name: 'Paying users', filters });
    await update({ deleted: true });
    await update({ deleted: false });
    const data = await ok(
      `query($p: ID!) { activity(projectId: $p, scope: Cohort) { totalCount results { activity itemId detail { name changes { action field before after } } } } }`,
      {
        p: projectId,
      },
    );
    expect(data.activity.totalCount).toBe(4);
    expect(data.activity.results.map((entry: any) => [entry.activity, entry.itemId, entry.detail.name, entry.detail.changes])).toEqual([
      ['restored', String(id), 'Paying users', [{ action: 'changed', field: 'deleted', before: true, after: false }]],
      ['deleted', String(id), 'Paying users', [{ action: 'changed', field: 'deleted', before: false, after: true }]],
      ['updated', String(id), 'Paying users', [{ action: 'changed', field: 'name', before: 'Pro users', after: 'Paying users' }]],
      ['created', String(id), 'Pro users', null],
    ]);
  });

  it('resolves the users of a page in one batch', async () => {
    const others: Member[] = [
      await app.factories.member(world.organization, 'admin'),
      await app.factories.member(world.organization, 'admin'),
    ];
    const flag = await createFlag({ key: 'gql-many-users' });
    for (const [i, member] of [...others, world.owner, ...others].entries())
      expect((await updateFlag(flag.id, { name: `by-${i}` }, member.key)).body.errors).toBeUndefined();
    const query = `query($p: ID!) { activity(projectId: $p, scope: FeatureFlag, limit: 6) { results { user { email } } } }`;
    let data: any;
    const sql = await app.sqlDuring(async () => {
      data = await ok(query, { p: projectId });
    });
    expect(new Set(data.activity.results.map((entry: any) => entry.user.email))).toEqual(
      new Set([world.owner.user.email, ...others.map((m) => m.user.email)]),
    );
    expect(sql.filter((statement) => /from app_user where id in/.test(statement))).toHaveLength(1);
  });

  it('refuses a key without activity_log:read and a member of another organization', async () => {
    const query = `query($p: ID!) { activity(projectId: $p) { totalCount } }`;
    const flagsOnly = await app.factories.key(world.owner.user, { scopes: ['feature_flag:write'] });
    expect((await app.graphql(query, { p: projectId }, flagsOnly)).body.errors?.[0]).toMatchObject({
      message: "API key missing required scope 'activity_log:read'",
      extensions: { code: 'FORBIDDEN' },
    });
    const elsewhere = await app.factories.world();
    expect((await app.graphql(query, { p: projectId }, elsewhere.owner.key)).body.errors?.[0]).toMatchObject({
      message: "You don't have access to the project.",
      extensions: { code: 'FORBIDDEN' },
    });
  });
});
