import type { EntityManager } from '@mikro-orm/postgresql';
import type { MetricEntry, Metric } from './metric';
import { Params, numericValue, propertyPredicate } from './property-sql';

/**
 * The SQL of experiment results (docs/experiment-results.md): every count is aggregated in
 * PostgreSQL, one statement per question, over the event indexes of the ingestion migration
 * ((project_id, event, timestamp) for metrics, the partial `$feature_flag_called` index for exposures).
 */

export interface Sql {
  <T = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
}

interface PgConnection {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** One pooled connection for the whole computation (positional parameters, arrays as arrays), in one transaction. */
export async function withConnection<T>(em: EntityManager, work: (sql: Sql) => Promise<T>): Promise<T> {
  const client = em.getConnection().getKnex().client;
  const connection: PgConnection = await client.acquireConnection();
  const sql = (async (text: string, values?: unknown[]) => (await connection.query(text, values)).rows) as Sql;
  try {
    await sql('begin');
    try {
      // The funnel sorts every step event by actor and time: a larger sort budget keeps that in memory.
      // JIT off: these statements look expensive to the planner (the per-row actor lookup), and
      // compiling them cost ~1.6 s on 30,000 events against ~0.25 s of work (bench/experiment-results.ts).
      await sql(`select set_config('work_mem', '64MB', true), set_config('jit', 'off', true)`);
      const result = await work(sql);
      await sql('commit');
      return result;
    } catch (error) {
      await sql('rollback').catch(() => undefined);
      throw error;
    }
  } finally {
    await client.releaseConnection(connection);
  }
}

export interface Window {
  projectId: number;
  start: Date;
  end: Date;
  flagKey: string;
  variants: string[];
  groupIndex: number | null;
}

/**
 * The actor of an event as a uuid: the group key (hashed) when aggregating by group, else the person
 * (its current owner, resolved now for an event stored without one), else the distinct id (hashed),
 * the way personless events count as their own person.
 */
function actorOf(groupIndex: number | null): string {
  if (groupIndex !== null) return `md5(e.properties ->> '$group_${groupIndex}')::uuid`;
  return (
    `coalesce(e.person_id, (select p.uuid from person_distinct_id d join person p on p.id = d.person_id ` +
    `where d.project_id = e.project_id and d.distinct_id = e.distinct_id), md5('distinct:' || e.distinct_id)::uuid)`
  );
}

const groupPresent = (groupIndex: number | null) =>
  groupIndex === null ? 'true' : `(e.properties ->> '$group_${groupIndex}') is not null`;

const usesPerson = (entries: MetricEntry[]) => entries.some((entry) => entry.properties.some((filter) => filter.type === 'person'));
const personJoin = (entries: MetricEntry[]) =>
  usesPerson(entries) ? `left join person p on p.uuid = e.person_id and p.project_id = e.project_id` : '';

/** The entry's property filters, AND-ed. */
function entryPredicate(entry: MetricEntry, params: Params): string {
  const parts = entry.properties.map((filter) =>
    propertyPredicate(filter, filter.type === 'person' ? `coalesce(p.properties, '{}'::jsonb)` : 'e.properties', params),
  );
  return parts.length ? parts.join(' and ') : 'true';
}

function baseWhere(window: Window, params: Params, names: string[]): string {
  return (
    `e.project_id = ${params.add(window.projectId, '::int')} and e.event = any(${params.add(names, '::text[]')}) ` +
    `and e.timestamp >= ${params.add(window.start, '::timestamptz')} and e.timestamp <= ${params.add(window.end, '::timestamptz')} ` +
    `and ${groupPresent(window.groupIndex)}`
  );
}

/** Distinct actors with `$feature_flag_called` for the flag, per response, for every flag variant. */
export async function defaultExposures(sql: Sql, window: Window): Promise<Map<string, number>> {
  const params = new Params();
  const rows = await sql<{ variant: string; n: string }>(
    `select e.properties ->> '$feature_flag_response' as variant, count(distinct ${actorOf(window.groupIndex)}) as n
       from event e
      where ${baseWhere(window, params, ['$feature_flag_called'])}
        and (e.properties ->> '$feature_flag') = ${params.add(window.flagKey, '::text')}
        and (e.properties ->> '$feature_flag_response') = any(${params.add(window.variants, '::text[]')})
      group by 1`,
    params.values,
  );
  return new Map(rows.map((row) => [row.variant, Number(row.n)]));
}

/** The custom exposure: its event with `$feature/<key>` = the variant; distinct actors (`dau`) or events. */
export async function customExposures(sql: Sql, window: Window, entry: MetricEntry, distinctActors: boolean): Promise<Map<string, number>> {
  const params = new Params();
  const where = baseWhere(window, params, [entry.id]);
  const variant = `(e.properties ->> ${params.add(`$feature/${window.flagKey}`, '::text')})`;
  const rows = await sql<{ variant: string; n: string }>(
    `select ${variant} as variant, ${distinctActors ? `count(distinct ${actorOf(window.groupIndex)})` : 'count(*)'} as n
       from event e ${personJoin([entry])}
      where ${where} and ${variant} = any(${params.add(window.variants, '::text[]')}) and ${entryPredicate(entry, params)}
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
 * Actors per (variant, furthest step reached), for actors who entered. Ordered funnel, in SQL:
 * L1 = a step-1 event's own time; L_k at a step-k event = the latest L_{k−1} among the actor's other
 * events at or before it (the latest entry leaves the most of the conversion window), kept when the
 * event is within the window of that entry. An actor reached step k when some event has an L_k.
 * The variant is the first step event's `$feature/<key>` that names a variant (first touch).
 */
export async function funnelCounts(sql: Sql, window: Window, metric: Extract<Metric, { kind: 'funnel' }>): Promise<FunnelRow[]> {
  const params = new Params();
  const names = [...new Set(metric.steps.map((step) => step.id))];
  const where = baseWhere(window, params, names);
  const stepColumns = metric.steps
    .map((step, i) => `(e.event = ${params.add(step.id, '::text')} and ${entryPredicate(step, params)}) as s${i + 1}`)
    .join(', ');
  const featureKey = params.add(`$feature/${window.flagKey}`, '::text');
  const conversion = params.add(metric.conversionWindow, '::interval');
  const variants = params.add(window.variants, '::text[]');
  const stepList = metric.steps.map((_, i) => `s${i + 1}`).join(', ');
  // Every window below reads the one sort by (actor, time, id). `before` = the actor's events before
  // this one in that order. nv: how many of them name a variant; the event that names one with nv = 0
  // gives the actor's variant (first touch; an ordered array_agg per actor sorted each actor again).
  // L_k at an event = the latest L_{k−1} among the actor's other events at or before it: b_k over the
  // events before it (computed with L_{k−1}, in the same window pass), then its later peers at the
  // same time. Not `range … exclude current row`: with an exclusion PostgreSQL restarts the aggregate
  // at every row, quadratic in an actor's events (53 s for one actor with 30,000 events; now 0.2 s).
  const before = `(partition by actor order by ts, id rows between unbounded preceding and 1 preceding)`;
  const next = (k: number, value: string) => (k < metric.steps.length ? `, max(${value}) over ${before} as b${k + 1}` : '');
  const levels: string[] = [
    `l1 as (select actor, ts, id, variant, ${stepList}, case when s1 then ts end as l1, ` +
      `count(*) filter (where variant = any(${variants})) over ${before} as nv${next(1, 'case when s1 then ts end')} from s)`,
  ];
  for (let k = 2; k <= metric.steps.length; k++) {
    const carried = Array.from({ length: k - 1 }, (_, i) => `l${i + 1}`).join(', ');
    const level = `case when r${k} is not null and ts <= r${k} + ${conversion} then r${k} end`;
    levels.push(
      `l${k}r as (select *, case when s${k} then greatest(b${k}, ` +
        `max(l${k - 1}) over (partition by actor, ts order by id rows between 1 following and unbounded following)) end as r${k} from l${k - 1}),` +
        ` l${k} as (select actor, ts, id, variant, nv, ${stepList}, ${carried}, ${level} as l${k}${next(k, level)} from l${k}r)`,
    );
  }
  const last = `l${metric.steps.length}`;
  const furthest = `greatest(${metric.steps.map((_, i) => `case when bool_or(l${i + 1} is not null) then ${i + 1} else 0 end`).join(', ')}, 0)`;
  const rows = await sql<{ variant: string | null; furthest: number; actors: string }>(
    `with s as (
        select ${actorOf(window.groupIndex)} as actor, e.timestamp as ts, e.id, e.properties ->> ${featureKey} as variant, ${stepColumns}
          from event e ${personJoin(metric.steps)}
         where ${where}
      ), ${levels.join(', ')},
      per_actor as (
        select max(variant) filter (where nv = 0 and variant = any(${variants})) as variant, ${furthest} as furthest
          from ${last} group by actor
      )
      select variant, furthest, count(*) as actors from per_actor where furthest >= 1 group by variant, furthest`,
    params.values,
  );
  return rows.map((row) => ({ variant: row.variant, furthest: Number(row.furthest), actors: Number(row.actors) }));
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
export async function trendCounts(sql: Sql, window: Window, metric: Extract<Metric, { kind: 'trend' }>): Promise<TrendRows> {
  const params = new Params();
  const { series } = metric;
  const where = baseWhere(window, params, [series.id]);
  const featureKey = params.add(`$feature/${window.flagKey}`, '::text');
  const variants = params.add(window.variants, '::text[]');
  const value =
    metric.math === 'sum' && series.mathProperty !== null
      ? numericValue(`(e.properties -> ${params.add(series.mathProperty, '::text')})`)
      : 'null::numeric';
  const actors = metric.math === 'dau' || metric.math === 'per_actor';
  const rows = await sql<{ kind: string; variant: string | null; day: string | null; n: string; s: number | null }>(
    `with m as (
        select e.properties ->> ${featureKey} as variant, ${actors ? actorOf(window.groupIndex) : 'null::uuid'} as actor,
               to_char((e.timestamp at time zone 'UTC')::date, 'YYYY-MM-DD') as day, ${value} as x
          from event e ${personJoin([series])}
         where ${where} and ${entryPredicate(series, params)}
      )
      select 'day' as kind, variant, day, count(*) as n, least(greatest(coalesce(sum(x), 0), -1e300), 1e300)::float8 as s
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
export async function anyFlagPropertyRecently(em: EntityManager, projectId: number, names: string[], now: Date): Promise<boolean> {
  if (names.length === 0) return false;
  return withConnection(em, async (sql) => {
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

/** `avg`, `min`, `max`, `median`, `p90`, `p95`, `p99` over `value` as an SQL aggregate. */
function aggregateOf(math: string, value: string): string {
  if (math in PERCENTILES) return `percentile_cont(${PERCENTILES[math]}) within group (order by ${value})`;
  return `${math}(${value})`;
}

/**
 * A secondary trend metric with a per-actor or property math, applied once over the window: the
 * math of each actor's event count (`<math>_count_per_actor`), or of the numeric property values.
 */
export async function perActorValues(sql: Sql, window: Window, metric: Extract<Metric, { kind: 'trend' }>): Promise<Map<string, number>> {
  const params = new Params();
  const { series } = metric;
  const raw = series.math ?? 'total';
  const perActor = raw.endsWith('_count_per_actor');
  const math = perActor ? raw.slice(0, -'_count_per_actor'.length) : raw;
  const where = baseWhere(window, params, [series.id]);
  const featureKey = params.add(`$feature/${window.flagKey}`, '::text');
  const variants = params.add(window.variants, '::text[]');
  const value =
    series.mathProperty === null ? 'null::numeric' : numericValue(`(e.properties -> ${params.add(series.mathProperty, '::text')})`);
  const rows = await sql<{ variant: string; v: number | null }>(
    perActor
      ? `select variant, (${aggregateOf(math, 'n')})::float8 as v from (
           select e.properties ->> ${featureKey} as variant, ${actorOf(window.groupIndex)} as actor, count(*) as n
             from event e ${personJoin([series])}
            where ${where} and ${entryPredicate(series, params)} and (e.properties ->> ${featureKey}) = any(${variants})
            group by 1, 2) per_actor
         group by variant`
      : `select variant, (${aggregateOf(math, 'x')})::float8 as v from (
           select e.properties ->> ${featureKey} as variant, ${value} as x
             from event e ${personJoin([series])}
            where ${where} and ${entryPredicate(series, params)} and (e.properties ->> ${featureKey}) = any(${variants})) m
         where x is not null group by variant`,
    params.values,
  );
  return new Map(rows.filter((row) => row.v !== null).map((row) => [row.variant, Number(row.v)]));
}
