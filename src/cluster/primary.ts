import cluster, { type Worker } from 'node:cluster';
import { Client } from 'pg';
import type { Logger } from 'pino';
import type { Config } from '../config';
import { CRASH_MEMORY_MS, restartDelayMs } from './backoff';
import { ensureDatabase } from '../db/ensure-database';
import { migrationNames } from '../db/migrations/names';
import { serveSlidingWindows } from '../http/primary-sliding-window';

/**
 * The primary of WEB_CONCURRENCY workers (docs/operations.md, "Workers"): applies migrations once,
 * then forks the workers, each a whole app (src/server.ts) on the same port. It serves no request
 * itself; it holds the rate-limit windows when there is no Redis (src/http/primary-sliding-window.ts),
 * replaces a worker that dies, and on SIGTERM/SIGINT has every worker finish its in-flight requests.
 * A worker that dies before all have first listened fails the start as a whole: exit 1.
 */
export async function runPrimary(config: Config, logger: Logger, workers: number): Promise<void> {
  // A database DATABASE_URL names must exist (or be asked for): checked before anything else opens it.
  await ensureDatabase(config.databaseUrl!, { create: config.createDatabase });
  // Migrations run here, once, before any worker opens the database; each worker then only sees that none is pending.
  if (await migrationsPending(config.databaseUrl!)) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the ORM is loaded only when there is something to apply
    const { openDatabase } = require('../db/database') as typeof import('../db/database');
    const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 1 });
    await database.close();
  }
  const windows = config.rateLimit.enabled && !config.rateLimit.redisUrl ? serveSlidingWindows(cluster) : null;

  const listened = new Set<number>();
  const restarts = new Set<NodeJS.Timeout>();
  let crashes: number[] = [];
  let starting = true;
  let stopping = false;
  let exitCode = 0;

  const live = () => Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined);

  const finish = async () => {
    await windows?.close();
    logger.info({ exit_code: exitCode }, 'stopped');
    process.exit(exitCode);
  };

  const stopAll = (code: number) => {
    exitCode = Math.max(exitCode, code);
    for (const timer of restarts) clearTimeout(timer);
    restarts.clear();
    const running = live();
    if (running.length === 0) return void finish();
    // Each worker stops accepting, finishes what it serves, closes its pool and exits (src/server.ts).
    for (const worker of running) worker.process.kill('SIGTERM');
  };

  cluster.on('listening', (worker) => {
    listened.add(worker.id);
    if (starting && listened.size >= workers) {
      starting = false;
      logger.info({ workers, worker_pids: live().map((w) => w.process.pid) }, 'all workers listening');
    }
  });

  cluster.on('exit', (worker, code, signal) => {
    const exited = { worker: worker.id, worker_pid: worker.process.pid, code, signal };
    if (stopping) {
      if (code !== 0 && signal !== 'SIGTERM') exitCode = 1;
      if (live().length === 0) void finish();
      return;
    }
    if (starting) {
      stopping = true;
      logger.error(exited, 'a worker failed to start; stopping the others');
      return stopAll(1);
    }
    const now = Date.now();
    crashes = [...crashes.filter((at) => now - at < CRASH_MEMORY_MS), now];
    const delay = restartDelayMs(crashes.length);
    logger.error({ ...exited, restart_in_ms: delay }, 'worker exited unexpectedly; starting a replacement');
    const timer = setTimeout(() => {
      restarts.delete(timer);
      if (!stopping) cluster.fork();
    }, delay);
    restarts.add(timer);
  });

  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, workers: live().length }, 'shutting down: workers finish in-flight requests');
    stopAll(0);
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  logger.info({ workers, rate_limits: windows ? 'primary' : config.rateLimit.enabled ? 'redis' : 'off' }, 'starting workers');
  for (let i = 0; i < workers; i++) cluster.fork();
}

/**
 * Whether any migration is still to apply, asked with one plain connection: the ORM (a second of
 * CPU to load and initialise) is started in the primary only when there is something to apply.
 */
async function migrationsPending(databaseUrl: string): Promise<boolean> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const applied = await client.query<{ name: string }>('select name from mikro_orm_migrations').then(
      (result) => new Set(result.rows.map((row) => row.name)),
      () => new Set<string>(),
    );
    return migrationNames.some((name) => !applied.has(name));
  } finally {
    await client.end();
  }
}
