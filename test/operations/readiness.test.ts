// @slow: starts, freezes and kills a database process of its own
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Writable } from 'node:stream';
import { MikroORM } from '@mikro-orm/postgresql';
import pino from 'pino';
import { ormConfig } from '../../mikro-orm.config';
import { createApp } from '../../src/app';
import { fetchChecked } from '../helpers/openapi-contract';
import { freePort } from '../helpers/service-process';
import { GENEROUS_RATE_LIMITS } from '../helpers/test-app';

/**
 * GET /_readyz against a database this test owns: a throwaway PostgreSQL (PGlite served over its
 * socket, in a child process, on a fixed port) that the test starts, freezes (SIGSTOP: connections
 * are accepted, nothing answers), thaws, kills and starts again. The service answers 503 while the
 * database cannot answer, never hangs, and 200 again once it can, without a restart.
 */
const root = path.resolve(__dirname, '../..');

/** In-memory PGlite behind the socket server; prints "ready" once it accepts connections. */
const DATABASE_SCRIPT = `
const { PGlite } = require('@electric-sql/pglite');
const { PGLiteSocketServer } = require('@electric-sql/pglite-socket');
(async () => {
  const db = await PGlite.create();
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: Number(process.argv[1]), maxConnections: 8 });
  await server.start();
  process.stdout.write('ready\\n');
})().catch((error) => { process.stderr.write(String(error && error.stack || error)); process.exit(1); });
`;

let port: number;
let database: ChildProcess | null = null;
let orm: MikroORM;
let server: Server;
let baseUrl: string;
let stopApp: () => Promise<void>;
const lines: string[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    done();
  },
});

async function startDatabase(): Promise<void> {
  const child = spawn(process.execPath, ['-e', DATABASE_SCRIPT, String(port)], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  database = child;
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => String(chunk).includes('ready') && resolve());
    child.once('exit', (code) => reject(new Error(`the test database exited (${code}): ${stderr}`)));
  });
}

async function killDatabase(): Promise<void> {
  const child = database;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  database = null;
}

async function readyz(): Promise<{ status: number; body: unknown; ms: number }> {
  const started = Date.now();
  const res = await fetchChecked(`${baseUrl}/_readyz`);
  return { status: res.status, body: res.body, ms: Date.now() - started };
}

/** Probes until `status` answers (a pool reconnects on its own schedule), at most ~15 s. */
async function until(status: number) {
  let last = await readyz();
  for (let i = 0; i < 60 && last.status !== status; i++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    last = await readyz();
  }
  return last;
}

beforeAll(async () => {
  port = await freePort();
  await startDatabase();
  const config = ormConfig(`postgresql://postgres:postgres@127.0.0.1:${port}/postgres`, { poolSize: 2 });
  // Quick to give up on a dead server, so the pool's own retries do not outlast the test.
  orm = await MikroORM.init({ ...config, pool: { ...config.pool, acquireTimeoutMillis: 5000 } });
  const built = await createApp({
    orm,
    logger: pino({ level: 'info' }, sink),
    rateLimit: GENEROUS_RATE_LIMITS,
    corsOrigins: [],
    metricsToken: '',
  });
  stopApp = built.stop;
  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- Koa's handler settles every request's errors itself
  server = createServer(built.app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  database?.kill('SIGCONT');
  await killDatabase();
  await new Promise((resolve) => server?.close(resolve));
  await stopApp?.();
  await orm?.close(true);
});

describe('GET /_readyz (and /_livez)', () => {
  it('answers 200 while the database answers', async () => {
    const res = await readyz();
    expect(res).toMatchObject({ status: 200, body: { status: 'ready' } });
  });

  it('answers 503 within its 2 s bound while the database accepts connections but does not answer, then 200 again', async () => {
    database!.kill('SIGSTOP');
    try {
      const frozen = await readyz();
      expect(frozen).toMatchObject({ status: 503, body: { status: 'unavailable', database: 'unreachable' } });
      expect(frozen.ms).toBeLessThan(10_000);
    } finally {
      database!.kill('SIGCONT');
    }
    expect(await until(200)).toMatchObject({ status: 200, body: { status: 'ready' } });
  }, 30_000);

  it('answers 503 while the database is stopped, and 200 once it is back, without restarting the service', async () => {
    await killDatabase();
    const down = await until(503);
    expect(down).toMatchObject({ status: 503, body: { status: 'unavailable', database: 'unreachable' } });
    // And again: every probe answers, and answers 503, as long as it stays down.
    expect((await readyz()).status).toBe(503);
    // Liveness is not readiness: the process answers, and so do requests that need no database.
    const live = await fetchChecked(`${baseUrl}/_livez`);
    expect({ status: live.status, body: live.body }).toEqual({ status: 200, body: { status: 'alive' } });
    expect((await fetchChecked(`${baseUrl}/graphql?query=%7B__typename%7D`)).status).toBe(200);

    await startDatabase();
    expect(await until(200)).toMatchObject({ status: 200, body: { status: 'ready' } });
  }, 60_000);

  it('logs each change of state once, not every probe', () => {
    const states = lines
      .map((line) => JSON.parse(line) as { msg: string })
      .filter((line) => /ready/.test(line.msg))
      .map((line) => line.msg);
    expect(states.length).toBeGreaterThanOrEqual(4);
    expect(states.slice(0, 5)).toEqual([
      'ready: the database answers',
      'not ready: the database does not answer',
      'ready: the database answers',
      'not ready: the database does not answer',
      'ready: the database answers',
    ]);
  });
});
