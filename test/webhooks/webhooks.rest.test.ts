import { Webhook as StandardWebhook } from 'standardwebhooks';
import type { World } from '../helpers/factories';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { WebhookReceiver, type Received } from '../helpers/webhook-receiver';

/**
 * docs/webhooks.md over REST: create/list/retrieve/update/delete, the secret shown once and
 * rotatable, URLs of non-public addresses refused (also behind a name), and deliveries that the
 * Standard Webhooks reference library (`standardwebhooks`, never the service's own code) verifies,
 * queued with the change (a refused change queues nothing), retried until a receiver accepts, and
 * listed with status and response code. WEBHOOKS_ALLOW_PRIVATE_URLS=true lets the receiver be local.
 */

let app: TestApp;
let world: World;
let base: string;
let receiver: WebhookReceiver;
let serial = 0;
const saved = { ...process.env };

beforeAll(async () => {
  process.env.WEBHOOKS_ALLOW_PRIVATE_URLS = 'true';
  process.env.WEBHOOKS_RETRY_DELAYS = '1';
  app = await startTestApp({ jobs: true });
  world = await app.factories.world();
  base = `/api/projects/${world.project.id}`;
  receiver = await new WebhookReceiver().start();
});
afterAll(async () => {
  process.env = saved;
  await receiver.close();
  await app.close();
});

const call = (method: string, path: string, body?: unknown, key = world.owner.key) => app.request(`${base}${path}`, { method, key, body });
const verify = (secret: string, r: Received) =>
  new StandardWebhook(secret).verify(r.body, r.headers as Record<string, string>) as { type: string; timestamp: string; data: any };
const ofItem = (type: string, itemId: number | string) => (r: Received) => {
  const body = JSON.parse(r.body);
  return body.type === type && body.data.item_id === String(itemId);
};

async function createWebhook(body: Record<string, unknown> = {}) {
  const res = await call('POST', '/webhooks/', { url: receiver.url, events: ['feature_flag.created', 'feature_flag.updated'], ...body });
  expect(res.status).toBe(201);
  return res.body as { id: number; secret: string; url: string; events: string[] };
}

async function createFlag(body: Record<string, unknown> = {}) {
  const res = await call('POST', '/feature_flags/', {
    key: `hooked-${++serial}`,
    filters: { groups: [{ properties: [], rollout_percentage: 50 }] },
    ...body,
  });
  expect(res.status).toBe(201);
  return res.body as { id: number; key: string };
}

