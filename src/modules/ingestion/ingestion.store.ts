import { randomBytes } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { DistinctIdOwner } from './ingestion-persons.store';

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

/** What a request reads before it writes. */
export interface CaptureLookups {
  /** The request's uuids the project already stored (docs/ingestion.md §2.1 idempotency). */
  stored: Set<string>;
  /** The stored owners of the distinct ids, locked FOR SHARE. */
  owners: DistinctIdOwner[];
  /** The project's group types, name → index (empty unless asked for). */
  groupTypes: Map<string, number>;
}

/** One event to insert, by column (`properties` with its group keys added). */
export interface EventRow {
  uuid: string;
  event: string;
  distinct_id: string;
  properties: Record<string, unknown>;
  timestamp: Date;
  /** The person's uuid, or null for a personless event nobody owns. */
  person_id: string | null;
}

/** Events inserted per statement. */
const INSERT_CHUNK = 1000;

/** The capture path's queries on events and the request's lookups (persons: ingestion-persons.store.ts, groups: ingestion-groups.store.ts). */
export const IngestionStore = {
  /**
   * Which of these uuids the project stored, who owns these distinct ids (locked FOR SHARE, in
   * sorted order) and, with `withGroupTypes`, the project's group types: one prepared statement.
   */
  async lookUp(
    sql: Sql,
    projectId: number,
    uuids: string[],
    distinctIds: Iterable<string>,
    withGroupTypes: boolean,
  ): Promise<CaptureLookups> {
    type OwnerJson = Omit<DistinctIdOwner, 'created_at'> & { created_at: string };
    const [row] = await sql.prepared<{ stored: string[]; owners: OwnerJson[]; types: Array<{ t: string; i: number }> }>(
      'lookup',
      // One index probe per value (LATERAL … LIMIT 1), whatever the statistics say: a plan that scans
      // the project's rows would grow with the project. Distinct ids are locked in sorted order.
      `with stored as (select x.uuid from unnest($2::uuid[]) as u(uuid)
                       cross join lateral (select e.uuid from event e where e.project_id = $1 and e.uuid = u.uuid limit 1) x),
          owners as (select d.distinct_id, p.id, p.uuid, p.is_identified, p.created_at
                       from unnest($3::text[]) as i(distinct_id)
                       cross join lateral (select d.distinct_id, d.person_id from person_distinct_id d
                                            where d.project_id = $1 and d.distinct_id = i.distinct_id limit 1 for share) d
                       cross join lateral (select p.id, p.uuid, p.is_identified, p.created_at from person p where p.id = d.person_id limit 1) p),
          types as (select group_type as t, group_type_index as i from group_type_mapping where project_id = $1 and $4)
     select (select coalesce(json_agg(uuid), '[]') from stored) as stored,
            (select coalesce(json_agg(owners), '[]') from owners) as owners,
            (select coalesce(json_agg(types), '[]') from types) as types`,
      [projectId, uuids, [...distinctIds].sort(), withGroupTypes],
    );
    return {
      stored: new Set(row.stored),
      owners: row.owners.map((owner) => ({ ...owner, created_at: new Date(owner.created_at) })),
      groupTypes: new Map(row.types.map(({ t, i }) => [t, i])),
    };
  },

  /** Inserts the events, skipping uuids the project already has: one prepared statement per 1000 events. */
  async insertEvents(sql: Sql, projectId: number, rows: EventRow[], now: Date): Promise<void> {
    for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
      await sql.prepared(
        'insert_events',
        `insert into event (project_id, uuid, event, distinct_id, properties, timestamp, person_id, created_at)
       select $1, x.uuid, x.event, x.distinct_id, x.properties, x.timestamp, x.person_id, $3
         from jsonb_to_recordset($2::jsonb)
           as x(uuid uuid, event text, distinct_id text, properties jsonb, timestamp timestamptz, person_id uuid)
       on conflict (project_id, uuid) do nothing`,
        [projectId, JSON.stringify(rows.slice(start, start + INSERT_CHUNK)), now],
      );
    }
  },
};
