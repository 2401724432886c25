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
  run('mutation($projectId: ID!, $input: CohortInput!) { createCohort(projectId: $projectId, input: $input) { ...Cohort } }', {
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
    'mutation($projectId: ID!, $id: Int!, $input: CohortInput!) { updateCohort(projectId: $projectId, id: $id, input: $input) { ...Cohort } }',
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
