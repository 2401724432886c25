/**
 * Capture throughput (architecture guide, habit 15): POST /batch/ with gzipped batches of 100
 * events over 10 keep-alive connections to the real server (dist/src/main.js, its own process),
 * against a floor measured in the same run: the same rows as 100-row multi-row INSERTs into the
 * same table, straight into PostgreSQL over 10 connections. Prints one JSON line.
 *
 *   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres npm run bench:ingestion
 *
 * Loopback only, bounded by BENCH_BATCHES (default 300 per side) and BENCH_SECONDS (default 60 per
 * phase; 3 rounds of floor then service). It works in a scratch database it creates beside
 * DATABASE_URL's and drops at the end. BENCH_PROFILE=1 writes the server's CPU profile to /tmp/prof.
 */
import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { MikroORM } from '@mikro-orm/postgresql';
import { ormConfig } from '../mikro-orm.config';
import { migrate } from '../src/db/migrate';
import { OrganizationService } from '../src/modules/organization/organization.service';
import { ProjectService } from '../src/modules/project/project.service';
import { uuidv7 } from '../src/modules/ingestion/capture.event';
import { cpuMs } from './cpu';

const BATCH = 100;
const CONNECTIONS = 10;
const USERS = 1000;
const BATCHES = Number(process.env.BENCH_BATCHES ?? 300);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const ROUNDS = 3;
const ROOT = path.resolve(__dirname, '..', '..');

type Row = { event: string; distinct_id: string; properties: Record<string, unknown>; timestamp: string };

