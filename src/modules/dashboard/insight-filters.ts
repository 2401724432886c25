/**
 * The part of upstream's TRENDS insight filters that tile results understand, parsed into a plain
 * description (pure; no I/O). Anything else makes the tile's result empty rather than wrong.
 */

export interface SeriesDefinition {
  /** The event counted. */
  event: string;
  /** The series' label when there is no breakdown. */
  name: string;
  /** `total` counts events; `dau` counts distinct persons. */
  math: 'total' | 'dau';
}

export interface PropertyMatch {
  key: string;
  /** Any of these (upstream's `exact` with a list), compared as text. */
  values: string[];
}

export interface InsightQuery {
  series: SeriesDefinition[];
  properties: PropertyMatch[];
  /** An event property to break the series down by, or null. */
  breakdown: string | null;
  /** Days before today the range starts (the range ends with today, UTC). */
  daysBack: number;
}

/** SPEC-GAP: the default range (`-30d`: today and the 30 days before, docs/dashboards.md) and the longest served. */
export const DEFAULT_DAYS_BACK = 30;
export const MAX_DAYS_BACK = 365;
/** Milliseconds in a day: days are counted since the epoch, in UTC. */
export const DAY_MS = 86_400_000;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
/** Names end up as SQL literals and knex reads `?` as a placeholder: both are refused rather than escaped twice. */
const usableName = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= 400 && !/[?\0]/.test(value);

/**
 * `-30d`, `-2w` → days back. SPEC-GAP: only relative day and week ranges are understood; anything
 * else (absolute dates, months, `all`) falls back to the tile's own range, then to 30 days.
 */
export function parseDaysBack(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const match = /^-(\d{1,4})([dw])$/.exec(value.trim());
  if (!match) return null;
  const days = Number(match[1]) * (match[2] === 'w' ? 7 : 1);
  return Math.min(days, MAX_DAYS_BACK);
}

/**
 * A caller's range for one read (`Dashboard.tiles(dateFrom:)`): the forms `parseDaysBack` understands,
 * answered as the `date_from` to read with (over 365 days reads 365, as a stored range does), or
 * null when it is not one of them (the caller refuses it: unlike a stored filter's, a form not
 * understood is never replaced by the dashboard's range).
 */
export function parseDateFromOverride(value: string): string | null {
  if (value.length > 16) return null;
  const days = parseDaysBack(value);
  return days === null ? null : `-${days}d`;
}

function scalarText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return String(value);
  return null;
}

/** `{type: AND, values: [...]}` groups (nested) or a plain list, of `exact` event-property filters. */
function parseProperties(value: unknown, out: PropertyMatch[]): boolean {
  if (value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.every((item) => parseProperties(item, out));
  if (!isObject(value)) return false;
  if ('values' in value) {
    if (value.type !== undefined && value.type !== 'AND') return false;
    return Array.isArray(value.values) && value.values.every((item) => parseProperties(item, out));
  }
  if (!usableName(value.key) || (value.type !== undefined && value.type !== 'event')) return false;
  if (value.operator !== undefined && value.operator !== null && value.operator !== 'exact') return false;
  const values = (Array.isArray(value.value) ? value.value : [value.value]).map(scalarText);
  if (values.length === 0 || values.some((v) => v === null)) return false;
  out.push({ key: value.key, values: values as string[] });
  return true;
}

/** The tile's query, with the dashboard's `date_from` winning over the tile's (as upstream's dashboard filters do); null when not understood. */
export function parseInsight(filters: Record<string, unknown>, dashboardFilters: Record<string, unknown>): InsightQuery | null {
  if (filters.insight !== undefined && filters.insight !== 'TRENDS') return null;
  if (!Array.isArray(filters.events) || filters.events.length === 0) return null;
  const series: SeriesDefinition[] = [];
  for (const entry of filters.events) {
    if (!isObject(entry) || !usableName(entry.id)) return null;
    if (entry.math !== undefined && entry.math !== null && entry.math !== 'total' && entry.math !== 'dau') return null;
    series.push({
      event: entry.id,
      name: typeof entry.name === 'string' ? entry.name : entry.id,
      math: entry.math === 'dau' ? 'dau' : 'total',
    });
  }
  const properties: PropertyMatch[] = [];
  if (!parseProperties(filters.properties, properties)) return null;
  let breakdown: string | null = null;
  if (filters.breakdown !== undefined && filters.breakdown !== null) {
    if (!usableName(filters.breakdown) || (filters.breakdown_type !== undefined && filters.breakdown_type !== 'event')) return null;
    breakdown = filters.breakdown;
  }
  const daysBack = parseDaysBack(dashboardFilters.date_from) ?? parseDaysBack(filters.date_from) ?? DEFAULT_DAYS_BACK;
  return { series, properties, breakdown, daysBack };
}