/** Reads a webhook's deliveries until one is no longer pending. */
async function settled(webhookId: number, waitMs = 30_000) {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const res = await call('GET', `/webhooks/${webhookId}/deliveries/`);
    expect(res.status).toBe(200);
    if (res.body.results.every((d: { status: string }) => d.status !== 'pending') || Date.now() > deadline) return res.body;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('the resource', () => {
  it('shows the secret on create and on rotation only', async () => {
    const created = await createWebhook();
    expect(created).toMatchObject({ url: receiver.url, events: ['feature_flag.created', 'feature_flag.updated'], enabled: true });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const read = await call('GET', `/webhooks/${created.id}/`);
    expect(read.status).toBe(200);
    expect(read.body.secret).toBeNull();
    expect(read.body.created_by.email).toBe(world.owner.user.email);
    const list = await call('GET', '/webhooks/');
    expect(list.body.results.find((w: { id: number }) => w.id === created.id).secret).toBeNull();
    const rotated = await call('POST', `/webhooks/${created.id}/rotate_secret/`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.secret);
    const patched = await call('PATCH', `/webhooks/${created.id}/`, { events: ['experiment.launched'], enabled: false });
    expect(patched.body).toMatchObject({ events: ['experiment.launched'], enabled: false, secret: null, url: receiver.url });
    const put = await call('PUT', `/webhooks/${created.id}/`, { url: `${receiver.url}?v=2`, events: ['feature_flag.deleted'] });
    expect(put.body).toMatchObject({ url: `${receiver.url}?v=2`, events: ['feature_flag.deleted'] });
    expect((await call('DELETE', `/webhooks/${created.id}/`)).status).toBe(204);
    expect((await call('GET', `/webhooks/${created.id}/`)).status).toBe(404);
  });

  it.each([
    [{ events: ['feature_flag.created'] }, 'url', 'required'],
    [{ url: 'https://1.1.1.1/' }, 'events', 'required'],
    [{ url: 'https://1.1.1.1/', events: [] }, 'events', 'empty'],
    [{ url: 'https://1.1.1.1/', events: ['flag.exploded'] }, 'events', 'invalid_choice'],
    [{ url: 'https://1.1.1.1/', events: 'feature_flag.created' }, 'events', 'not_a_list'],
    [{ url: 'https://1.1.1.1/', events: Array(21).fill('feature_flag.created') }, 'events', 'max_length'],
    [{ url: 'ftp://1.1.1.1/', events: ['feature_flag.created'] }, 'url', 'invalid_url'],
    [{ url: 'not a url', events: ['feature_flag.created'] }, 'url', 'invalid_url'],
    [{ url: 'https://user:pw@1.1.1.1/', events: ['feature_flag.created'] }, 'url', 'invalid_url'],
    [{ url: `https://1.1.1.1/${'a'.repeat(2000)}`, events: ['feature_flag.created'] }, 'url', 'max_length'],
    [{ url: 'https://1.1.1.1/', events: ['feature_flag.created'], enabled: 'sometimes' }, 'enabled', 'invalid_input'],
  ])('refuses case %#, at its attr, and stores nothing', async (body, attr, code) => {
    const before = (await call('GET', '/webhooks/')).body.count;
    const res = await call('POST', '/webhooks/', body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: 'validation_error', attr, code });
    expect((await call('GET', '/webhooks/')).body.count).toBe(before);
  });

  it('refuses a member who is not an admin', async () => {
    const member = await app.factories.member(world.organization, 'member');
    const res = await call('POST', '/webhooks/', { url: 'https://1.1.1.1/', events: ['feature_flag.created'] }, member.key);
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe('You need to have admin level or higher.');
    expect((await call('GET', '/webhooks/', undefined, member.key)).status).toBe(200);
  });
});

describe('which URLs', () => {
  beforeAll(() => {
    process.env.WEBHOOKS_ALLOW_PRIVATE_URLS = 'false';
  });
  afterAll(() => {
    process.env.WEBHOOKS_ALLOW_PRIVATE_URLS = 'true';
  });

  it.each([
    'http://127.0.0.1:8000/',
    'http://10.1.2.3/',
    'http://172.16.0.1/',
    'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://0.0.0.0/',
    'http://100.64.0.1/',
    'http://224.0.0.1/',
    'http://[::1]/',
    'http://[fd00::1]/',
    'http://[fe80::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::]/',
    // IPv4-compatible IPv6 (::/96, deprecated) embeds an IPv4 address: loopback and private here.
    'http://[::127.0.0.1]/',
    'http://[::a00:1]/',
    // A name is judged by the addresses it resolves to.
    'http://localhost:3000/',
  ])('refuses %s', async (url) => {
    const res = await call('POST', '/webhooks/', { url, events: ['feature_flag.created'] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ attr: 'url', code: 'invalid_url' });
  });

  it('refuses an update to such a URL, and keeps the old one', async () => {
    const created = await call('POST', '/webhooks/', { url: 'https://1.1.1.1/hook', events: ['feature_flag.created'] });
    expect(created.status).toBe(201);
    const res = await call('PATCH', `/webhooks/${created.body.id}/`, { url: 'http://127.0.0.1/' });
    expect(res.status).toBe(400);
    expect((await call('GET', `/webhooks/${created.body.id}/`)).body.url).toBe('https://1.1.1.1/hook');
    await call('DELETE', `/webhooks/${created.body.id}/`);
  });
});

