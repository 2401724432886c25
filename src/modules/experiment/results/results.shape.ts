import { formatTimestampSeconds } from '../../../graphql/scalars';
import { funnelStatistics, sampleRatioMismatch, trendStatistics } from '../statistics';
import type { Metric, MetricEntry } from './metric';
import { resultErrors } from './results.errors';
import type { FunnelRow, TrendRows } from './results.store';

/** The flag's variants as results use them (the flag is authoritative): key and rollout weight. */
export interface FlagVariant {
  key: string;
  rollout: number;
}

export interface ShapeInput {
  filters: Record<string, unknown>;
  flagKey: string;
  variants: FlagVariant[];
  start: Date;
  end: Date;
}

/** Control first, then the test variants in flag order. */
export const orderedKeys = (variants: FlagVariant[]) => [
  ...variants.filter((v) => v.key === 'control').map((v) => v.key),
  ...variants.filter((v) => v.key !== 'control').map((v) => v.key),
];

export function echoFilters(input: ShapeInput, insight: 'FUNNELS' | 'TRENDS'): Record<string, unknown> {
  return {
    ...input.filters,
    insight,
    date_from: formatTimestampSeconds(input.start),
    date_to: formatTimestampSeconds(input.end),
    explicit_date: true,
    breakdown: `$feature/${input.flagKey}`,
    breakdown_type: 'event',
    properties: [],
  };
}

function sampleRatio(variants: FlagVariant[], exposures: Map<string, number>) {
  const { srm, srmPValue } = sampleRatioMismatch(
    variants.map((v) => exposures.get(v.key) ?? 0),
    variants.map((v) => v.rollout),
  );
  return { srm, srm_p_value: srmPValue };
}

function noResultsUnlessBothSides(noEvents: boolean, present: string[]): void {
  const noControl = !present.includes('control');
  const noTest = !present.some((key) => key !== 'control');
  if (noEvents || noControl || noTest)
    throw resultErrors.noResults({ noEvents, noControl: noEvents || noControl, noTest: noEvents || noTest });
}

/** Per variant: actors who entered and who reached each step. */
export function funnelReach(rows: FunnelRow[], keys: string[], steps: number): Map<string, number[]> {
  const reach = new Map<string, number[]>();
  for (const key of keys) {
    const counts = Array.from({ length: steps }, (_, i) =>
      rows.filter((row) => row.variant === key && row.furthest >= i + 1).reduce((sum, row) => sum + row.actors, 0),
    );
    if (counts[0] > 0) reach.set(key, counts);
  }
  return reach;
}

const stepOf = (step: MetricEntry, index: number, count: number, key: string) => ({
  action_id: step.id,
  name: step.name,
  custom_name: step.customName,
  order: index,
  type: 'events',
  count,
  breakdown_value: [key],
});

export function funnelResult(
  input: ShapeInput,
  metric: Extract<Metric, { kind: 'funnel' }>,
  rows: FunnelRow[],
  exposures: Map<string, number>,
): Record<string, unknown> {
  const reach = funnelReach(rows, orderedKeys(input.variants), metric.steps.length);
  const present = [...reach.keys()];
  noResultsUnlessBothSides(rows.length === 0, present);
  const variants = present.map((key) => {
    const counts = reach.get(key)!;
    const success = counts[counts.length - 1];
    return { key, success, failure: counts[0] - success };
  });
  const stats = funnelStatistics(variants);
  return {
    insight: present.map((key) => metric.steps.map((step, i) => stepOf(step, i, reach.get(key)![i], key))),
    filters: echoFilters(input, 'FUNNELS'),
    probability: stats.probability,
    significant: stats.significant,
    significance_code: stats.significance_code,
    expected_loss: stats.expected_loss,
    variants: variants.map((v) => ({ key: v.key, success_count: v.success, failure_count: v.failure })),
    credible_intervals: stats.credible_intervals,
    ...sampleRatio(input.variants, exposures),
    frequentist: stats.frequentist,
  };
}

/** UTC days of the window, as `yyyy-mm-dd`. */
export function windowDays(start: Date, end: Date): string[] {
  const days: string[] = [];
  const day = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate()));
  while (day.getTime() <= end.getTime()) {
    days.push(day.toISOString().slice(0, 10));
    day.setUTCDate(day.getUTCDate() + 1);
  }
  return days;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const labelOf = (day: string) => `${Number(day.slice(8, 10))}-${MONTHS[Number(day.slice(5, 7)) - 1]}-${day.slice(0, 4)}`;

export interface TrendSeries {
  count: number;
  data: number[];
  /** Matching events (whatever the math), and distinct actors when the math counts them. */
  events: number;
  actors: number;
}

/** Each variant's count and its cumulative daily values, the math applied to the window so far. */
export function trendSeries(
  rows: TrendRows,
  metric: Extract<Metric, { kind: 'trend' }>,
  keys: string[],
  days: string[],
): Map<string, TrendSeries> {
  const series = new Map<string, TrendSeries>();
  for (const key of keys) {
    const daily = new Map(rows.days.filter((r) => r.variant === key).map((r) => [r.day, r]));
    const firsts = new Map(rows.firsts.filter((r) => r.variant === key).map((r) => [r.day, r.actors]));
    let events = 0;
    let sum = 0;
    let actors = 0;
    const data = days.map((day) => {
      events += daily.get(day)?.events ?? 0;
      sum += daily.get(day)?.sum ?? 0;
      actors += firsts.get(day) ?? 0;
      return metric.math === 'dau' ? actors : metric.math === 'sum' ? Math.trunc(sum) : events;
    });
    series.set(key, { count: data.length ? data[data.length - 1] : 0, data, events, actors });
  }
  return series;
}

export function trendResult(
  input: ShapeInput,
  metric: Extract<Metric, { kind: 'trend' }>,
  rows: TrendRows,
  exposures: Map<string, number>,
  defaultExposures: Map<string, number>,
): Record<string, unknown> {
  const keys = orderedKeys(input.variants);
  const days = windowDays(input.start, input.end);
  const series = trendSeries(rows, metric, keys, days);
  const exposureOf = (key: string) => (metric.math === 'per_actor' ? series.get(key)!.actors : (exposures.get(key) ?? 0));
  const present = keys.filter((key) => series.get(key)!.events > 0 || exposureOf(key) > 0);
  noResultsUnlessBothSides(rows.allEvents === 0, present);
  const controlExposure = exposureOf('control');
  const variants = present.map((key) => {
    const absolute = exposureOf(key) || 1;
    const ratio = controlExposure > 0 && exposureOf(key) > 0 ? absolute / controlExposure : 1;
    return { key, count: series.get(key)!.count, exposure: key === 'control' ? 1 : ratio, absoluteExposure: absolute };
  });
  const stats = trendStatistics(variants);
  const { series: entry } = metric;
  return {
    insight: present.map((key) => ({
      action: {
        id: entry.id,
        type: entry.type,
        order: 0,
        name: entry.name,
        custom_name: entry.customName,
        math: entry.math,
        math_property: entry.mathProperty,
      },
      breakdown_value: key,
      count: series.get(key)!.count,
      data: series.get(key)!.data,
      days,
      labels: days.map(labelOf),
    })),
    filters: echoFilters(input, 'TRENDS'),
    probability: stats.probability,
    significant: stats.significant,
    significance_code: stats.significance_code,
    p_value: stats.p_value,
    variants: variants.map((v) => ({ key: v.key, count: v.count, exposure: v.exposure, absolute_exposure: v.absoluteExposure })),
    credible_intervals: stats.credible_intervals,
    ...sampleRatio(input.variants, defaultExposures),
  };
}
