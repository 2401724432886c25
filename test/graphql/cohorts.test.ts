import type { World } from '../helpers/factories';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { capture } from '../ingestion/capture-helpers';

/** Cohorts over GraphQL: the same service and errors as REST, and flag filters resolving their cohorts in one batch. */

let app: TestApp;
let world: World;
let projectId: string;

const COHORT = /* GraphQL */ `
  fragment Cohort on Cohort {
    id
    name
    description
    filters
    isStatic
    deleted
    count
    createdAt
    createdBy {
      email
    }
  }
`;
const run = async (query: string, variables: Record<string, unknown>): Promise<any> =>
  (await app.graphql(`${query}\n${COHORT}`, variables, world.owner.key)).body;
const create = (input: Record<string, unknown>) =>
  run('mutation($projectId: ID!, $input: CohortCreateInput!) { createCohort(projectId: $projectId, input: $input) { ...Cohort } }', {
    projectId,
    input,
  });
const plan = (value: string) => ({ properties: { type: 'AND', values: [{ key: 'plan', type: 'person', value }] } });

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
  projectId = String(world.project.id);
  const batch = ['a', 'b', 'c'].map((id, i) => ({
    event: 'seen',
    distinct_id: id,
    properties: { $set: { plan: i === 0 ? 'free' : 'pro' } },
  }));
  expect((await capture(app, '/batch/', { api_key: world.project.apiToken, batch })).status).toBe(200);
});
afterAll(() => app.close());

it('creates, reads, lists, updates and adds members', async () => {
  const dynamic = (await create({ name: 'Pro', filters: plan('pro') })).data.createCohort;
  expect(dynamic).toMatchObject({
    name: 'Pro',
    description: '',
    isStatic: false,
    deleted: false,
    count: 2,
    filters: plan('pro'),
    createdBy: { email: world.owner.user.email },
  });
  const statics = (await create({ name: 'Hand-picked', isStatic: true })).data.createCohort;
  expect(statics).toMatchObject({ isStatic: true, filters: null, count: 0 });

  const added = await run(
    'mutation($projectId: ID!, $id: Int!, $input: CohortMembersInput!) { addCohortMembers(projectId: $projectId, id: $id, input: $input) { ...Cohort } }',
    {
      projectId,
      id: statics.id,
      input: { distinctIds: ['a', 'zzz'] },
    },
  );
  expect(added.data.addCohortMembers.count).toBe(1);

  const updated = await run(
    'mutation($projectId: ID!, $id: Int!, $input: CohortUpdateInput!) { updateCohort(projectId: $projectId, id: $id, input: $input) { ...Cohort } }',
    {
      projectId,
      id: dynamic.id,
      input: { name: 'Free', filters: plan('free') },
    },
  );
  expect(updated.data.updateCohort).toMatchObject({ name: 'Free', count: 1 });

  const list = await run('query($projectId: ID!) { cohorts(projectId: $projectId, limit: 1) { count results { ...Cohort } } }', {
    projectId,
  });
  expect(list.data.cohorts.count).toBe(2);
  expect(list.data.cohorts.results.map((c: { id: number }) => c.id)).toEqual([statics.id]);
  const one = await run('query($projectId: ID!, $id: Int!) { cohort(projectId: $projectId, id: $id) { ...Cohort } }', {
    projectId,
    id: dynamic.id,
  });
  expect(one.data.cohort.name).toBe('Free');
});

it('answers the REST errors with GraphQL extensions', async () => {
  const res = await create({ name: 'bad', filters: { properties: { type: 'XOR', values: [] } } });
  expect(res.errors[0]).toMatchObject({
    message: 'Invalid cohort filters.',
    extensions: { code: 'BAD_USER_INPUT', type: 'validation_error', reason: 'invalid_input', attr: 'filters' },
  });
  const missing = await run('query($projectId: ID!, $id: Int!) { cohort(projectId: $projectId, id: $id) { ...Cohort } }', {
    projectId,
    id: 987654,
  });
  expect(missing.errors[0].extensions.code).toBe('NOT_FOUND');
  const dynamic = (await create({ name: 'dyn', filters: plan('x') })).data.createCohort;
  const refused = await run(
    'mutation($projectId: ID!, $id: Int!, $input: CohortMembersInput!) { addCohortMembers(projectId: $projectId, id: $id, input: $input) { ...Cohort } }',
    {
      projectId,
      id: dynamic.id,
      input: { distinctIds: ['a'] },
    },
  );
  expect(refused.errors[0].message).toBe('Persons can only be added to a static cohort.');
});

