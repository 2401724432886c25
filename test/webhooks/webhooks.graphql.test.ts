import { Webhook as StandardWebhook } from 'standardwebhooks';
import type { World } from '../helpers/factories';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { WebhookReceiver } from '../helpers/webhook-receiver';

/**
 * docs/webhooks.md over GraphQL: the twins of the REST rows (webhooks, webhook, webhookDeliveries,
 * createWebhook, updateWebhook, rotateWebhookSecret, deleteWebhook) with the same rules and
 * messages, and a change made through GraphQL delivered, verified with the reference library.
 */

let app: TestApp;
let world: World;
let projectId: string;
let receiver: WebhookReceiver;
const saved = { ...process.env };

const FIELDS = 'id url events enabled secret createdAt updatedAt createdBy { email }';

beforeAll(async () => {
  process.env.WEBHOOKS_ALLOW_PRIVATE_URLS = 'true';
  process.env.WEBHOOKS_RETRY_DELAYS = '1';
  app = await startTestApp({ jobs: true });
  world = await app.factories.world();
  projectId = String(world.project.id);
  receiver = await new WebhookReceiver().start();
});
afterAll(async () => {
  process.env = saved;
  await receiver.close();
  await app.close();
});

const gql = async (query: string, variables: Record<string, unknown> = {}, key = world.owner.key) =>
  (await app.graphql(query, { projectId, ...variables }, key)).body;

const CREATE = `mutation($projectId: ID!, $input: WebhookCreateInput!) { createWebhook(projectId: $projectId, input: $input) { ${FIELDS} } }`;
const ONE = `query($projectId: ID!, $id: Int!) { webhook(projectId: $projectId, id: $id) { ${FIELDS} } }`;

it('creates, lists, reads, edits, rotates and deletes a webhook; the secret only in two answers', async () => {
  const created = await gql(CREATE, { input: { url: receiver.url, events: ['feature_flag.created'] } });
  expect(created.errors).toBeUndefined();
  const hook = created.data.createWebhook;
  expect(hook).toMatchObject({
    url: receiver.url,
    events: ['feature_flag.created'],
    enabled: true,
    createdBy: { email: world.owner.user.email },
  });
  expect(hook.secret).toMatch(/^whsec_/);
  expect((await gql(ONE, { id: hook.id })).data.webhook.secret).toBeNull();
  const list = await gql(`query($projectId: ID!) { webhooks(projectId: $projectId) { count results { id secret } } }`);
  expect(list.data.webhooks).toEqual({ count: 1, results: [{ id: hook.id, secret: null }] });
  const updated = await gql(
    `mutation($projectId: ID!, $id: Int!, $input: WebhookUpdateInput!) { updateWebhook(projectId: $projectId, id: $id, input: $input) { events enabled secret } }`,
    { id: hook.id, input: { events: ['feature_flag.updated', 'feature_flag.deleted'], enabled: false } },
  );
  expect(updated.data.updateWebhook).toEqual({ events: ['feature_flag.updated', 'feature_flag.deleted'], enabled: false, secret: null });
  const rotated = await gql(`mutation($projectId: ID!, $id: Int!) { rotateWebhookSecret(projectId: $projectId, id: $id) { secret } }`, {
    id: hook.id,
  });
  expect(rotated.data.rotateWebhookSecret.secret).toMatch(/^whsec_/);
  expect(rotated.data.rotateWebhookSecret.secret).not.toBe(hook.secret);
  const deleted = await gql(`mutation($projectId: ID!, $id: Int!) { deleteWebhook(projectId: $projectId, id: $id) }`, { id: hook.id });
  expect(deleted.data.deleteWebhook).toBe(hook.id);
  expect((await gql(ONE, { id: hook.id })).errors![0].extensions).toMatchObject({ code: 'NOT_FOUND' });
});

it('refuses what REST refuses, with the same attr and message', async () => {
  process.env.WEBHOOKS_ALLOW_PRIVATE_URLS = 'false';
  try {
    const res = await gql(CREATE, { input: { url: 'http://169.254.169.254/', events: ['feature_flag.created'] } });
    expect(res.errors![0]).toMatchObject({
      message: 'The URL points to a loopback, private, link-local or otherwise non-public address.',
      extensions: { code: 'BAD_USER_INPUT', attr: 'url', reason: 'invalid_url' },
    });
  } finally {
    process.env.WEBHOOKS_ALLOW_PRIVATE_URLS = 'true';
  }
  const unknown = await gql(CREATE, { input: { url: receiver.url, events: ['nope'] } });
  expect(unknown.errors![0]).toMatchObject({ message: '"nope" is not a valid choice.', extensions: { attr: 'events' } });
  const member = await app.factories.member(world.organization, 'member');
  const refused = await gql(CREATE, { input: { url: receiver.url, events: ['feature_flag.created'] } }, member.key);
  expect(refused.errors![0]).toMatchObject({ message: 'You need to have admin level or higher.', extensions: { code: 'FORBIDDEN' } });
});

it('delivers a change made through GraphQL, and lists the delivery', async () => {
  const hook = (await gql(CREATE, { input: { url: receiver.url, events: ['feature_flag.updated'] } })).data.createWebhook;
  const flag = await gql(
    `mutation($projectId: ID!, $input: FeatureFlagCreateInput!) { createFeatureFlag(projectId: $projectId, input: $input) { id } }`,
    { input: { key: 'gql-hooked', filters: { groups: [{ properties: [], rollout_percentage: 100 }] } } },
  );
  expect(flag.errors).toBeUndefined();
  const id = flag.data.createFeatureFlag.id;
  const updated = await gql(
    `mutation($projectId: ID!, $id: Int!, $input: FeatureFlagUpdateInput!) { updateFeatureFlag(projectId: $projectId, id: $id, input: $input) { active } }`,
    { id, input: { active: false } },
  );
  expect(updated.errors).toBeUndefined();
  const [received] = await receiver.until(1, (r) => JSON.parse(r.body).data.item_id === String(id));
  const message = new StandardWebhook(hook.secret).verify(received.body, received.headers as Record<string, string>) as any;
  expect(message).toMatchObject({
    type: 'feature_flag.updated',
    data: { detail: { changes: [{ field: 'active', before: true, after: false }] } },
  });
  const DELIVERIES = `query($projectId: ID!, $id: Int!) { webhookDeliveries(projectId: $projectId, id: $id) { count results { id eventType status attempts responseStatus } } }`;
  const deadline = Date.now() + 20_000;
  let page = (await gql(DELIVERIES, { id: hook.id })).data.webhookDeliveries;
  while (page.results[0]?.status === 'pending' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    page = (await gql(DELIVERIES, { id: hook.id })).data.webhookDeliveries;
  }
  expect(page).toEqual({
    count: 1,
    results: [
      { id: received.headers['webhook-id'], eventType: 'feature_flag.updated', status: 'delivered', attempts: 1, responseStatus: 200 },
    ],
  });
});
