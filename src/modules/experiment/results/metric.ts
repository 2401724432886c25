import { isPlainObject } from '../../../validation/python';
import { resultErrors } from './results.errors';

/** One `filters.events` entry, cleaned (docs/experiment-results.md, "Metrics"). */
export interface MetricEntry {
  id: string;
  name: string;
  customName: string | null;
  order: number;
  type: string;
  math: string | null;
  mathProperty: string | null;
  properties: PropertyFilter[];
}

export interface PropertyFilter {
  key: string;
  value: unknown;
  operator: string;
  type: 'event' | 'person';
}

export const PER_ACTOR_MATHS = ['avg', 'min', 'max', 'median', 'p90', 'p95', 'p99'];
const TREND_MATHS = new Set(['total', 'dau', 'sum', ...PER_ACTOR_MATHS, ...PER_ACTOR_MATHS.map((m) => `${m}_count_per_actor`)]);

export type TrendMath = 'total' | 'dau' | 'sum' | 'per_actor';

export type Metric =
  | { kind: 'funnel'; steps: MetricEntry[]; conversionWindow: string; groupIndex: number | null }
  | { kind: 'trend'; series: MetricEntry; math: TrendMath; groupIndex: number | null };

const WINDOW_UNITS = new Set(['minute', 'hour', 'day', 'week', 'month']);

/** The most steps a funnel may have: each step is a pass over the actors' events (docs/experiment-results.md, "Limits"). */
export const MAX_FUNNEL_STEPS = 20;

const positiveInteger = (value: unknown): number | null =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= 100_000 ? value : null;

/** A group type index 0..4 aggregates by group; anything else by person. */
export const groupIndexOf = (filters: Record<string, unknown>): number | null => {
  const index = filters.aggregation_group_type_index;
  return typeof index === 'number' && Number.isInteger(index) && index >= 0 && index <= 4 ? index : null;
};

function propertyFilters(value: unknown): PropertyFilter[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isPlainObject).map((filter) => {
    const type = filter.type ?? 'event';
    if (type !== 'event' && type !== 'person') throw resultErrors.propertyType();
    const operator = filter.operator === undefined || filter.operator === null ? 'exact' : String(filter.operator);
    return { key: typeof filter.key === 'string' ? filter.key : JSON.stringify(filter.key ?? null), value: filter.value, operator, type };
  });
}

/** The usable `events` entries (objects naming an event), sorted by `order` (stable; missing order keeps its place). */
export function metricEntries(filters: Record<string, unknown>): MetricEntry[] {
  const events = Array.isArray(filters.events) ? filters.events : [];
  return events
    .map((entry, index) => ({ entry, index }))
    .filter(({ entry }) => isPlainObject(entry) && typeof entry.id === 'string' && entry.id !== '')
    .map(({ entry, index }) => {
      const e = entry as Record<string, unknown>;
      return {
        id: e.id as string,
        name: typeof e.name === 'string' ? e.name : (e.id as string),
        customName: typeof e.custom_name === 'string' ? e.custom_name : null,
        order: typeof e.order === 'number' && Number.isFinite(e.order) ? e.order : index,
        type: typeof e.type === 'string' ? e.type : 'events',
        math: typeof e.math === 'string' ? e.math : null,
        mathProperty: typeof e.math_property === 'string' ? e.math_property : null,
        properties: e.properties,
        index,
      };
    })
    .sort((a, b) => a.order - b.order || a.index - b.index)
    .map(({ index: _index, properties, ...entry }) => ({ ...entry, properties: properties as unknown as PropertyFilter[] }));
}

const hasActions = (filters: Record<string, unknown>) => Array.isArray(filters.actions) && filters.actions.length > 0;

/** `funnels`, `trends` (also when absent), or null for anything else. */
export function insightOf(filters: Record<string, unknown>): 'funnel' | 'trend' | null {
  if (filters.insight === undefined || filters.insight === null) return 'trend';
  if (typeof filters.insight !== 'string') return null;
  const insight = filters.insight.toLowerCase();
  return insight === 'funnels' ? 'funnel' : insight === 'trends' ? 'trend' : null;
}

/** The first checks of the results endpoint, in the API's order, before the start date is looked at. */
export function checkTargetMetric(filters: Record<string, unknown>): void {
  if (metricEntries(filters).length === 0 && !hasActions(filters)) throw resultErrors.noTargetMetric();
  if (hasActions(filters)) throw resultErrors.onlyEvents();
  if (insightOf(filters) === null) throw resultErrors.notFunnelOrTrend();
}

function conversionWindow(filters: Record<string, unknown>): string {
  const interval = positiveInteger(filters.funnel_window_interval);
  const unit = typeof filters.funnel_window_interval_unit === 'string' ? filters.funnel_window_interval_unit.toLowerCase() : null;
  if (interval !== null && unit !== null && WINDOW_UNITS.has(unit)) return `${interval} ${unit}s`;
  const days = positiveInteger(filters.funnel_window_days);
  return `${days ?? 14} days`;
}

/**
 * The metric a filter describes, after its math and property filters are checked. `null` when it
 * names no event (a secondary metric without one has no data).
 */
export function parseMetric(filters: Record<string, unknown>): Metric | null {
  const insight = insightOf(filters);
  const entries = metricEntries(filters).map((entry) => ({ ...entry, properties: propertyFilters(entry.properties) }));
  const groupIndex = groupIndexOf(filters);
  if (insight === 'funnel') {
    if (entries.length > MAX_FUNNEL_STEPS) throw resultErrors.tooManySteps(MAX_FUNNEL_STEPS);
    return entries.length ? { kind: 'funnel', steps: entries, conversionWindow: conversionWindow(filters), groupIndex } : null;
  }
  if (entries.length === 0) return null;
  const series = entries[0];
  const math = series.math ?? 'total';
  if (!TREND_MATHS.has(math)) throw resultErrors.unsupportedMath(math);
  const kind: TrendMath = math === 'total' || math === 'dau' || math === 'sum' ? math : 'per_actor';
  return { kind: 'trend', series, math: kind, groupIndex };
}

/** `parameters.custom_exposure_filter`'s first event entry, or null (the default exposure). */
export function customExposure(parameters: Record<string, unknown>): { entry: MetricEntry; distinctActors: boolean } | null {
  const filter = parameters.custom_exposure_filter;
  if (!isPlainObject(filter)) return null;
  const [first] = metricEntries(filter);
  if (!first) return null;
  return { entry: { ...first, properties: propertyFilters(first.properties) }, distinctActors: first.math === 'dau' };
}