it("resolves every flag's cohorts in one statement for the whole page", async () => {
  const ids: number[] = [];
  for (let i = 0; i < 4; i++) ids.push((await create({ name: `c${i}`, filters: plan(`p${i}`) })).data.createCohort.id);
  const createFlag = (key: string, cohortIds: number[]) =>
    app.request(`/api/projects/${projectId}/feature_flags/`, {
      method: 'POST',
      key: world.owner.key,
      body: { key, filters: { groups: cohortIds.map((id) => ({ properties: [{ key: 'id', type: 'cohort', value: id }] })) } },
    });
  expect((await createFlag('two', [ids[0], ids[1]])).status).toBe(201);
  expect((await createFlag('others', [ids[2], ids[3], ids[0]])).status).toBe(201);
  expect((await createFlag('none', [])).status).toBe(201);
  const query = 'query($projectId: ID!) { featureFlags(projectId: $projectId) { results { key cohorts { id name } } } }';
  let body: any;
  const statements = await app.sqlDuring(async () => {
    body = (await app.graphql(query, { projectId }, world.owner.key)).body;
  });
  const byKey = Object.fromEntries(body.data.featureFlags.results.map((f: { key: string; cohorts: unknown }) => [f.key, f.cohorts]));
  expect(byKey).toEqual({
    none: [],
    others: [ids[0], ids[2], ids[3]].map((id, i) => ({ id, name: `c${[0, 2, 3][i]}` })),
    two: [ids[0], ids[1]].map((id, i) => ({ id, name: `c${i}` })),
  });
  expect(statements.filter((sql) => /from cohort /.test(sql))).toHaveLength(1);
});

it('needs cohort:read for FeatureFlag.cohorts; the flag itself stays readable without it', async () => {
  const cohort = (await create({ name: 'Secret cohort', filters: plan('secret') })).data.createCohort;
  const made = await app.request(`/api/projects/${projectId}/feature_flags/`, {
    method: 'POST',
    key: world.owner.key,
    body: { key: 'cohort-scope', filters: { groups: [{ properties: [{ key: 'id', type: 'cohort', value: cohort.id }] }] } },
  });
  expect(made.status).toBe(201);
  const query = 'query($p: ID!, $id: Int!) { featureFlag(projectId: $p, id: $id) { key cohorts { id name } } }';
  const flagsOnly = await app.factories.key(world.owner.user, { scopes: ['feature_flag:read'] });
  const denied = (await app.graphql(query, { p: projectId, id: made.body.id }, flagsOnly)).body;
  expect((denied.errors ?? []).map((e: any) => [e.message, e.extensions.code])).toEqual([
    ["API key missing required scope 'cohort:read'", 'FORBIDDEN'],
  ]);
  expect(JSON.stringify(denied)).not.toContain('Secret cohort');
  const flag = await app.graphql(
    'query($p: ID!, $id: Int!) { featureFlag(projectId: $p, id: $id) { key } }',
    { p: projectId, id: made.body.id },
    flagsOnly,
  );
  expect(flag.body).toEqual({ data: { featureFlag: { key: 'cohort-scope' } } });
  const both = await app.factories.key(world.owner.user, { scopes: ['feature_flag:read', 'cohort:read'] });
  const allowed = (await app.graphql(query, { p: projectId, id: made.body.id }, both)).body;
  expect(allowed).toEqual({ data: { featureFlag: { key: 'cohort-scope', cohorts: [{ id: cohort.id, name: 'Secret cohort' }] } } });
});

/** For operations that do not use the Cohort fragment. */
const bare = async (query: string, variables: Record<string, unknown>): Promise<any> =>
  (await app.graphql(query, variables, world.owner.key)).body;
const update = (id: number, input: Record<string, unknown>) =>
  run(
    'mutation($projectId: ID!, $id: Int!, $input: CohortUpdateInput!) { updateCohort(projectId: $projectId, id: $id, input: $input) { ...Cohort } }',
    {
      projectId,
      id,
      input,
    },
  );

