/**
 * `npm run bench`: the service (dist/src/main.js, its own process, on a scratch database) under
 * autocannon, row by row beside a floor measured in the same run; prints one table and writes
 * bench/results/<timestamp>.json and latest.json. See bench/README.md.
 */
import type { ChildProcess } from 'node:child_process';
import { stopChild } from './children';
import { openBenchDatabase, type BenchDatabase } from './database';
import { forkFloor } from './floors/fork';
import { withClient } from './pg';
import { loadAverage, machine, revision, writeResults } from './results';
import { statusMiB } from './proc';
import { scenarios } from './scenarios';
import type { BenchContext, FloorServer, Row } from './scenarios/types';
import { seed } from './seed';
import { startService, stopService, type RunningService } from './service';
import { settings } from './settings';
import { renderTable } from './table';

const log = (line: string) => process.stderr.write(`${line}\n`);

let database: BenchDatabase | undefined;
let service: RunningService | undefined;
let floorChild: ChildProcess | undefined;

async function cleanUp() {
  await stopChild(floorChild).catch(() => undefined);
  await stopService(service).catch((error) => log(`stopping the service: ${String(error)}`));
  await database?.drop().catch((error) => log(`dropping the scratch database: ${String(error)}`));
}

function floorServerOf(floorDatabaseUrl: string, poolSize: number) {
  let started: Promise<FloorServer> | undefined;
  const start = async (): Promise<FloorServer> => {
    const { child, server } = await forkFloor(floorDatabaseUrl, poolSize);
    floorChild = child;
    return server;
  };
  return {
    get: () => (started ??= start()),
    async stop() {
      await stopChild(floorChild);
      started = undefined;
    },
  };
}

async function main() {
  const startedAt = new Date();
  const loadAtStart = loadAverage();
  const selected = settings.only.length ? scenarios.filter((s) => settings.only.includes(s.id)) : scenarios;
  const unknown = settings.only.filter((id) => !scenarios.some((s) => s.id === id));
  if (unknown.length)
    throw new Error(`BENCH_ONLY names unknown scenarios: ${unknown.join(', ')} (known: ${scenarios.map((s) => s.id).join(', ')})`);

  database = await openBenchDatabase(process.env.DATABASE_URL);
  log(
    `database: ${database.kind}; warm-up ${settings.warmupSeconds} s, then ${settings.durationSeconds} s per side in ${settings.rounds} alternating rounds, ${settings.connections} connections`,
  );
  service = await startService(database.serviceEnv);
  const floorDatabaseUrl = await database.floorUrl();
  const version = await withClient(floorDatabaseUrl, (c) => c.query<{ server_version: string }>('show server_version')).then(
    (r) => r.rows[0].server_version,
  );
  const world = await seed(service, settings, log);
  const floors = floorServerOf(floorDatabaseUrl, database.floorPoolSize);
  const context: BenchContext = {
    settings,
    database,
    floorDatabaseUrl,
    service,
    world,
    floorServer: floors.get,
    stopFloorServer: floors.stop,
    log,
  };

  const rows: Row[] = [];
  for (const scenario of selected) {
    log(`${scenario.id}:`);
    rows.push(...(await scenario.run(context)));
  }
  const overallRss = statusMiB(service.pid, 'VmHWM');
  await cleanUp();

  const finishedAt = new Date();
  const report = {
    started_at: startedAt.toISOString(),
    wall_seconds: Math.round((finishedAt.getTime() - startedAt.getTime()) / 1000),
    machine: machine({ kind: database.kind, version }, loadAtStart),
    revision: revision(),
    settings: {
      connections: settings.connections,
      warmup_s: settings.warmupSeconds,
      duration_s: settings.durationSeconds,
      rounds: settings.rounds,
      scenarios: selected.map((s) => s.id),
    },
    service_peak_rss_mib: overallRss === null ? null : Number(overallRss.toFixed(1)),
  };
  process.stdout.write(`${renderTable(rows, overallRss)}\n`);
  const file = await writeResults(report, rows, startedAt);
  log(`\nwrote ${file} (and latest.json); ${report.wall_seconds} s in all`);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping the service and dropping the scratch database`);
    void cleanUp().finally(() => process.exit(130));
  });
}

main().catch(async (error) => {
  log(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  if (error instanceof Error && error.cause) log(`cause: ${String(error.cause)}`);
  await cleanUp();
  process.exit(1);
});
