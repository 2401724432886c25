import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestWork } from '../../../http/request-work';
import type { MetricEntry, Metric } from './metric';
import { decideFilters, numericValue, Params, toFloat8, type Bag, type DecidedFilters, type Sql } from './property-filters';

export type { Sql };

/**
 * The SQL of experiment results (docs/experiment-results.md): every count is aggregated in
 * PostgreSQL, one statement per question, over the event indexes of the ingestion migration
 * ((project_id, event, timestamp) for metrics, the partial `$feature_flag_called` index for exposures).
 */

interface PgConnection {
  processID: number;
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

interface PgPoolClient {
  acquireConnection(): Promise<PgConnection>;
  releaseConnection(connection: PgConnection): Promise<unknown>;
  /** knex's: `pg_cancel_backend` on a connection of its own, outside the pool (which may be full). */
  cancelQuery(connection: PgConnection): Promise<unknown>;
}

/**
 * How long a cancelled computation waits for its cancel to land before rolling back. A server
 * delivers it at once. The embedded database (PGlite) runs one transaction at a time: the cancel's
 * own connection waits for this transaction to end, so waiting for it without a bound stalled that
 * database for good (and `pg_cancel_backend` does nothing there anyway).
 */
const CANCEL_WAIT_MS = 2000;

/** Whether `pending` (if any) settled within `ms`. */
async function landsWithin(pending: Promise<unknown> | null, ms: number): Promise<boolean> {
  if (!pending) return true;
  let timer: NodeJS.Timeout | undefined;
  const landed = await Promise.race([
    pending.then(() => true),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
  ]);
  clearTimeout(timer);
  return landed;
}

/** knex's own mark for a broken connection: its pool destroys it on release instead of lending it again. */
const discard = (connection: object, reason: unknown) => {
  (connection as { __knex__disposed?: unknown }).__knex__disposed = reason;
};

/**
 * One pooled connection for the whole computation (positional parameters, arrays as arrays), in one
 * repeatable-read transaction: every statement reads the same snapshot, so the candidate values a
 * property filter was decided over are all the values the counting statements meet.
 *
 * It runs as one task of the request's work (src/http/request-work.ts): after the request's other
 * computations, and not at all once the request has ended. When it ends meanwhile, the statement in
 * flight is cancelled and no further one is sent; the connection goes back to the pool only after the
 * cancel has been delivered, so it cannot reach the connection's next user.
 */
export function withConnection<T>(em: EntityManager, work: RequestWork, compute: (sql: Sql) => Promise<T>): Promise<T> {
  return work.run(async (signal) => {
    const client = em.getConnection().getKnex().client as PgPoolClient;
    const connection = await client.acquireConnection();
    let cancelled = null as Promise<unknown> | null; // assigned in cancel(): not narrowed to null
    let inFlight = false;
    const cancel = () => {
      if (inFlight) cancelled = client.cancelQuery(connection).catch(() => undefined);
    };
    signal.addEventListener('abort', cancel);
    const sql = (async (text: string, values?: unknown[]) => {
      signal.throwIfAborted();
      inFlight = true;
      try {
        return (await connection.query(text, values)).rows;
      } catch (error) {
        // A statement cancelled because the request ended: the request's reason, not a database timeout.
        signal.throwIfAborted();
        throw error;
      } finally {
        inFlight = false;
      }
    }) as Sql;
    try {
      await sql('begin isolation level repeatable read');
      try {
        // The funnel sorts every step event by actor and time: a larger sort budget keeps that in memory.
        // JIT off: these statements look expensive to the planner (the per-row actor lookup), and
        // compiling them cost ~1.6 s on 30,000 events against ~0.25 s of work (bench/experiment-results.ts).
        await sql(`select set_config('work_mem', '64MB', true), set_config('jit', 'off', true)`);
        const result = await compute(sql);
        await sql('commit');
        return result;
      } catch (error) {
        if (!(await landsWithin(cancelled, CANCEL_WAIT_MS))) {
          // Not delivered: a late cancel must not reach the connection's next user.
          discard(connection, new Error('a cancel was still on its way'));
        }
        // Not back to a clean state: the pool must not lend the connection again.
        await connection.query('rollback').catch((failed: unknown) => discard(connection, failed));
        throw error;
      }
    } finally {
      signal.removeEventListener('abort', cancel);
      await cancelled;
      await client.releaseConnection(connection);
    }
  });
}

export interface Window {
  projectId: number;
  start: Date;
  end: Date;
  flagKey: string;
  variants: string[];
  groupIndex: number | null;
}

/** What the statements of one computation share: the connection, the window and the decided property filters. */
export interface Scope {
  sql: Sql;
  window: Window;
  filters: DecidedFilters;
}

/**
 * The events a metric reads, with the person each belongs to: the event's own person, else (an event
 * stored without one) the distinct id's current owner. The actor is that person, else the distinct id
 * itself (hashed), the way personless events count as their own person; with a group type, the
 * group key (hashed). Person filters read the properties of that same person.
 */
function eventSource(window: Window, params: Params, names: string[], entries: MetricEntry[]) {
  const project = params.add(window.projectId, '::int');
  const person = `coalesce(e.person_id, owner.uuid)`;
  const usesPerson = entries.some((entry) => entry.properties.some((filter) => filter.type === 'person'));
  const needsOwner = usesPerson || window.groupIndex === null;
  const from =
    `event e` +
    (needsOwner
      ? ` left join (select d.distinct_id, o.uuid from person_distinct_id d join person o on o.id = d.person_id where d.project_id = ${project}) owner` +
        ` on e.person_id is null and owner.distinct_id = e.distinct_id`
      : '') +
    (usesPerson ? ` left join person p on p.project_id = ${project} and p.uuid = ${person}` : '');
  const where =
    `e.project_id = ${project} and e.event = any(${params.add(names, '::text[]')}) ` +
    `and e.timestamp >= ${params.add(window.start, '::timestamptz')} and e.timestamp <= ${params.add(window.end, '::timestamptz')}` +
    (window.groupIndex === null ? '' : ` and (e.properties ->> '$group_${window.groupIndex}') is not null`);
  const actor =
    window.groupIndex === null
      ? `coalesce(${person}, md5('distinct:' || e.distinct_id)::uuid)`
      : `md5(e.properties ->> '$group_${window.groupIndex}')::uuid`;
  return { from, where, actor };
}

const bagOf = (bag: Bag) => (bag === 'person' ? 'p.properties' : 'e.properties');

/** The entry's property filters, AND-ed. */
function entryPredicate(scope: Scope, entry: MetricEntry, params: Params): string {
  const parts = entry.properties.map((filter) => scope.filters.predicate(filter, bagOf(filter.type), params));
  return parts.length ? parts.join(' and ') : 'true';
}

/**
 * Opens the computation over `entries` (the metric's, and the custom exposure's): decides their
 * property filters over the values their keys take — in the window's events of those names, and
 * among the project's persons.
 */
export async function openScope(sql: Sql, window: Window, entries: MetricEntry[], now: Date): Promise<Scope> {
  const names = [...new Set(entries.map((entry) => entry.id))];
  const filters = await decideFilters(
    sql,
    entries,
    (bag, keys, params) => {
      if (bag === 'person')
        return `select k.key, (p.properties -> k.key)::text as value from person p, unnest(${keys}) as k(key)
                 where p.project_id = ${params.add(window.projectId, '::int')} and jsonb_exists(p.properties, k.key)
                 group by k.key, p.properties -> k.key`;
      const source = eventSource(window, params, names, []);
      return `select k.key, (e.properties -> k.key)::text as value from event e, unnest(${keys}) as k(key)
               where ${source.where} and jsonb_exists(e.properties, k.key)
               group by k.key, e.properties -> k.key`;
    },
    now,
  );
  return { sql, window, filters };
}

/** Distinct actors with `$feature_flag_called` for the flag, per response, for every flag variant. */
export async function defaultExposures(scope: Pick<Scope, 'sql' | 'window'>): Promise<Map<string, number>> {
  const { window } = scope;
  const params = new Params();
  const source = eventSource(window, params, ['$feature_flag_called'], []);
  const rows = await scope.sql<{ variant: string; n: string }>(
    `select variant, count(*) as n from (
       select distinct e.properties ->> '$feature_flag_response' as variant, ${source.actor} as actor
         from ${source.from}
        where ${source.where}
          and (e.properties ->> '$feature_flag') = ${params.add(window.flagKey, '::text')}
          and (e.properties ->> '$feature_flag_response') = any(${params.add(window.variants, '::text[]')})) exposed
      group by 1`,
    params.values,
  );
  return new Map(rows.map((row) => [row.variant, Number(row.n)]));
}

/** The custom exposure: its event with `$feature/<key>` = the variant; distinct actors (`dau`) or events. */
export async function customExposures(scope: Scope, entry: MetricEntry, distinctActors: boolean): Promise<Map<string, number>> {
  const { window } = scope;
  const params = new Params();
  const source = eventSource(window, params, [entry.id], [entry]);
  const variant = `(e.properties ->> ${params.add(`$feature/${window.flagKey}`, '::text')})`;
  const rows = await scope.sql<{ variant: string; n: string }>(
    `select ${variant} as variant, ${distinctActors ? `count(distinct ${source.actor})` : 'count(*)'} as n
       from ${source.from}
      where ${source.where} and ${variant} = any(${params.add(window.variants, '::text[]')}) and ${entryPredicate(scope, entry, params)}
      group by 1`,
    params.values,
  );
  return new Map(rows.map((row) => [row.variant, Number(row.n)]));
}

export interface FunnelRow {
  variant: string | null;
  furthest: number;
  actors: number;
}

/**
 * Actors per (variant, furthest step reached), for actors who entered (docs/experiment-results.md,
 * "Funnel"), in one statement. Only events that satisfy some step (its name and its filters) take
 * part, as one bit each per step they satisfy. They are grouped per actor and timestamp: events at
 * one time may serve the steps in any order, but each serves one step.
 *
 * Over an actor's groups in time order, L_m(G) is the latest entry time of a chain of distinct
 * events that reaches step m with its step-m event in group G, all within the conversion window of
 * the entry; in_k(G) = the latest L_k over the groups before G. Steps j..m can all be served inside
 * G when G's events can be matched to them one to one; then L_m(G) may be in_{j−1}(G) (or G's own
 * time for j = 1). An actor reached step m when some group has an L_m. The variant is first touch:
 * the `$feature/<key>` that names a variant on the earliest such event (lowest id within a time).
 */
export async function funnelCounts(scope: Scope, metric: Extract<Metric, { kind: 'funnel' }>): Promise<FunnelRow[]> {
  const { window } = scope;
  const params = new Params();
  const { steps } = metric;
  const count = steps.length;
  const names = [...new Set(steps.map((step) => step.id))];
  const source = eventSource(window, params, names, steps);
  const bit = (m: number) => 2 ** (m - 1);
  const mask = steps
    .map(
      (step, i) =>
        `(case when e.event = ${params.add(step.id, '::text')} and ${entryPredicate(scope, step, params)} then ${bit(i + 1)} else 0 end)`,
    )
    .join(' | ');
  const variants = params.add(window.variants, '::text[]');
  const featureKey = params.add(`$feature/${window.flagKey}`, '::text');
  // fv = id · slots + the variant's 1-based position: the lowest fv of a group is its first event naming a variant.
  const slots = window.variants.length + 1;
  // Every placeholder added must appear in the statement (PostgreSQL types each one): a one-step funnel has no window.
  const conversion = count > 1 ? params.add(metric.conversionWindow, '::interval') : '';
  // With distinct step names an event serves at most one step, so steps j..m fit in a group when each
  // has an event there. A name used by several steps needs a real one-to-one match when a group holds
  // more than one event (experiment_funnel_tie_reach: for each j, the last step m that still fits).
  const repeated = names.length < count;
  const fits = (j: number, m: number) => {
    if (j === m) return `mask & ${bit(m)} <> 0`;
    if (!repeated) {
      const range = bit(m + 1) - bit(j);
      return `mask & ${range} = ${range}`;
    }
    return `coalesce(reach[${j}] >= ${m}, false)`;
  };
  const before = `(partition by actor order by ts rows between unbounded preceding and 1 preceding)`;
  const layers: string[] = [
    `c1 as (select *, case when mask & 1 <> 0 then ts end as l1 from g)`,
    `w1 as (select *, count(fv) over ${before} as nv, max(l1) over ${before} as in1 from c1)`,
  ];
  for (let m = 2; m <= count; m++) {
    const candidates = Array.from({ length: m }, (_, i) => `case when ${fits(i + 1, m)} then ${i === 0 ? 'ts' : `in${i}`} end`);
    layers.push(
      `c${m} as (select *, case when x${m} is not null and ts <= x${m} + ${conversion} then x${m} end as l${m}` +
        ` from (select *, greatest(${candidates.join(', ')}) as x${m} from w${m - 1}) x)`,
    );
    if (m < count) layers.push(`w${m} as (select *, max(l${m}) over ${before} as in${m} from c${m})`);
  }
  const last = count === 1 ? 'w1' : `c${count}`;
  const furthest = `case ${Array.from({ length: count }, (_, i) => `when l${count - i} is not null then ${count - i}`).join(' ')} else 0 end`;
  const rows = await scope.sql<{ vi: number | null; furthest: number; actors: string }>(
    `with s as (
        select ${source.actor} as actor, e.timestamp as ts,
               e.id * ${slots} + array_position(${variants}, e.properties ->> ${featureKey}) as fv, ${mask} as mask
          from ${source.from}
         where ${source.where}
      ),
      g as (
        select actor, ts, bit_or(mask) as mask, min(fv) as fv
               ${repeated ? `, case when count(*) > 1 then experiment_funnel_tie_reach(array_agg(mask), ${count}) end as reach` : ''}
          from s where mask <> 0 group by actor, ts
      ),
      ${layers.join(',\n      ')},
      per_actor as (select max(fv) filter (where nv = 0) as fv, max(${furthest}) as furthest from ${last} group by actor)
      select (fv % ${slots})::int as vi, furthest, count(*) as actors from per_actor where furthest >= 1 group by 1, 2`,
    params.values,
  );
  return rows.map((row) => ({
    variant: row.vi === null ? null : window.variants[row.vi - 1],
    furthest: Number(row.furthest),
    actors: Number(row.actors),
  }));
}

export interface TrendRows {
  /** Per variant, per UTC day (yyyy-mm-dd): matching events and the sum of the math property. */
  days: Array<{ variant: string; day: string; events: number; sum: number }>;
  /** Per variant, per UTC day: actors whose first matching event is that day (dau and per-actor maths). */
  firsts: Array<{ variant: string; day: string; actors: number }>;
  /** Matching events in the window, whatever their flag property. */
  allEvents: number;
}

/** The trend metric's daily counts per variant, in one statement. */
export async function trendCounts(scope: Scope, metric: Extract<Metric, { kind: 'trend' }>): Promise<TrendRows> {
  const { window } = scope;
  const params = new Params();
  const { series } = metric;
  const source = eventSource(window, params, [series.id], [series]);
  const featureKey = params.add(`$feature/${window.flagKey}`, '::text');
  const variants = params.add(window.variants, '::text[]');
  const value =
    metric.math === 'sum' && series.mathProperty !== null
      ? numericValue(`(e.properties -> ${params.add(series.mathProperty, '::text')})`)
      : 'null::numeric';
  const actors = metric.math === 'dau' || metric.math === 'per_actor';
  const rows = await scope.sql<{ kind: string; variant: string | null; day: string | null; n: string; s: number | null }>(
    `with m as (
        select e.properties ->> ${featureKey} as variant, ${actors ? source.actor : 'null::uuid'} as actor,
               to_char((e.timestamp at time zone 'UTC')::date, 'YYYY-MM-DD') as day, ${value} as x
          from ${source.from}
         where ${source.where} and ${entryPredicate(scope, series, params)}
      )
      select 'day' as kind, variant, day, count(*) as n, ${toFloat8('least(greatest(coalesce(sum(x), 0), -1e300), 1e300)')} as s
        from m where variant = any(${variants}) group by variant, day
      ${
        actors
          ? `union all
      select 'first', variant, day, count(*), null from (
        select variant, min(day) as day from m where variant = any(${variants}) group by variant, actor) f group by variant, day`
          : ''
      }
      union all select 'all', null, null, count(*), null from m`,
    params.values,
  );
  const result: TrendRows = { days: [], firsts: [], allEvents: 0 };
  for (const row of rows) {
    if (row.kind === 'all') result.allEvents = Number(row.n);
    else if (row.kind === 'day') result.days.push({ variant: row.variant!, day: row.day!, events: Number(row.n), sum: Number(row.s) });
    else result.firsts.push({ variant: row.variant!, day: row.day!, actors: Number(row.n) });
  }
  return result;
}

/** Whether any event named in `names` from the last 7 days carries a `$feature/…` property. */
export async function anyFlagPropertyRecently(
  em: EntityManager,
  work: RequestWork,
  projectId: number,
  names: string[],
  now: Date,
): Promise<boolean> {
  if (names.length === 0) return false;
  return withConnection(em, work, async (sql) => {
    const [row] = await sql<{ found: boolean }>(
      `select exists(
         select 1 from event e
          where e.project_id = $1 and e.event = any($2::text[]) and e.timestamp >= $3::timestamptz - interval '7 days' and e.timestamp <= $3::timestamptz
            and exists (select 1 from jsonb_object_keys(e.properties) k where starts_with(k, '$feature/'))
       ) as found`,
      [projectId, names, now],
    );
    return row.found;
  });
}

const PERCENTILES: Record<string, number> = { median: 0.5, p90: 0.9, p95: 0.95, p99: 0.99 };

/** `avg`, `min`, `max`, `median`, `p90`, `p95`, `p99` over `value` (numeric or bigint) as a float8 SQL aggregate. */
function aggregateOf(math: string, value: string): string {
  if (math in PERCENTILES) return `percentile_cont(${PERCENTILES[math]}) within group (order by ${value})`;
  return toFloat8(`${math}(${value})`);
}

/**
 * A secondary trend metric with a per-actor or property math, applied once over the window: the
 * math of each actor's event count (`<math>_count_per_actor`), or of the numeric property values.
 */
export async function perActorValues(scope: Scope, metric: Extract<Metric, { kind: 'trend' }>): Promise<Map<string, number>> {
  const { window } = scope;
  const params = new Params();
  const { series } = metric;
  const raw = series.math ?? 'total';
  const perActor = raw.endsWith('_count_per_actor');
  const math = perActor ? raw.slice(0, -'_count_per_actor'.length) : raw;
  const source = eventSource(window, params, [series.id], [series]);
  const featureKey = params.add(`$feature/${window.flagKey}`, '::text');
  const variants = params.add(window.variants, '::text[]');
  const value =
    series.mathProperty === null ? 'null::numeric' : numericValue(`(e.properties -> ${params.add(series.mathProperty, '::text')})`);
  const matching = `from ${source.from}
            where ${source.where} and ${entryPredicate(scope, series, params)} and (e.properties ->> ${featureKey}) = any(${variants})`;
  const rows = await scope.sql<{ variant: string; v: number | null }>(
    perActor
      ? `select variant, ${aggregateOf(math, 'n')} as v from (
           select e.properties ->> ${featureKey} as variant, ${source.actor} as actor, count(*) as n ${matching}
            group by 1, 2) per_actor
         group by variant`
      : `select variant, ${aggregateOf(math, 'x')} as v from (
           select e.properties ->> ${featureKey} as variant, ${value} as x ${matching}) m
         where x is not null group by variant`,
    params.values,
  );
  return new Map(rows.filter((row) => row.v !== null).map((row) => [row.variant, Number(row.v)]));
}