it('soft-deletes and restores through updateCohort; a deleted cohort leaves the list but stays readable', async () => {
  const cohort = (await create({ name: 'Short-lived', filters: plan('pro') })).data.createCohort;
  const listed = async () =>
    (
      await bare('query($projectId: ID!) { cohorts(projectId: $projectId, limit: 1000) { results { id } } }', { projectId })
    ).data.cohorts.results.map((c: { id: number }) => c.id);
  expect(await listed()).toContain(cohort.id);
  const deleted = await update(cohort.id, { deleted: true });
  expect(deleted.data.updateCohort).toMatchObject({ id: cohort.id, deleted: true, name: 'Short-lived' });
  expect(await listed()).not.toContain(cohort.id);
  const read = await run('query($projectId: ID!, $id: Int!) { cohort(projectId: $projectId, id: $id) { ...Cohort } }', {
    projectId,
    id: cohort.id,
  });
  expect(read.data.cohort.deleted).toBe(true);
  // A flag cannot name it while deleted...
  const flag = await bare(
    'mutation($projectId: ID!, $input: FeatureFlagCreateInput!) { createFeatureFlag(projectId: $projectId, input: $input) { id key } }',
    {
      projectId,
      input: { key: 'on-short-lived', filters: { groups: [{ properties: [{ key: 'id', type: 'cohort', value: cohort.id }] }] } },
    },
  );
  expect(flag.errors[0]).toMatchObject({
    message: `Cohort with id ${cohort.id} does not exist`,
    extensions: { code: 'BAD_USER_INPUT', reason: 'cohort_does_not_exist', attr: 'filters' },
  });
  // ...and can again once restored.
  const restored = await update(cohort.id, { deleted: false });
  expect(restored.data.updateCohort).toMatchObject({ deleted: false, count: 2 });
  expect(await listed()).toContain(cohort.id);
  const again = await bare(
    'mutation($projectId: ID!, $input: FeatureFlagCreateInput!) { createFeatureFlag(projectId: $projectId, input: $input) { id key } }',
    {
      projectId,
      input: { key: 'on-short-lived', filters: { groups: [{ properties: [{ key: 'id', type: 'cohort', value: cohort.id }] }] } },
    },
  );
  expect(again.errors).toBeUndefined();
  expect(again.data.createFeatureFlag.key).toBe('on-short-lived');
});

it('refuses to change isStatic either way, with the REST error', async () => {
  const dynamic = (await create({ name: 'Dynamic', filters: plan('pro') })).data.createCohort;
  const statics = (await create({ name: 'Static', isStatic: true })).data.createCohort;
  for (const [cohort, isStatic] of [
    [dynamic, true],
    [statics, false],
  ] as const) {
    const res = await update(cohort.id, { isStatic, name: 'renamed' });
    expect(res.errors[0]).toMatchObject({
      message: 'is_static cannot be changed.',
      extensions: { code: 'BAD_USER_INPUT', type: 'validation_error', reason: 'invalid_input', attr: 'is_static' },
    });
  }
  // Refused as a whole: nothing else changed; sending the same value is fine.
  expect((await update(dynamic.id, { isStatic: false })).data.updateCohort).toMatchObject({ name: 'Dynamic', isStatic: false });
  expect((await update(statics.id, { isStatic: true })).data.updateCohort).toMatchObject({ name: 'Static', isStatic: true });
});

