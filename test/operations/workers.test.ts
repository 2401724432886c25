// @slow: runs the service as two worker processes on PostgreSQL, kills one, then stops them all
import { transpiledCli } from '../helpers/cli';
import { createTestDatabase, type TestDatabase } from '../helpers/databases';
import { alive, freePort, requestOnce, ServiceProcess } from '../helpers/service-process';

/**
 * WEB_CONCURRENCY (docs/operations.md#workers) on PostgreSQL, through real processes and real HTTP:
 * a primary and two workers on one port. Every worker serves (each access-log line carries the pid
 * of the process that answered it); the burst budget of docs/rest-api.md §1.6 holds exactly across
 * both without Redis (the primary holds the windows); a killed worker is replaced; SIGTERM lets a
 * request in flight finish and stops every process with exit code 0. The embedded database runs
 * one process only, so there these cases show as skipped.
 */
const onServer = process.env.TEST_TEMPLATE_URL ? describe : describe.skip;
const BURST = 8;

jest.setTimeout(90_000);

onServer('WEB_CONCURRENCY=2 on PostgreSQL', () => {
  let cli: ReturnType<typeof transpiledCli>;
  let database: TestDatabase;
  let service: ServiceProcess;
  let baseUrl: string;
  let boot: { personal_api_key: string; project_id: number };
  let requestCount = 0;

  const workerPids = () => new Set(service.lines.filter((l) => l.msg === 'listening').map((l) => l.pid));
  /** The pid whose access-log line answered the request sent with this id. */
  const servedBy = (requestId: string) => service.lines.find((l) => l.msg === 'request' && l.request_id === requestId)?.pid;

  async function get(path: string, headers: Record<string, string> = {}) {
    const requestId = `workers-test-${++requestCount}`;
    const res = await requestOnce(`${baseUrl}${path}`, { headers: { ...headers, 'X-Request-Id': requestId } });
    return { ...res, requestId };
  }

  beforeAll(async () => {
    cli = transpiledCli();
    database = await createTestDatabase();
    const bootstrapped = await cli.run(database.url, ['bootstrap', '--email', 'workers@example.com']);
    expect(bootstrapped.code).toBe(0);
    boot = JSON.parse(bootstrapped.stdout);
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    const { REDIS_URL: _shared, ...env } = process.env;
    service = new ServiceProcess(cli.dir, {
      ...env,
      DATABASE_URL: database.url,
      WEB_CONCURRENCY: '2',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      RATE_LIMIT_ENABLED: 'true',
      RATE_LIMIT_BURST_PER_MINUTE: String(BURST),
    });
    // The primary's line and each worker's own 'listening' line travel through different processes'
    // writes to one pipe, so either may be read first: wait for all three.
    await service.waitFor((lines) => lines.some((l) => l.msg === 'all workers listening') && workerPids().size === 2, 60_000);
  }, 120_000);

  afterAll(async () => {
    if (service?.running) {
      service.kill('SIGKILL');
      await service.exited;
    }
    // Workers whose primary is gone exit on their own; make sure of it.
    for (const pid of service ? workerPids() : []) if (alive(pid)) process.kill(pid, 'SIGKILL');
    await database?.drop();
    cli?.remove();
  });

  it('starts a primary and two workers, each listening under its own pid', () => {
    const primary = service.lines.find((l) => l.msg === 'starting workers');
    expect(primary).toMatchObject({ pid: service.pid, workers: 2, rate_limits: 'primary' });
    const pids = workerPids();
    expect(pids.size).toBe(2);
    expect(pids.has(service.pid)).toBe(false);
    for (const line of service.lines.filter((l) => l.msg === 'listening')) expect(line.rate_limits).toBe('primary');
  });

  it('serves requests from both workers', async () => {
    const served = new Set<number | undefined>();
    for (let i = 0; i < 10; i++) {
      const res = await get('/_health');
      expect(res.status).toBe(200);
      await service.waitFor(() => servedBy(res.requestId) !== undefined, 5000);
      served.add(servedBy(res.requestId));
    }
    expect(served).toEqual(workerPids());
  });

  it('keeps the burst budget exact across the workers without Redis: request N+1 is refused', async () => {
    const auth = { Authorization: `Bearer ${boot.personal_api_key}` };
    const answers: Array<{ status: number; pid: number | undefined }> = [];
    for (let i = 0; i < 2 * BURST; i++) {
      const res = await get(`/api/projects/${boot.project_id}/feature_flags/`, auth);
      await service.waitFor(() => servedBy(res.requestId) !== undefined, 5000);
      answers.push({ status: res.status, pid: servedBy(res.requestId) });
    }
    expect(answers.map((a) => a.status)).toEqual([...Array(BURST).fill(200), ...Array(BURST).fill(429)]);
    // Both workers answered within the budget: each alone would have admitted its own eight.
    expect(new Set(answers.slice(0, BURST).map((a) => a.pid))).toEqual(workerPids());
  });

  it('replaces a worker that is killed, and the budget survives it (the primary holds it)', async () => {
    const [victim, survivor] = [...workerPids()];
    process.kill(victim, 'SIGKILL');
    await service.waitFor((lines) =>
      lines.some((l) => l.msg === 'worker exited unexpectedly; starting a replacement' && l.pid === service.pid),
    );
    const crash = service.lines.find((l) => l.msg === 'worker exited unexpectedly; starting a replacement')!;
    expect(crash).toMatchObject({ pid: service.pid, worker_pid: victim, code: null, signal: 'SIGKILL', restart_in_ms: 250 });
    await service.waitFor(() => workerPids().size === 3);
    const replacement = [...workerPids()].find((pid) => pid !== victim && pid !== survivor)!;
    expect(alive(victim)).toBe(false);

    const served = new Set<number | undefined>();
    for (let i = 0; i < 10; i++) {
      const res = await get('/_health');
      expect(res.status).toBe(200);
      await service.waitFor(() => servedBy(res.requestId) !== undefined, 5000);
      served.add(servedBy(res.requestId));
    }
    expect(served).toEqual(new Set([survivor, replacement]));
    const throttled = await get(`/api/projects/${boot.project_id}/feature_flags/`, { Authorization: `Bearer ${boot.personal_api_key}` });
    expect(throttled.status).toBe(429);
  });

  it('on SIGTERM finishes a request in flight, then every process exits with 0', async () => {
    const created = await cli.run(database.url, ['key:create', '--email', 'workers@example.com']);
    expect(created.code).toBe(0);
    const key = (JSON.parse(created.stdout) as { personal_api_key: string }).personal_api_key;
    const pids = [...workerPids()].filter(alive);
    expect(pids).toHaveLength(2);

    // A create whose body is half sent when the signal comes: its worker must wait for the rest and answer.
    const body = JSON.stringify({ key: 'in-flight-at-shutdown', name: 'Sent across SIGTERM' });
    const { request } = await import('node:http');
    const answered = new Promise<number>((resolve, reject) => {
      const req = request(
        `${baseUrl}/api/projects/${boot.project_id}/feature_flags/`,
        {
          method: 'POST',
          agent: false,
          headers: {
            Authorization: `Bearer ${key}`,
            'Content-Type': 'application/json',
            'Content-Length': String(Buffer.byteLength(body)),
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode!));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 10));
      setTimeout(() => {
        service.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(10)), 500);
      }, 300);
    });
    expect(await answered).toBe(201);
    expect(await service.exited).toEqual({ code: 0, signal: null });
    for (const pid of pids) {
      expect(alive(pid)).toBe(false);
      expect(service.lines.some((l) => l.pid === pid && l.msg === 'stopped')).toBe(true);
    }
    expect(service.lines.filter((l) => l.pid === service.pid).map((l) => l.msg)).toEqual(
      expect.arrayContaining(['shutting down: workers finish in-flight requests', 'stopped']),
    );
  });
});
