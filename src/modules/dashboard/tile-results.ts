import type { EntityManager } from '@mikro-orm/postgresql';
import { DashboardStore, type TileCounts, type TileSource } from './dashboard.store';
import { DAY_MS, parseInsight, type InsightQuery } from './insight-filters';

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

/**
 * Tile results, computed in SQL from stored events on every read (DashboardStore.tileCounts): events (or, for `dau`, distinct
 * persons) per UTC day over the range, per breakdown value. Tiles that read the same events with
 * different values of their first property (every usage dashboard's tiles: one per flag key) share
 * one statement, so a page of dashboards costs one statement per kind of tile, not per tile.
 */
export async function computeTileResults(
  em: EntityManager,
  tiles: readonly TileToCompute[],
  now: Date,
  /** The request's (src/http/request-work.ts): no statement is sent once it has ended. */
  signal?: AbortSignal,
): Promise<InsightSeries[][]> {
  const today = Math.floor(now.getTime() / DAY_MS);
  const sources = new Map<string, TileSource>();
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

  const found = new Map<TileSource, Map<string, TileCounts>>();
  for (const source of sources.values()) {
    signal?.throwIfAborted();
    found.set(source, await DashboardStore.tileCounts(em, source, today));
  }

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

function seriesOf(
  query: InsightQuery,
  series: InsightQuery['series'][number],
  found: TileCounts | undefined,
  days: string[],
): InsightSeries[] {
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