it('checks the cohorts a flag names on createFeatureFlag and updateFeatureFlag: missing, deleted, other project, behavioural', async () => {
  const behavioural = (
    await create({
      name: 'Visitors',
      filters: {
        properties: { type: 'OR', values: [{ key: '$pageview', type: 'behavioral', value: 'performed_event', event_type: 'events' }] },
      },
    })
  ).data.createCohort;
  const nesting = (
    await create({
      name: 'Returning buyers',
      filters: { properties: { type: 'AND', values: [{ key: 'id', type: 'cohort', value: behavioural.id }] } },
    })
  ).data.createCohort;
  const gone = (await create({ name: 'Gone', filters: plan('x') })).data.createCohort;
  await update(gone.id, { deleted: true });
  const other = await app.factories.world();
  const foreign = await app.request(`/api/projects/${other.project.id}/cohorts/`, {
    method: 'POST',
    key: other.owner.key,
    body: { name: 'Elsewhere', is_static: true },
  });
  expect(foreign.status).toBe(201);
  const fine = (await create({ name: 'Fine', filters: plan('pro') })).data.createCohort;

  const onCohort = (value: unknown) => ({ groups: [{ properties: [{ key: 'id', type: 'cohort', value }] }] });
  const createFlag = (key: string, value: unknown) =>
    bare('mutation($projectId: ID!, $input: FeatureFlagCreateInput!) { createFeatureFlag(projectId: $projectId, input: $input) { id } }', {
      projectId,
      input: { key, filters: onCohort(value) },
    });
  const behaviouralError = {
    message: "Cohort 'Visitors' with filters on events cannot be used in feature flags.",
    extensions: { code: 'BAD_USER_INPUT', type: 'validation_error', reason: 'behavioral_cohort_found', attr: 'filters' },
  };
  const missing = (id: unknown) => ({
    message: `Cohort with id ${id} does not exist`,
    extensions: { code: 'BAD_USER_INPUT', type: 'validation_error', reason: 'cohort_does_not_exist', attr: 'filters' },
  });
  expect((await createFlag('f-missing', 987654)).errors[0]).toMatchObject(missing(987654));
  expect((await createFlag('f-deleted', gone.id)).errors[0]).toMatchObject(missing(gone.id));
  expect((await createFlag('f-foreign', foreign.body.id)).errors[0]).toMatchObject(missing(foreign.body.id));
  expect((await createFlag('f-behavioural', behavioural.id)).errors[0]).toMatchObject(behaviouralError);
  expect((await createFlag('f-nested', nesting.id)).errors[0]).toMatchObject(behaviouralError);

  const created = await createFlag('f-fine', fine.id);
  expect(created.errors).toBeUndefined();
  const updateFlag = (value: unknown) =>
    bare(
      'mutation($projectId: ID!, $id: Int!, $input: FeatureFlagUpdateInput!) { updateFeatureFlag(projectId: $projectId, id: $id, input: $input) { id filters } }',
      { projectId, id: created.data.createFeatureFlag.id, input: { filters: onCohort(value) } },
    );
  expect((await updateFlag(987654)).errors[0]).toMatchObject(missing(987654));
  expect((await updateFlag(gone.id)).errors[0]).toMatchObject(missing(gone.id));
  expect((await updateFlag(foreign.body.id)).errors[0]).toMatchObject(missing(foreign.body.id));
  expect((await updateFlag(nesting.id)).errors[0]).toMatchObject(behaviouralError);
  const kept = await updateFlag(String(fine.id));
  expect(kept.errors).toBeUndefined();
  expect(kept.data.updateFeatureFlag.filters.groups[0].properties[0].value).toBe(String(fine.id));
});

it('counts a page of cohorts with one statement for all static counts, the cohorts read once, one per dynamic count', async () => {
  const page = 'query($projectId: ID!) { cohorts(projectId: $projectId, limit: 1000) { results { id isStatic count } } }';
  const countStatements = async () => {
    let body: any;
    const sql = await app.sqlDuring(async () => {
      body = (await app.graphql(page, { projectId }, world.owner.key)).body;
    });
    expect(body.errors).toBeUndefined();
    // The key lookup is remembered for a second: whether a request pays for it depends on timing.
    return {
      sql,
      results: body.data.cohorts.results as Array<{ isStatic: boolean; count: number | null }>,
    };
  };
  const before = await countStatements();
  // Three more static cohorts: their counts come from the one statement that counts every static cohort of the page.
  for (let i = 0; i < 3; i++) await create({ name: `static-${i}`, isStatic: true });
  const after = await countStatements();
  const staticCounts = (sql: string[]) => sql.filter((s) => /from cohort_person where cohort_id in/.test(s));
  expect(staticCounts(before.sql)).toHaveLength(1);
  expect(staticCounts(after.sql)).toHaveLength(1);
  expect(after.sql).toHaveLength(before.sql.length);
  // Dynamic cohorts: the project's cohorts are read once, then one counting statement per dynamic cohort
  // (its filters here are all exact in SQL); a behavioural one is null without a statement.
  await create({
    name: 'behavioural',
    filters: {
      properties: { type: 'OR', values: [{ key: '$pageview', type: 'behavioral', value: 'performed_event', event_type: 'events' }] },
    },
  });
  const last = await countStatements();
  const dynamic = last.results.filter((c) => !c.isStatic);
  const countable = dynamic.filter((c) => c.count !== null).length;
  expect(dynamic.length - countable).toBeGreaterThan(0);
  expect(last.sql.filter((s) => /from cohort where project_id = \d+$/.test(s))).toHaveLength(1);
  expect(last.sql.filter((s) => /from person t/.test(s))).toHaveLength(countable);
  // Everything else: the page and the static counts (the caller's standing in the project is remembered
  // from the create just before: src/app-caches.ts).
  expect(last.sql).toHaveLength(2 + 1 + countable);
});
