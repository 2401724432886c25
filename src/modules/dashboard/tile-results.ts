import type { EntityManager } from '@mikro-orm/postgresql';
import { parseInsight, type InsightQuery, type PropertyMatch } from './insight-filters';

/** One series of a tile's result (docs/dashboards.md). */
export interface InsightSeries {
  label: string;
  breakdownValue: string | null;
  days: string[];
  data: number[];
  count: number;
  aggregatedValue: number;
}

export interface TileToCompute {
  id: number;
  projectId: number;
  filters: Record<string, unknown>;
  dashboardFilters: Record<string, unknown>;
}

/** The events of one event name, one property match, one breakdown and one range: one scan answers every tile asking for them. */
interface Source {
  key: string;
  projectId: number;
  event: string;
  breakdown: string | null;
  daysBack: number;
  /** Rows are split by this property's value, so several flags' tiles share one statement. */
  splitKey: string | null;
  splitValues: Set<string>;
  otherProperties: PropertyMatch[];
  needsPersons: boolean;
}

/** What one source's scan found for one split value, by breakdown value. */
interface Found {
  eventsPerDay: Map<string | null, number[]>;
  personsPerDay: Map<string | null, number[]>;
  personsInRange: Map<string | null, number>;
}

const DAY_MS = 86_400_000;
/** Days per bigint mask (bit 63 is the sign). */
const MASK_DAYS = 63;

const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;
// knex spreads an array binding into one placeholder per item, hence `array[?]` for lists (never empty here).
const property = (key: string) => `e.properties ->> ${literal(key)}`;

/**
 * Tile results, computed in SQL from stored events on every read: events (or, for `dau`, distinct
 * persons) per UTC day over the range, per breakdown value. Tiles that read the same events with
 * different values of their first property (every usage dashboard's tiles: one per flag key) share
 * one statement, so a page of dashboards costs one statement per kind of tile, not per tile.
 */
export async function computeTileResults(em: EntityManager, tiles: readonly TileToCompute[], now = new Date()): Promise<InsightSeries[][]> {
  const today = Math.floor(now.getTime() / DAY_MS);
  const sources = new Map<string, Source>();
  const plans = tiles.map((tile) => {
    const query = parseInsight(tile.filters, tile.dashboardFilters);
    if (!query) return null;
    const uses = [...new Set(query.series.map((s) => s.event))].map((event) => {
      const [first, ...rest] = query.properties;
      const split = first && first.values.length === 1 ? first : null;
      const others = split ? rest : query.properties;
      const key = JSON.stringify([
        tile.projectId,
        event,
        query.breakdown,
        query.daysBack,
        split?.key ?? null,
        others,
        split ? '' : tile.id,
      ]);
      let source = sources.get(key);
      if (!source) {
        source = {
          key,
          projectId: tile.projectId,
          event,
          breakdown: query.breakdown,
          daysBack: query.daysBack,
          splitKey: split?.key ?? null,
          splitValues: new Set(),
          otherProperties: others,
          needsPersons: false,
        };
        sources.set(key, source);
      }
      if (split) source.splitValues.add(split.values[0]);
      if (query.series.some((s) => s.event === event && s.math === 'dau')) source.needsPersons = true;
      return { event, source, splitValue: split ? split.values[0] : '' };
    });
    return { query, uses };
  });

  const found = new Map<Source, Map<string, Found>>();
  for (const source of sources.values()) found.set(source, await scan(em, source, today));

  return plans.map((plan) => {
    if (!plan) return [];
    const days = dayLabels(today, plan.query.daysBack);
    return plan.query.series.flatMap((series) => {
      const use = plan.uses.find((u) => u.event === series.event)!;
      return seriesOf(plan.query, series, found.get(use.source)!.get(use.splitValue), days);
    });
  });
}

function dayLabels(today: number, daysBack: number): string[] {
  return Array.from({ length: daysBack + 1 }, (_, i) => new Date((today - daysBack + i) * DAY_MS).toISOString().slice(0, 10));
}

function seriesOf(query: InsightQuery, series: InsightQuery['series'][number], found: Found | undefined, days: string[]): InsightSeries[] {
  const zeros = () => days.map(() => 0);
  const make = (value: string | null, label: string): InsightSeries => {
    const data = (series.math === 'dau' ? found?.personsPerDay.get(value) : found?.eventsPerDay.get(value)) ?? zeros();
    const count = data.reduce((sum, n) => sum + n, 0);
    const aggregatedValue = series.math === 'dau' ? (found?.personsInRange.get(value) ?? 0) : count;
    return { label, breakdownValue: value, days, data, count, aggregatedValue };
  };
  if (query.breakdown === null) return [make(null, series.name)];
  const values = [...(found?.eventsPerDay.keys() ?? [])];
  // SPEC-GAP: ordered by count, descending, then by value (a missing value last).
  return values
    .map((value) => make(value, value ?? 'none'))
    .sort((a, b) => b.count - a.count || compareValues(a.breakdownValue, b.breakdownValue));
}

