// @slow: starts the service as its own process twice, killing the first with SIGKILL
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { transpiledCli } from '../helpers/cli';
import { createTestDatabase, type TestDatabase } from '../helpers/databases';
import { freePort, requestOnce, ServiceProcess } from '../helpers/service-process';
import { WebhookReceiver } from '../helpers/webhook-receiver';

/**
 * docs/webhooks.md "Delivery and retries": a message is queued in its change's transaction, so a
 * service killed with SIGKILL right after the change committed delivers it once started again; the
 * receiver verifies it with the Standard Webhooks reference library. The receiver answers 503 until
 * the kill, so whatever the first process attempted in between, only the restarted one can deliver.
 * On a PostgreSQL server, or on the embedded database's data directory.
 */
jest.setTimeout(180_000);

let cli: ReturnType<typeof transpiledCli>;
let receiver: WebhookReceiver;
let database: TestDatabase | null = null;
let scratch = '';
const services: ServiceProcess[] = [];

beforeAll(async () => {
  cli = transpiledCli();
  receiver = await new WebhookReceiver().start();
  scratch = mkdtempSync(path.join(tmpdir(), 'flags-webhooks-'));
  if (process.env.TEST_TEMPLATE_URL) database = await createTestDatabase();
}, 120_000);

afterAll(async () => {
  for (const service of services) {
    if (service.running) service.kill('SIGKILL');
    await service.exited;
  }
  await receiver.close();
  await database?.drop();
  cli?.remove();
  rmSync(scratch, { recursive: true, force: true });
});

/** Where the service keeps its data: the test's PostgreSQL database, else an embedded data directory. */
const where = () => (database ? { DATABASE_URL: database.url } : { DATABASE_URL: undefined, DATA_DIR: path.join(scratch, 'data') });

async function start(port: number): Promise<ServiceProcess> {
  const { DATABASE_URL: _db, REDIS_URL: _shared, ...env } = process.env;
  const service = new ServiceProcess(cli.dir, {
    ...env,
    ...where(),
    WEB_CONCURRENCY: '1',
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    WEBHOOKS_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOKS_RETRY_DELAYS: '1',
  });
  services.push(service);
  await service.waitFor((lines) => lines.some((l) => l.msg === 'listening'), 90_000);
  return service;
}

it('a message committed before a SIGKILL is delivered after the restart', async () => {
  const bootstrapped = await cli.run(database?.url ?? '', ['bootstrap', '--email', 'hooks@example.com'], { env: where() });
  expect(bootstrapped.code).toBe(0);
  const boot = JSON.parse(bootstrapped.stdout) as { personal_api_key: string; project_id: number };
  const port = await freePort();
  const call = async (route: string, method = 'GET', body?: unknown) => {
    const res = await requestOnce(`http://127.0.0.1:${port}/api/projects/${boot.project_id}${route}`, {
      method,
      headers: { Authorization: `Bearer ${boot.personal_api_key}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: res.body ? JSON.parse(res.body) : null };
  };

  receiver.answers = [503];
  const first = await start(port);
  const hook = await call('/webhooks/', 'POST', { url: receiver.url, events: ['feature_flag.created'] });
  expect(hook.status).toBe(201);
  const flag = await call('/feature_flags/', 'POST', { key: 'survives-sigkill' });
  // The change is committed (its answer is here); the message waits in the database. The kill comes
  // once the first attempt (503) is recorded, and with it the retry's job: a kill in the middle of an
  // attempt would leave that attempt to the job engine's expiry (docs/webhooks.md), minutes away.
  const deadline = Date.now() + 60_000;
  for (;;) {
    const listed = await call(`/webhooks/${hook.body.id}/deliveries/`);
    if (listed.body.results.some((d: { response_status: number | null }) => d.response_status === 503)) break;
    if (Date.now() > deadline) throw new Error(`no attempt recorded within 60 s: ${JSON.stringify(listed.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  first.kill('SIGKILL');
  expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
  expect(flag.status).toBe(201);
  receiver.answers = [200];

  const second = await start(port);
  await second.waitFor((lines) => lines.some((l) => l.msg === 'webhook delivered'), 60_000);
  const ours = receiver.received.filter((r) => JSON.parse(r.body).data.item_id === String(flag.body.id));
  const received = ours[ours.length - 1];
  const message = new StandardWebhook(hook.body.secret).verify(received.body, received.headers as Record<string, string>) as any;
  expect(message).toMatchObject({ type: 'feature_flag.created', data: { activity: 'created', item_id: String(flag.body.id) } });
  const deliveries = await call(`/webhooks/${hook.body.id}/deliveries/`);
  expect(deliveries.body.results).toEqual([
    expect.objectContaining({ id: received.headers['webhook-id'], status: 'delivered', response_status: 200 }),
  ]);
  // One message, whatever the number of attempts.
  expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
  second.kill('SIGTERM');
  expect(await second.exited).toEqual({ code: 0, signal: null });
});
