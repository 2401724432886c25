// The job engine: pg-boss on the service's own database, over the service's own connection pool.
// Why pg-boss (README decisions): it only polls (no LISTEN, which the embedded database never delivers),
// takes a job with one UPDATE … FOR UPDATE SKIP LOCKED that moves it to `active` (so a job runs once
// however many processes poll, and on the embedded database, where every connection is one session,
// the state change alone still decides), runs on Node 20, and accepts a caller's SQL executor, so it
// opens no connections of its own (the embedded database admits only a few, src/db/embedded.ts).
// graphile-worker holds a LISTEN connection for good and its 0.18 needs Node 22.
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import { JOB_QUEUES, type JobQueue } from './job-queues';

/** The schema pg-boss installs and migrates itself (its tables are not MikroORM entities). */
export const JOB_SCHEMA = 'pgboss';

interface QueryClient {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}
interface KnexLike {
  client: { acquireConnection(): Promise<QueryClient>; releaseConnection(connection: QueryClient): Promise<void> };
}

/** pg-boss's executor: each statement borrows a connection of the ORM's pool, or of `em`'s transaction. */
function executor(knex: KnexLike): PgBoss.Db {
  return {
    async executeSql(text: string, values?: unknown[]) {
      // Inside a knex transaction acquireConnection returns the transaction's own connection.
      const connection = await knex.client.acquireConnection();
      try {
        return await connection.query(text, values);
      } finally {
        await knex.client.releaseConnection(connection);
      }
    },
  };
}

const poolExecutor = (orm: MikroORM) => executor(orm.em.getConnection().getKnex() as unknown as KnexLike);

/** The executor of `em`'s open transaction, so a job is enqueued with the row that asks for it, or not at all. */
export function transactionExecutor(em: EntityManager): PgBoss.Db {
  const trx = em.getTransactionContext<KnexLike | undefined>();
  if (!trx) throw new Error('transactionExecutor needs an open transaction');
  return executor(trx);
}

const bossOptions = (orm: MikroORM): PgBoss.ConstructorOptions => ({
  db: poolExecutor(orm),
  schema: JOB_SCHEMA,
  // Timed jobs come from their queues' rows, not pg-boss's cron (minute-grained, one more poller).
  schedule: false,
});

/**
 * Installs or upgrades pg-boss's schema (pg-boss serializes this with an advisory transaction lock,
 * so processes starting together are safe). Part of every open's migrations (src/db/migrate.ts).
 */
export async function installJobSchema(orm: MikroORM): Promise<void> {
  const boss = new PgBoss({ ...bossOptions(orm), migrate: true, supervise: false });
  await boss.start();
  try {
    // The queues exist before any process runs a worker, so a request can enqueue on any of them.
    // create_queue is "insert … on conflict do nothing": safe from every process.
    const existing = new Set((await boss.getQueues()).map((queue) => queue.name));
    for (const queue of JOB_QUEUES)
      if (!existing.has(queue.name))
        await boss.createQueue(queue.name, {
          name: queue.name,
          retryLimit: queue.retryLimit,
          retryDelay: queue.retryDelaySeconds,
          ...(queue.expireInSeconds ? { expireInSeconds: queue.expireInSeconds } : {}),
        });
  } finally {
    await boss.stop({ graceful: false, wait: true, close: false });
  }
}

export interface JobHandler<T extends object> {
  queue: JobQueue;
  /** Runs one job; a throw fails it, and pg-boss retries it up to the queue's retryLimit. */
  run(data: T, job: { id: string; retryCount: number; retryLimit: number }): Promise<void>;
}

export interface JobEngineOptions {
  /** How often an idle worker asks for due jobs, in seconds (pg-boss's minimum is 0.5). */
  pollingIntervalSeconds?: number;
}

/** The running engine of one service process: polls its queues and runs their handlers. */
export class JobEngine {
  private readonly boss: PgBoss;
  private started = false;

  constructor(
    orm: MikroORM,
    private readonly logger: Logger,
    private readonly handlers: Array<JobHandler<object>>,
    private readonly options: JobEngineOptions = {},
  ) {
    // supervise: expires jobs whose process died mid-run (then retried), and archives old ones.
    this.boss = new PgBoss({ ...bossOptions(orm), migrate: false, supervise: true });
    this.boss.on('error', (error: Error) => this.logger.error({ err: error }, 'job engine error'));
  }

  async start(): Promise<void> {
    await this.boss.start();
    this.started = true;
    for (const handler of this.handlers) {
      await this.boss.work<object>(
        handler.queue.name,
        { pollingIntervalSeconds: this.options.pollingIntervalSeconds ?? 1, includeMetadata: true },
        async ([job]) => {
          try {
            await handler.run(job.data, { id: job.id, retryCount: job.retryCount, retryLimit: job.retryLimit });
          } catch (error) {
            this.logger.warn({ err: error, queue: handler.queue.name, job: job.id }, 'job failed');
            throw error;
          }
        },
      );
    }
  }

  /** Stops polling and waits (up to 10 s) for running jobs; a job cut off is taken again after it expires. */
  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    await this.boss.stop({ graceful: true, wait: true, timeout: 10_000, close: false });
  }
}

/** Enqueues a job inside `em`'s transaction, to start at `startAfter`. Returns its id. */
export async function enqueueJob(em: EntityManager, queue: JobQueue, data: object, startAfter: Date): Promise<string> {
  const db = transactionExecutor(em);
  const sender = new PgBoss({ db, schema: JOB_SCHEMA, migrate: false, supervise: false, schedule: false });
  const id = await sender.send(queue.name, data, { startAfter, db });
  if (!id) throw new Error(`job not enqueued on ${queue.name}`);
  return id;
}