describe('deliveries', () => {
  it('every delivery verifies with the reference library and carries the activity entry', async () => {
    const hook = await createWebhook();
    const flag = await createFlag();
    const [created] = await receiver.until(1, ofItem('feature_flag.created', flag.id));
    const message = verify(hook.secret, created);
    expect(message).toMatchObject({
      type: 'feature_flag.created',
      data: { scope: 'FeatureFlag', item_id: String(flag.id), activity: 'created', user: { email: world.owner.user.email } },
    });
    expect(created.headers['webhook-id']).toMatch(/^msg_/);
    expect(created.headers['content-type']).toBe('application/json');

    expect((await call('PATCH', `/feature_flags/${flag.id}/`, { name: 'now named' })).status).toBe(200);
    const [updated] = await receiver.until(1, ofItem('feature_flag.updated', flag.id));
    expect(verify(hook.secret, updated).data.detail.changes).toEqual([
      { type: 'FeatureFlag', action: 'changed', field: 'name', before: '', after: 'now named' },
    ]);
    const deliveries = await settled(hook.id);
    expect(deliveries.results.length).toBeGreaterThanOrEqual(2);
    const delivered = await call('GET', `/webhooks/${hook.id}/deliveries/?status=delivered`);
    expect(delivered.body.count).toBe(deliveries.count);
    expect((await call('GET', `/webhooks/${hook.id}/deliveries/?status=failed`)).body.count).toBe(0);
    const badStatus = await call('GET', `/webhooks/${hook.id}/deliveries/?status=lost`);
    expect(badStatus.status).toBe(400);
    expect(badStatus.body).toMatchObject({ attr: 'status', code: 'invalid_choice' });
    expect(deliveries.results[0]).toMatchObject({ status: 'delivered', response_status: 200, attempts: 1, error: null });
    await call('DELETE', `/webhooks/${hook.id}/`);
  });

  it('a receiver answering 500 then 200 gets the delivery twice, and it is marked delivered', async () => {
    const hook = await createWebhook({ events: ['feature_flag.created'] });
    receiver.answers = [500, 200];
    const flag = await createFlag();
    const twice = await receiver.until(2, ofItem('feature_flag.created', flag.id));
    expect(twice[0].headers['webhook-id']).toBe(twice[1].headers['webhook-id']);
    expect(twice[0].body).toBe(twice[1].body);
    for (const r of twice) verify(hook.secret, r);
    const { results } = await settled(hook.id);
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({
      status: 'delivered',
      attempts: 2,
      response_status: 200,
      error: null,
      event_type: 'feature_flag.created',
    });
    receiver.answers = [200];
    await call('DELETE', `/webhooks/${hook.id}/`);
  });

  it('a delivery failing past the retry window is marked failed', async () => {
    process.env.WEBHOOKS_RETRY_WINDOW_SECONDS = '1.5';
    try {
      const hook = await createWebhook({ events: ['feature_flag.created'] });
      receiver.answers = [503];
      await createFlag();
      const { results } = await settled(hook.id);
      expect(results[0]).toMatchObject({ status: 'failed', response_status: 503, next_attempt_at: null });
      expect(results[0].attempts).toBeGreaterThanOrEqual(1);
      expect(results[0].error).toContain('503');
      await call('DELETE', `/webhooks/${hook.id}/`);
    } finally {
      delete process.env.WEBHOOKS_RETRY_WINDOW_SECONDS;
      receiver.answers = [200];
    }
  });

  it('the address is checked again before each attempt: a refused one sends nothing and is retried', async () => {
    const hook = await createWebhook({ events: ['feature_flag.created'] });
    process.env.WEBHOOKS_ALLOW_PRIVATE_URLS = 'false';
    let flag: { id: number };
    try {
      flag = await createFlag();
      const deadline = Date.now() + 20_000;
      let delivery = (await call('GET', `/webhooks/${hook.id}/deliveries/`)).body.results[0];
      while (delivery.attempts === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        delivery = (await call('GET', `/webhooks/${hook.id}/deliveries/`)).body.results[0];
      }
      expect(delivery).toMatchObject({ status: 'pending', response_status: null });
      expect(delivery.error).toContain('non-public address');
      expect(receiver.received.filter(ofItem('feature_flag.created', flag.id))).toEqual([]);
    } finally {
      process.env.WEBHOOKS_ALLOW_PRIVATE_URLS = 'true';
    }
    await receiver.until(1, ofItem('feature_flag.created', flag.id));
    expect((await settled(hook.id)).results[0]).toMatchObject({ status: 'delivered', error: null });
    await call('DELETE', `/webhooks/${hook.id}/`);
  });

  it('a refused change sends nothing', async () => {
    const hook = await createWebhook();
    const flag = await createFlag();
    await receiver.until(1, ofItem('feature_flag.created', flag.id));
    await settled(hook.id);
    const before = (await call('GET', `/webhooks/${hook.id}/deliveries/`)).body.count;
    const refused = await call('PATCH', `/feature_flags/${flag.id}/`, {
      filters: { groups: [{ properties: [], rollout_percentage: 150 }] },
    });
    expect(refused.status).toBe(400);
    const stale = await call('PATCH', `/feature_flags/${flag.id}/`, { name: 'x', version: 999 });
    expect(stale.status).toBe(409);
    // Deliveries are written in the change's transaction: none written is none sent.
    expect((await call('GET', `/webhooks/${hook.id}/deliveries/`)).body.count).toBe(before);
    expect(receiver.received.filter(ofItem('feature_flag.updated', flag.id))).toEqual([]);
    await call('DELETE', `/webhooks/${hook.id}/`);
  });

  it('a disabled webhook, or one not asking for the event, queues nothing', async () => {
    const off = await createWebhook({ enabled: false });
    const other = await createWebhook({ events: ['experiment.launched'] });
    await createFlag();
    expect((await call('GET', `/webhooks/${off.id}/deliveries/`)).body.count).toBe(0);
    expect((await call('GET', `/webhooks/${other.id}/deliveries/`)).body.count).toBe(0);
    await call('DELETE', `/webhooks/${off.id}/`);
    await call('DELETE', `/webhooks/${other.id}/`);
  });

  it('an experiment announces its launch and its stop; a rotated secret signs what follows', async () => {
    const hook = await createWebhook({ events: ['experiment.launched', 'experiment.stopped'] });
    const created = await call('POST', '/experiments/', {
      name: `hooked experiment ${++serial}`,
      feature_flag_key: `hooked-experiment-${serial}`,
      filters: { events: [{ order: 0, id: '$pageview' }], properties: [] },
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect((await call('PATCH', `/experiments/${id}/`, { start_date: '2026-01-01T00:00:00Z' })).status).toBe(200);
    const [launched] = await receiver.until(1, ofItem('experiment.launched', id));
    expect(verify(hook.secret, launched).data.detail.changes).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'start_date', before: null })]),
    );
    const rotated = (await call('POST', `/webhooks/${hook.id}/rotate_secret/`)).body.secret as string;
    expect((await call('PATCH', `/experiments/${id}/`, { end_date: '2026-02-01T00:00:00Z' })).status).toBe(200);
    const [stopped] = await receiver.until(1, ofItem('experiment.stopped', id));
    expect(verify(rotated, stopped).type).toBe('experiment.stopped');
    expect(() => verify(hook.secret, stopped)).toThrow();
    await call('DELETE', `/webhooks/${hook.id}/`);
  });

  it("an attempt cut off by a crash is the job engine's to retry after 60 s", async () => {
    const [queue] = await app.factories.sql("select expire_seconds from pgboss.queue where name = 'webhook-deliveries'");
    expect(Number(queue.expire_seconds)).toBe(60);
  });

  it('a webhook deleted while a change is being saved never fails that change', async () => {
    const { id: flagId } = await createFlag();
    for (let round = 0; round < 30; round++) {
      const { id } = await createWebhook({ url: 'http://93.184.216.34/' });
      const [patched, removed] = await Promise.all([
        call('PATCH', `/feature_flags/${flagId}/`, { name: `renamed ${round}` }),
        new Promise((resolve) => setTimeout(resolve, round % 10)).then(() => call('DELETE', `/webhooks/${id}/`)),
      ]);
      expect([round, patched.status, removed.status]).toEqual([round, 200, 204]);
    }
  });

  it('a project has at most 20 webhooks', async () => {
    const count = (await call('GET', '/webhooks/')).body.count;
    const made: number[] = [];
    for (let i = count; i < 20; i++) made.push((await createWebhook({ enabled: false })).id);
    const res = await call('POST', '/webhooks/', { url: receiver.url, events: ['feature_flag.created'] });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('max_webhooks');
    for (const id of made) await call('DELETE', `/webhooks/${id}/`);
  });
});
