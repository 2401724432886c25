import { createHash } from 'node:crypto';
import type { Sql } from './results.store';

/**
 * Computed results are kept in PostgreSQL (table `experiment_result_cache`), one entry per
 * experiment and metric (-1 = the primary metric, else the secondary index), with a fingerprint of
 * their inputs and the event table's high-water mark (max id) taken before computing. An entry is
 * served while its fingerprint matches and no relevant event (a metric or exposure event name,
 * `$feature_flag_called`, or an event that can merge persons) has an id above that mark. Ids are
 * compared, not receive times: an id is taken at insert, so an event that was being written while
 * the result was computed is still seen as newer (except one that commits behind a later id).
 */

/** Events that can merge persons, and so move an actor between variants. */
const MERGE_EVENTS = ['$identify', '$create_alias', '$merge_dangerously'];

export const PRIMARY_METRIC = -1;
const FORMAT_VERSION = 1;

export function fingerprintOf(inputs: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([FORMAT_VERSION, inputs]))
    .digest('hex');
}

export const relevantEvents = (names: string[]) => [...new Set([...names, '$feature_flag_called', ...MERGE_EVENTS])];

export interface CacheLookup {
  /** The stored result when it may be served. */
  hit: { result: Record<string, unknown>; computedAt: Date } | null;
  /** The event high-water mark now, to store with a new result. */
  highWater: string;
}

/** One statement: the entry when still valid, and the current high-water mark. */
export async function lookup(
  sql: Sql,
  key: { projectId: number; experimentId: number; metric: number; fingerprint: string; events: string[] },
): Promise<CacheLookup> {
  const [row] = await sql<{ high_water: string; result: Record<string, unknown> | null; computed_at: Date | null; stale: boolean | null }>(
    `select (select coalesce(max(id), 0) from event) as high_water, c.result, c.computed_at,
            exists(select 1 from event e where e.id > c.high_water and e.project_id = $1 and e.event = any($5::text[])) as stale
       from (select 1) one
       left join experiment_result_cache c on c.experiment_id = $2 and c.metric_index = $3 and c.fingerprint = $4`,
    [key.projectId, key.experimentId, key.metric, key.fingerprint, key.events],
  );
  const hit = row.result && row.stale === false ? { result: row.result, computedAt: new Date(row.computed_at!) } : null;
  return { hit, highWater: String(row.high_water) };
}

/**
 * Replaces the entry. An experiment deleted meanwhile (foreign key) just leaves nothing to store, and
 * so does an entry another computation replaced after this one's snapshot was taken (the
 * computation runs in a repeatable-read transaction): that one is as fresh. A savepoint keeps the
 * transaction usable either way.
 */
export async function store(
  sql: Sql,
  entry: { experimentId: number; metric: number; fingerprint: string; result: unknown; computedAt: Date; highWater: string },
): Promise<void> {
  await sql('savepoint store_result');
  try {
    await sql(
      `insert into experiment_result_cache (experiment_id, metric_index, fingerprint, result, computed_at, high_water)
       select $1, $2, $3, $4::json, $5, $6 where exists (select 1 from experiment where id = $1)
       on conflict (experiment_id, metric_index) do update
         set fingerprint = excluded.fingerprint, result = excluded.result, computed_at = excluded.computed_at, high_water = excluded.high_water`,
      [entry.experimentId, entry.metric, entry.fingerprint, JSON.stringify(entry.result), entry.computedAt, entry.highWater],
    );
    await sql('release savepoint store_result');
  } catch (error) {
    const code = (error as { code?: string })?.code;
    if (code !== '23503' && code !== '40001') throw error;
    await sql('rollback to savepoint store_result');
  }
}
