import type { World } from '../helpers/factories';
import { expectRefused, notProvided } from '../helpers/graphql-refusal';
import { startTestApp, type TestApp } from '../helpers/test-app';

const F = { events: [{ order: 0, id: '$pageview' }], properties: [] };

let app: TestApp;
let world: World;
let projectId: string;

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
  projectId = String(world.project.id);
});
afterAll(() => app.close());

const FIELDS = `id name description startDate endDate featureFlagKey archived parameters secondaryMetrics filters createdAt updatedAt
  createdBy { email } featureFlag { id projectId key active deleted filters experimentSet experiments { id } }`;

async function create(input: Record<string, unknown>, key = world.owner.key) {
  return app.graphql(
    `mutation($p: ID!, $input: ExperimentCreateInput!) { createExperiment(projectId: $p, input: $input) { ${FIELDS} } }`,
    { p: projectId, input },
    key,
  );
}

describe('experiments over GraphQL', () => {
  it('creates, launches, lists and deletes with the same rules as REST', async () => {
    const created = await create({ name: 'Checkout', featureFlagKey: 'gql-checkout', filters: F });
    expect(created.status).toBe(200);
    const experiment = created.body.data!.createExperiment;
    expect(experiment).toMatchObject({
      name: 'Checkout',
      featureFlagKey: 'gql-checkout',
      startDate: null,
      archived: false,
      parameters: {},
      secondaryMetrics: [],
      createdBy: { email: world.owner.user.email },
      featureFlag: {
        key: 'gql-checkout',
        projectId: world.project.id,
        active: false,
        deleted: false,
        experimentSet: [experiment.id],
        experiments: [{ id: experiment.id }],
      },
    });

    const launched = await app.graphql(
      `mutation($p: ID!, $id: Int!, $input: ExperimentUpdateInput!) { updateExperiment(projectId: $p, id: $id, input: $input) { startDate featureFlag { active version } } }`,
      { p: projectId, id: experiment.id, input: { startDate: '2021-12-01T10:23:00Z' } },
      world.owner.key,
    );
    expect(launched.body.data).toEqual({
      updateExperiment: { startDate: '2021-12-01T10:23:00Z', featureFlag: { active: true, version: 2 } },
    });

    const listed = await app.graphql(
      `query($p: ID!) { running: experiments(projectId: $p, status: running) { count results { id } } drafts: experiments(projectId: $p, status: draft) { count } }`,
      { p: projectId },
      world.owner.key,
    );
    expect(listed.body.data).toEqual({ running: { count: 1, results: [{ id: experiment.id }] }, drafts: { count: 0 } });

    const deleted = await app.graphql(
      `mutation($p: ID!, $id: Int!) { deleteExperiment(projectId: $p, id: $id) }`,
      { p: projectId, id: experiment.id },
      world.owner.key,
    );
    expect(deleted.body.data).toEqual({ deleteExperiment: experiment.id });
    const flag = await app.graphql(
      `query($p: ID!, $id: Int!) { featureFlag(projectId: $p, id: $id) { deleted experimentSet } }`,
      { p: projectId, id: experiment.featureFlag.id },
      world.owner.key,
    );
    expect(flag.body.data).toEqual({ featureFlag: { deleted: true, experimentSet: [] } });
  });

  it('answers the REST messages as GraphQL errors', async () => {
    // ExperimentCreateInput.filters is non-null: GraphQL refuses a missing one before the resolver runs;
    // empty filters still reach the service and get its message.
    expectRefused(await create({ name: 'No filters', featureFlagKey: 'gql-none' }), notProvided('filters', 'JSONObject!'));
    const empty = await create({ name: 'Empty filters', featureFlagKey: 'gql-none', filters: {} });
    expect(empty.body.errors![0]).toMatchObject({
      message: 'Filters are required to create an Experiment',
      extensions: { code: 'BAD_USER_INPUT', type: 'validation_error', reason: 'invalid', attr: null },
    });
    const variants = await create({
      name: 'V',
      featureFlagKey: 'gql-v',
      filters: F,
      parameters: {
        feature_flag_variants: [
          { key: 'a', rollout_percentage: 50 },
          { key: 'b', rollout_percentage: 50 },
        ],
      },
    });
    expect(variants.body.errors![0]).toMatchObject({
      message: 'Feature flag variants must contain a control variant',
      extensions: { attr: 'parameters' },
    });
    const notFound = await app.graphql(
      `query($p: ID!) { experiment(projectId: $p, id: 999999) { id } }`,
      { p: projectId },
      world.owner.key,
    );
    expect(notFound.body.errors![0]).toMatchObject({ message: 'Not found.', extensions: { code: 'NOT_FOUND' } });
    const reader = await app.factories.member(world.organization, 'member', { scopes: ['experiment:read'] });
    const forbidden = await create({ name: 'R', featureFlagKey: 'gql-r', filters: F }, reader.key);
    expect(forbidden.body.errors![0]).toMatchObject({
      message: "API key missing required scope 'experiment:write'",
      extensions: { code: 'FORBIDDEN' },
    });
    const anonymous = await app.graphql(`query($p: ID!) { experiments(projectId: $p) { count } }`, { p: projectId }, null);
    expect(anonymous.body.errors![0].extensions.code).toBe('UNAUTHENTICATED');
  });
});
