import type { World } from '../helpers/factories';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * docs/scheduled-changes.md over GraphQL: the twins of the REST rows (list, one, create, update,
 * delete) with the same rules and messages, and a change applied at its time by the job engine
 * (docs/operations.md "The job engine"), as seen through `scheduledChange`.
 */

let app: TestApp;
let world: World;
let projectId: string;
let serial = 0;

const FIELDS = 'id recordId modelName payload scheduledAt executedAt failureReason createdAt updatedAt createdBy { email }';

beforeAll(async () => {
  app = await startTestApp({ jobs: true });
  world = await app.factories.world();
  projectId = String(world.project.id);
});
afterAll(() => app.close());

const gql = async (query: string, variables: Record<string, unknown> = {}) =>
  (await app.graphql(query, { projectId, ...variables }, world.owner.key)).body;
const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();

async function createFlag() {
  const res = await app.request(`/api/projects/${projectId}/feature_flags/`, {
    method: 'POST',
    key: world.owner.key,
    body: { key: `gql-scheduled-${++serial}`, filters: { groups: [{ properties: [], rollout_percentage: 100 }] } },
  });
  expect(res.status).toBe(201);
  return res.body as { id: number; key: string; version: number };
}

const CREATE = `mutation($projectId: ID!, $input: ScheduledChangeCreateInput!) { createScheduledChange(projectId: $projectId, input: $input) { ${FIELDS} } }`;
const ONE = `query($projectId: ID!, $id: Int!) { scheduledChange(projectId: $projectId, id: $id) { ${FIELDS} } }`;

it('creates, lists, reads, edits and deletes a change', async () => {
  const flag = await createFlag();
  const created = await gql(CREATE, {
    input: { recordId: String(flag.id), payload: { operation: 'update_status', value: false }, scheduledAt: inSeconds(3600) },
  });
  expect(created.errors).toBeUndefined();
  const change = created.data.createScheduledChange;
  expect(change).toMatchObject({
    recordId: String(flag.id),
    modelName: 'FeatureFlag',
    executedAt: null,
    failureReason: null,
    createdBy: { email: world.owner.user.email },
  });
  const list = await gql(
    `query($projectId: ID!, $recordId: String) { scheduledChanges(projectId: $projectId, recordId: $recordId) { count results { id } } }`,
    { recordId: String(flag.id) },
  );
  expect(list.data.scheduledChanges).toEqual({ count: 1, results: [{ id: change.id }] });
  const later = inSeconds(7200);
  const updated = await gql(
    `mutation($projectId: ID!, $id: Int!, $input: ScheduledChangeUpdateInput!) { updateScheduledChange(projectId: $projectId, id: $id, input: $input) { id scheduledAt } }`,
    { id: change.id, input: { scheduledAt: later } },
  );
  expect(new Date(updated.data.updateScheduledChange.scheduledAt).getTime()).toBe(new Date(later).getTime());
  const deleted = await gql(`mutation($projectId: ID!, $id: Int!) { deleteScheduledChange(projectId: $projectId, id: $id) }`, {
    id: change.id,
  });
  expect(deleted.data.deleteScheduledChange).toBe(change.id);
  const gone = await gql(ONE, { id: change.id });
  expect(gone.errors![0].extensions).toMatchObject({ code: 'NOT_FOUND' });
});

it('refuses what REST refuses, with the same attr and message', async () => {
  const flag = await createFlag();
  const res = await gql(CREATE, {
    input: { recordId: String(flag.id), payload: { operation: 'delete', value: true }, scheduledAt: inSeconds(60) },
  });
  expect(res.errors![0]).toMatchObject({
    message: 'Unrecognized operation: delete',
    extensions: { code: 'BAD_USER_INPUT', attr: 'payload' },
  });
});

it('is applied at its time', async () => {
  const flag = await createFlag();
  const created = await gql(CREATE, {
    input: { recordId: String(flag.id), payload: { operation: 'update_status', value: false }, scheduledAt: inSeconds(1) },
  });
  const id = created.data.createScheduledChange.id;
  const deadline = Date.now() + 20_000;
  let change = (await gql(ONE, { id })).data.scheduledChange;
  while (!change.executedAt && !change.failureReason && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    change = (await gql(ONE, { id })).data.scheduledChange;
  }
  expect(change).toMatchObject({ failureReason: null, executedAt: expect.any(String) });
  const now = await gql(`query($projectId: ID!, $id: Int!) { featureFlag(projectId: $projectId, id: $id) { active version } }`, {
    id: flag.id,
  });
  expect(now.data.featureFlag).toEqual({ active: false, version: flag.version + 1 });
});
