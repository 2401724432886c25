import { randomBytes } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';

/** Positional SQL (`$1`, arrays as PostgreSQL arrays) on one pooled connection. */
export interface Sql {
  <T = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
  /** The same as a prepared statement (the hot path's statements: planned once per connection). */
  prepared<T = Record<string, unknown>>(name: string, text: string, values: unknown[]): Promise<T[]>;
}

interface PgConnection {
  query(query: string | { name?: string; text: string; values?: unknown[] }, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

// The embedded server shares one session among all connections (and processes), prepared
// statements included: each connection names its statements with a random tag of its own.
const connectionTags = new WeakMap<object, string>();

function sqlOn(connection: PgConnection): Sql {
  if (!connectionTags.has(connection)) connectionTags.set(connection, randomBytes(6).toString('hex'));
  const tag = connectionTags.get(connection)!;
  const sql = (async (text: string, values?: unknown[]) => (await connection.query(text, values)).rows) as Sql;
  sql.prepared = async <R>(name: string, text: string, values: unknown[]) =>
    (await connection.query({ name: `capture_${name}_${tag}`, text, values })).rows as R[];
  return sql;
}

/** Asks for the whole request to run again (docs/ingestion.md §5): a race another transaction won. */
export class RetryableConflict extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'RetryableConflict';
  }
}

const RETRYABLE_CODES = new Set(['40P01', '40001']);
const ATTEMPTS = 3;

export const isRetryable = (error: unknown) =>
  error instanceof RetryableConflict || RETRYABLE_CODES.has((error as { code?: string })?.code ?? '');

/** The database is down or refusing work: connection failures, pool time-outs, shutdown, lack of resources. */
export function isUnavailable(error: unknown): boolean {
  const { code, name } = (error ?? {}) as { code?: unknown; name?: unknown };
  if (name === 'KnexTimeoutError') return true;
  if (typeof code !== 'string') return false;
  return /^(08|53|57P)/.test(code) || ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND'].includes(code);
}

/**
 * The capture path's one transaction on its own pooled connection (the ORM's pool, bypassing the
 * query builder: positional parameters and array values, no identity map). Deadlocks, serialization
 * failures and lost races rerun the whole function, 3 attempts in all.
 */
export async function inTransaction<T>(orm: MikroORM, work: (sql: Sql) => Promise<T>): Promise<T> {
  const client = orm.em.getConnection().getKnex().client;
  const connection: PgConnection = await client.acquireConnection();
  const sql = sqlOn(connection);
  try {
    for (let attempt = 1; ; attempt++) {
      await sql('begin');
      try {
        const result = await work(sql);
        await sql('commit');
        return result;
      } catch (error) {
        await sql('rollback').catch(() => undefined);
        if (!isRetryable(error) || attempt >= ATTEMPTS) throw error;
      }
    }
  } finally {
    await client.releaseConnection(connection);
  }
}