function compareValues(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}

/**
 * One statement over the source's events. Without persons: counts by (split value, breakdown,
 * day). With persons: one pass groups the same rows two ways (grouping sets): by day for the
 * counts, and by person with a bit per day seen, from which distinct persons per day and over
 * the range follow without a second scan or a sort of the events.
 */
async function scan(em: EntityManager, source: Source, today: number): Promise<Map<string, Found>> {
  const days = source.daysBack + 1;
  const firstDay = today - source.daysBack;
  const from = new Date(firstDay * DAY_MS);
  const until = new Date((today + 1) * DAY_MS);
  const params: unknown[] = [from.toISOString().slice(0, 10), source.projectId, from, until];
  const conditions = source.otherProperties.map((p) => {
    params.push(p.values);
    return `${property(p.key)} = any(array[?]::text[])`;
  });
  if (source.splitKey !== null) {
    params.push([...source.splitValues]);
    conditions.push(`${property(source.splitKey)} = any(array[?]::text[])`);
  }
  // One split value (a lone usage dashboard): the filter already fixed it, so no second extraction per row.
  const split =
    source.splitKey === null
      ? `''`
      : source.splitValues.size === 1
        ? `${literal([...source.splitValues][0])}::text`
        : property(source.splitKey);
  const events = `select ${split} as src,
           ${source.breakdown === null ? 'null::text' : property(source.breakdown)} as bv,
           (e.timestamp at time zone 'UTC')::date - ?::date as di,
           -- One uuid per actor: the person, else the distinct id hashed (as experiment results count them).
           coalesce(e.person_id, md5('distinct:' || e.distinct_id)::uuid) as actor
      from event e
     where e.project_id = ? and e.event = ${literal(source.event)} and e.timestamp >= ? and e.timestamp < ?
           ${conditions.map((c) => `and ${c}`).join(' ')}`;
  let sql: string;
  if (!source.needsPersons) {
    sql = `select 0 as g, src, bv, di, count(*)::int as n, null::int as persons, null::int[] as dau from (${events}) e group by src, bv, di`;
  } else {
    const chunks = Math.ceil(days / MASK_DAYS);
    const masks = Array.from({ length: chunks }, (_, c) =>
      chunks === 1
        ? `bit_or(1::bigint << di) as m0`
        : `bit_or(case when di >= ${c * MASK_DAYS} and di < ${(c + 1) * MASK_DAYS} then 1::bigint << (di - ${c * MASK_DAYS}) else 0::bigint end) as m${c}`,
    );
    const perDay = Array.from({ length: days }, (_, i) => `sum((m${Math.floor(i / MASK_DAYS)} >> ${i % MASK_DAYS}) & 1)`);
    sql = `with s as (
             select src, bv, di, count(*) as n, ${masks.join(', ')}, grouping(di) as g
               from (${events}) e
              group by grouping sets ((src, bv, di), (src, bv, actor)))
           select 0 as g, src, bv, di, n::int as n, null::int as persons, null::int[] as dau from s where g = 0
           union all
           select 1, src, bv, null, null, count(*)::int, array[${perDay.join(', ')}]::int[] from s where g = 1 group by src, bv`;
  }
  const rows: Array<{
    g: number;
    src: string;
    bv: string | null;
    di: number | null;
    n: number | null;
    persons: number | null;
    dau: number[] | null;
  }> = await em.transactional(async (tx) => {
    // The planner expects up to one group per event for the person grouping set; with the default
    // 4 MB it then sorts every event (7-15 s at 1,000,000) instead of hashing the ~30,000 actual groups
    // in one pass (1.5-2 s). JIT off: compiling this statement costs more than it saves.
    await tx.execute(`select set_config('work_mem', '64MB', true), set_config('jit', 'off', true)`);
    return tx.execute(sql, params);
  });

  const bySplit = new Map<string, Found>();
  const at = (src: string) => {
    let entry = bySplit.get(src);
    if (!entry) bySplit.set(src, (entry = { eventsPerDay: new Map(), personsPerDay: new Map(), personsInRange: new Map() }));
    return entry;
  };
  for (const row of rows) {
    const entry = at(row.src);
    if (Number(row.g) === 0) {
      let data = entry.eventsPerDay.get(row.bv);
      if (!data) entry.eventsPerDay.set(row.bv, (data = new Array<number>(days).fill(0)));
      const day = Number(row.di);
      if (day >= 0 && day < days) data[day] += Number(row.n);
    } else {
      entry.personsInRange.set(row.bv, Number(row.persons));
      entry.personsPerDay.set(row.bv, (row.dau ?? []).map(Number));
    }
  }
  return bySplit;
}
