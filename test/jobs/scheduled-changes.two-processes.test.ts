// @slow: runs two service processes on one PostgreSQL database, or one on a fresh embedded database
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { transpiledCli } from '../helpers/cli';
import { createTestDatabase, type TestDatabase } from '../helpers/databases';
import { freePort, requestOnce, ServiceProcess } from '../helpers/service-process';

/**
 * docs/operations.md "The job engine" and docs/scheduled-changes.md: two service processes on one
 * PostgreSQL database both run the job engine; each due change is applied exactly once (one
 * 'scheduled change applied' line across both logs, one version bump, one activity entry), and
 * SIGTERM stops each engine with the process (exit code 0). The embedded database runs one service
 * process only: there the last describe below runs instead.
 */
const onServer = process.env.TEST_TEMPLATE_URL ? describe : describe.skip;
const CHANGES = 6;

jest.setTimeout(90_000);

onServer('two service processes, one database', () => {
  let cli: ReturnType<typeof transpiledCli>;
  let database: TestDatabase;
  const services: ServiceProcess[] = [];
  const urls: string[] = [];
  let boot: { personal_api_key: string; project_id: number };

  async function call(url: string, path: string, method = 'GET', body?: unknown) {
    const res = await requestOnce(`${url}/api/projects/${boot.project_id}${path}`, {
      method,
      headers: { Authorization: `Bearer ${boot.personal_api_key}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: res.body ? JSON.parse(res.body) : null };
  }

  beforeAll(async () => {
    cli = transpiledCli();
    database = await createTestDatabase();
    const bootstrapped = await cli.run(database.url, ['bootstrap', '--email', 'jobs@example.com']);
    expect(bootstrapped.code).toBe(0);
    boot = JSON.parse(bootstrapped.stdout);
    const { REDIS_URL: _shared, ...env } = process.env;
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      urls.push(`http://127.0.0.1:${port}`);
      services.push(
        new ServiceProcess(cli.dir, {
          ...env,
          DATABASE_URL: database.url,
          WEB_CONCURRENCY: '1',
          PORT: String(port),
          HOST: '127.0.0.1',
          LOG_LEVEL: 'info',
        }),
      );
    }
    await Promise.all(services.map((service) => service.waitFor((lines) => lines.some((l) => l.msg === 'listening'), 60_000)));
  }, 120_000);

  afterAll(async () => {
    for (const service of services) {
      if (service.running) service.kill('SIGKILL');
      await service.exited;
    }
    await database?.drop();
    cli?.remove();
  });

  it('applies each due change once, whichever process takes it', async () => {
    const at = new Date(Date.now() + 3000).toISOString();
    const flags: Array<{ id: number; version: number }> = [];
    const changes: number[] = [];
    for (let i = 0; i < CHANGES; i++) {
      // Flags and changes are made through either process: the job is in the database, not in the process.
      const url = urls[i % 2];
      const flag = await call(url, '/feature_flags/', 'POST', {
        key: `twice-${i}`,
        filters: { groups: [{ properties: [], rollout_percentage: 100 }] },
      });
      expect(flag.status).toBe(201);
      flags.push(flag.body);
      const change = await call(url, '/scheduled_changes/', 'POST', {
        record_id: flag.body.id,
        payload: { operation: 'update_status', value: false },
        scheduled_at: at,
      });
      expect(change.status).toBe(201);
      changes.push(change.body.id);
    }
    const applied = () => services.flatMap((service) => service.lines.filter((l) => l.msg === 'scheduled change applied'));
    await Promise.all(services.map((service) => service.waitFor(() => applied().length >= CHANGES, 30_000)));
    // Give a second delivery, if there were one, time to show.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const ids = applied().map((l) => l.scheduled_change);
    expect([...ids].sort()).toEqual([...changes].sort());
    for (const [i, flag] of flags.entries()) {
      const now = await call(urls[(i + 1) % 2], `/feature_flags/${flag.id}/`);
      expect(now.body).toMatchObject({ active: false, version: flag.version + 1 });
      const activity = await call(urls[i % 2], `/feature_flags/${flag.id}/activity/`);
      expect(activity.body.results.filter((entry: { activity: string }) => entry.activity === 'updated')).toHaveLength(1);
      const change = await call(urls[i % 2], `/scheduled_changes/${changes[i]}/`);
      expect(change.body).toMatchObject({ failure_reason: null, executed_at: expect.any(String) });
    }
  });

  it('SIGTERM stops each process and its engine: exit code 0', async () => {
    for (const service of services) service.kill('SIGTERM');
    for (const service of services) expect(await service.exited).toEqual({ code: 0, signal: null });
  });
});

/**
 * The same on the embedded database (no DATABASE_URL): the one service process installs the engine's
 * schema on a fresh data directory, applies a due change, and stops its engine on SIGTERM. The CLI
 * beside it shares its database (docs/operations.md, "The job engine").
 */
const onEmbedded = process.env.TEST_TEMPLATE_URL ? describe.skip : describe;

onEmbedded('one service process on the embedded database', () => {
  let cli: ReturnType<typeof transpiledCli>;
  let scratch: string;
  let service: ServiceProcess;
  let url: string;

  beforeAll(async () => {
    cli = transpiledCli();
    scratch = mkdtempSync(path.join(tmpdir(), 'flags-jobs-'));
    const { DATABASE_URL: _none, REDIS_URL: _shared, ...env } = process.env;
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    service = new ServiceProcess(cli.dir, {
      ...env,
      DATA_DIR: path.join(scratch, 'data'),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
    });
    await service.waitFor((lines) => lines.some((l) => l.msg === 'listening'), 60_000);
  }, 120_000);

  afterAll(async () => {
    if (service?.running) service.kill('SIGKILL');
    await service?.exited;
    cli?.remove();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('applies a due change once and stops with exit code 0', async () => {
    const bootstrapped = await cli.run('', ['bootstrap', '--email', 'jobs@example.com'], {
      env: { DATABASE_URL: undefined, DATA_DIR: path.join(scratch, 'data') },
    });
    expect(bootstrapped.code).toBe(0);
    const boot = JSON.parse(bootstrapped.stdout) as { personal_api_key: string; project_id: number };
    const call = async (route: string, method = 'GET', body?: unknown) => {
      const res = await requestOnce(`${url}/api/projects/${boot.project_id}${route}`, {
        method,
        headers: { Authorization: `Bearer ${boot.personal_api_key}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: res.body ? JSON.parse(res.body) : null };
    };
    const flag = await call('/feature_flags/', 'POST', {
      key: 'embedded-scheduled',
      filters: { groups: [{ properties: [], rollout_percentage: 100 }] },
    });
    expect(flag.status).toBe(201);
    const change = await call('/scheduled_changes/', 'POST', {
      record_id: flag.body.id,
      payload: { operation: 'update_status', value: false },
      scheduled_at: new Date(Date.now() + 2000).toISOString(),
    });
    expect(change.status).toBe(201);
    await service.waitFor((lines) => lines.some((l) => l.msg === 'scheduled change applied'), 30_000);
    expect((await call(`/feature_flags/${flag.body.id}/`)).body).toMatchObject({ active: false, version: flag.body.version + 1 });
    expect((await call(`/scheduled_changes/${change.body.id}/`)).body).toMatchObject({
      failure_reason: null,
      executed_at: expect.any(String),
    });
    service.kill('SIGTERM');
    expect(await service.exited).toEqual({ code: 0, signal: null });
    expect(service.lines.filter((l) => l.msg === 'scheduled change applied')).toHaveLength(1);
  });
});
