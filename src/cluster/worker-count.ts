import { availableParallelism } from 'node:os';
import { StartRefusal } from '../start-refusal';

/** More workers than this is a typo, not a plan: each holds its own pool of database connections. */
export const MAX_WORKERS = 64;

export interface WorkerCount {
  /** How many processes serve: 1 = this process alone, no cluster. */
  workers: number;
  /** Set when WEB_CONCURRENCY asked for more than the embedded database allows: what to log. */
  warning?: string;
}

/**
 * WEB_CONCURRENCY (docs/operations.md, "Workers"): unset = one worker per core on PostgreSQL
 * (DATABASE_URL), 1 on the embedded database. The embedded database lives inside one process
 * (PGlite), so a larger number there is lowered to 1 with a warning rather than refused: hosting
 * platforms set WEB_CONCURRENCY on their own, and a first start there should still serve.
 */
export function workerCount(env: NodeJS.ProcessEnv, embedded: boolean, cores = availableParallelism()): WorkerCount {
  const text = env.WEB_CONCURRENCY?.trim();
  if (text && (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > MAX_WORKERS)) {
    throw new StartRefusal(`WEB_CONCURRENCY must be a whole number from 1 to ${MAX_WORKERS}, got "${env.WEB_CONCURRENCY}"`);
  }
  const asked = text ? Number(text) : null;
  if (embedded) {
    if (asked !== null && asked > 1) {
      return {
        workers: 1,
        warning: `WEB_CONCURRENCY=${asked} lowered to 1: the embedded database runs in one process. Set DATABASE_URL (PostgreSQL) to run several workers.`,
      };
    }
    return { workers: 1 };
  }
  return { workers: asked ?? Math.max(1, cores) };
}