function makeEvent(i: number): Row {
  const user = i % USERS;
  const properties: Record<string, unknown> = {
    $lib: 'posthog-node', $lib_version: '5.70.0', $geoip_disable: true,
    path: `/products/${i % 50}`, referrer: 'https://example.com/search?q=shoes', amount: (i % 97) * 1.5,
    plan: ['free', 'pro', 'team'][i % 3], session: `s-${Math.floor(i / 20)}`, $groups: { organization: `org-${user % 40}` },
  };
  let event = ['page viewed', 'button clicked', 'purchase', 'signup step'][i % 4];
  if (i % 20 === 0) {
    event = '$feature_flag_called';
    Object.assign(properties, { $feature_flag: `flag-${i % 7}`, $feature_flag_response: i % 2 ? 'test' : 'control', [`$feature/flag-${i % 7}`]: 'test' });
  }
  if (i % 20 === 1) properties.$set = { last_seen_plan: properties.plan, visits: i };
  return { event, distinct_id: `user-${user}`, properties, timestamp: new Date(Date.now() - (i % 1000)).toISOString() };
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

function post(agent: Agent, port: number, body: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/batch/', method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': body.length } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Runs `work(i)` for i < total on `CONNECTIONS` workers until done or out of time; returns items done and seconds. */
async function phase(total: number, work: (i: number, worker: number) => Promise<void>) {
  const deadline = Date.now() + SECONDS * 1000;
  let next = 0;
  let done = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, worker) => {
      while (next < total && Date.now() < deadline) {
        await work(next++, worker);
        done++;
      }
    }),
  );
  return { done, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

interface Totals {
  done: number;
  seconds: number;
  /** CPU ms of the bench database's PostgreSQL backends, the server process and this process. */
  cpu: { postgres: number; server: number; client: number };
}

/** Runs a phase and adds its count, time and CPU to `totals`. */
async function measured(totals: Totals, database: string, serverPid: number, run: () => Promise<{ done: number; seconds: number }>) {
  const snapshot = () => ({
    postgres: cpuMs((command) => command.startsWith('postgres:') && command.includes(` ${database} `)),
    server: cpuMs((_, pid) => pid === serverPid),
    client: cpuMs((_, pid) => pid === process.pid),
  });
  const before = snapshot();
  const { done, seconds } = await run();
  const after = snapshot();
  totals.done += done;
  totals.seconds += seconds;
  for (const key of ['postgres', 'server', 'client'] as const) totals.cpu[key] += after[key] - before[key];
}

const perBatch = ({ cpu, done }: Totals) => Object.fromEntries(Object.entries(cpu).map(([key, ms]) => [key, Number((ms / Math.max(done, 1)).toFixed(2))]));

async function main() {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error('Set DATABASE_URL to a PostgreSQL server (the benchmark makes and drops its own database there).');
  const name = `flagship_bench_${process.pid}`;
  const url = Object.assign(new URL(base), { pathname: `/${name}` }).toString();
  const admin = await MikroORM.init({ clientUrl: base, entities: [], discovery: { warnWhenNoEntities: false }, pool: { min: 0, max: 1 } });
  await admin.em.getConnection().execute(`create database "${name}"`);
  let server: ChildProcess | undefined;
  let orm: MikroORM | undefined;
  try {
    orm = await MikroORM.init(ormConfig(url, { poolSize: CONNECTIONS + 1 }));
    await migrate(orm);
    const sql = orm.em.getConnection();
    const project = await orm.em.fork().transactional(async (em) => {
      const created = ProjectService.create(em, OrganizationService.create(em, 'Bench'), 'Bench');
      await em.flush();
      return created;
    });
    const [projectId, token] = [project.id, project.apiToken];

    const port = await freePort();
    server = spawn(process.execPath, [...(process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : []), path.join(ROOT, 'dist/src/main.js')], {
      env: { ...process.env, DATABASE_URL: url, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    for (let i = 0; ; i++) {
      const ok = await fetch(`http://127.0.0.1:${port}/_health`).then((r) => r.ok, () => false);
      if (ok) break;
      if (i > 100) throw new Error('the server did not start');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
    const batches = Array.from({ length: BATCHES }, (_, b) => Array.from({ length: BATCH }, (_, e) => makeEvent(b * BATCH + e)));
    const body = (rows: Row[]) => gzipSync(JSON.stringify({ api_key: token, batch: rows.map((row) => ({ ...row, uuid: uuidv7() })), sent_at: new Date().toISOString() }));
    // Warm-up: every user's person exists, the group types are registered, both processes are warm.
    const warm = Array.from({ length: USERS / BATCH }, (_, b) => body(Array.from({ length: BATCH }, (_, e) => makeEvent(b * BATCH + e))));
    await phase(warm.length, async (i) => void (await post(agent, port, warm[i])));

    // Floor: the same rows, as stored, as multi-row INSERTs over 10 connections of their own.
    const client = sql.getKnex().client;
    const connections = await Promise.all(Array.from({ length: CONNECTIONS }, () => client.acquireConnection()));
    const placeholders = Array.from({ length: BATCH }, (_, r) => `(${Array.from({ length: 8 }, (_, c) => `$${r * 8 + c + 1}`).join(', ')})`).join(', ');
    const insert = `insert into event (project_id, uuid, event, distinct_id, properties, timestamp, person_id, created_at) values ${placeholders}`;
    const personOf = new Map(Array.from({ length: USERS }, (_, u) => [`user-${u}`, randomUUID()]));
    const bodies = batches.map(body);
    const latencies: number[] = [];
    let failures = 0;
    const zero = () => ({ done: 0, seconds: 0, cpu: { postgres: 0, server: 0, client: 0 } });
    const [floor, service]: Totals[] = [zero(), zero()];
    // Rounds alternate floor and service, so load from elsewhere on the machine weighs on both alike.
    const perRound = Math.ceil(BATCHES / ROUNDS);
    for (let round = 0; round < ROUNDS; round++) {
      const from = round * perRound;
      const count = Math.min(perRound, BATCHES - from);
      await measured(floor, name, server.pid!, () => phase(count, async (i, worker) => {
        const now = new Date();
        const values = batches[from + i].flatMap((row) => [projectId, uuidv7(), row.event, row.distinct_id, JSON.stringify(row.properties), row.timestamp, personOf.get(row.distinct_id), now]);
        await connections[worker].query(insert, values);
      }));
      await measured(service, name, server.pid!, () => phase(count, async (i) => {
        const started = process.hrtime.bigint();
        if ((await post(agent, port, bodies[from + i])) !== 200) failures++;
        latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
      }));
    }
    for (const connection of connections) await client.releaseConnection(connection);
    agent.destroy();
    latencies.sort((a, b) => a - b);
    const rate = (service.done * BATCH) / service.seconds;
    const floorRate = (floor.done * BATCH) / floor.seconds;
    const [stored] = await sql.execute('select count(*)::int as n from event where project_id = ?', [projectId]);
    process.stdout.write(
      `${JSON.stringify({
        benchmark: 'ingestion',
        batch_size: BATCH,
        connections: CONNECTIONS,
        batches: service.done,
        failures,
        events_per_s: Math.round(rate),
        floor_events_per_s: Math.round(floorRate),
        ratio: Number((rate / floorRate).toFixed(3)),
        latency_ms: { p50: Number(latencies[Math.floor(latencies.length / 2)].toFixed(1)), p99: Number(latencies[Math.floor(latencies.length * 0.99)].toFixed(1)) },
        events_stored: stored.n,
        cpu_ms_per_batch: { floor: perBatch(floor), service: perBatch(service) },
      })}\n`,
    );
  } finally {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    await orm?.close(true);
    await admin.em.getConnection().execute(`drop database if exists "${name}" with (force)`);
    await admin.close(true);
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
