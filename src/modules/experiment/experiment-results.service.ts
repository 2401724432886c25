import { accessProject, type Caller } from '../../auth/access';
import type { AppContext } from '../../context';
import { isPlainObject } from '../../validation/python';
import type { Experiment } from './experiment.entity';
import { checkTargetMetric, customExposure, insightOf, parseMetric, type Metric, type MetricEntry } from './results/metric';
import { fingerprintOf, lookup, PRIMARY_METRIC, relevantEvents, store } from './results/results.cache';
import { resultErrors } from './results/results.errors';
import { funnelReach, funnelResult, orderedKeys, trendResult, trendSeries, type FlagVariant } from './results/results.shape';
import {
  anyFlagPropertyRecently,
  customExposures,
  defaultExposures,
  funnelCounts,
  openScope,
  perActorValues,
  trendCounts,
  withConnection,
  type Scope,
  type Window,
} from './results/results.store';

export interface ResultEnvelope {
  result: Record<string, unknown>;
  lastRefresh: Date;
  isCached: boolean;
}

/** The flag's current variants (the flag is authoritative, deleted or not). */
function flagVariants(filters: Record<string, unknown>): FlagVariant[] {
  const multivariate = filters.multivariate;
  const variants = isPlainObject(multivariate) && Array.isArray(multivariate.variants) ? multivariate.variants : [];
  return variants
    .filter((v): v is Record<string, unknown> => isPlainObject(v) && typeof v.key === 'string')
    .map((v) => ({ key: v.key as string, rollout: typeof v.rollout_percentage === 'number' ? v.rollout_percentage : 0 }));
}

/**
 * How many actors (persons, or groups of the metric's group type) were exposed to any of the flag's
 * variants in the experiment's window: the default exposure of the results (distinct actors with
 * `$feature_flag_called` per variant), summed, without computing the metric. Null for a draft.
 * SPEC-GAP: the API has no such field; the console's experiment list shows it (docs/console.md).
 */
export async function exposureCount(ctx: AppContext, experiment: Experiment): Promise<number | null> {
  // Checked here, as the results are: an experiment can be reached from other roots than the experiment queries.
  await accessProject(ctx, experiment.project.id, 'experiment:read');
  if (!experiment.startDate) return null;
  const flag = (await ctx.loaders.flag.load(experiment.featureFlag.id))!;
  const group = experiment.filters.aggregation_group_type_index;
  const window: Window = {
    projectId: experiment.project.id,
    start: experiment.startDate,
    end: experiment.endDate ?? new Date(ctx.clock.now()),
    flagKey: flag.key,
    variants: flagVariants(flag.filters).map((v) => v.key),
    groupIndex: Number.isInteger(group) && (group as number) >= 0 && (group as number) <= 4 ? (group as number) : null,
  };
  const exposures = await withConnection(ctx.em, ctx.work, (sql) => defaultExposures({ sql, window }));
  return [...exposures.values()].reduce((sum, n) => sum + n, 0);
}

/** The most UTC days a trend result's daily series may have (docs/experiment-results.md, "Limits"): ten years. */
export const MAX_TREND_DAYS = 3660;
const DAY_MS = 86_400_000;

/** How many UTC days `windowDays(start, end)` would list, without listing them. */
const dayCount = (start: Date, end: Date) => Math.floor(end.getTime() / DAY_MS) - Math.floor(start.getTime() / DAY_MS) + 1;

interface Computation {
  ctx: AppContext;
  caller: Caller;
  experiment: Experiment;
  metricIndex: number;
  filters: Record<string, unknown>;
  metric: Metric | null;
  /** Every entry whose events are read: the metric's, and the custom exposure's. */
  entries: MetricEntry[];
  refresh: boolean;
  compute(scope: Scope, variants: FlagVariant[]): Promise<Record<string, unknown>>;
}

/**
 * The metric's result, computed at most once per request for each experiment, metric, `refresh` and
 * the experiment's settings as read (a mutation may change them between two fields): aliases share it.
 */
function cached(c: Computation): Promise<ResultEnvelope> {
  const requestResults = c.ctx.loaders.experimentResults;
  const { experiment } = c;
  const settings = [c.filters, experiment.parameters.custom_exposure_filter ?? null, experiment.startDate, experiment.endDate];
  const key = `${experiment.id}/${c.metricIndex}/${c.refresh}/${JSON.stringify(settings)}`;
  let result = requestResults.get(key);
  if (result === undefined) {
    result = computeOnce(c);
    requestResults.set(key, result);
  }
  return result;
}

/** Cache, window and flag around one metric's computation (docs/experiment-results.md, "Caching"). */
async function computeOnce(c: Computation): Promise<ResultEnvelope> {
  const { ctx, experiment } = c;
  const flag = (await ctx.loaders.flag.load(experiment.featureFlag.id))!;
  const variants = flagVariants(flag.filters);
  const custom = customExposure(experiment.parameters);
  const names = [
    ...(c.metric?.kind === 'funnel' ? c.metric.steps.map((s) => s.id) : c.metric ? [c.metric.series.id] : []),
    ...(custom ? [custom.entry.id] : []),
  ];
  const fingerprint = fingerprintOf({
    filters: c.filters,
    custom: experiment.parameters.custom_exposure_filter ?? null,
    start: experiment.startDate,
    end: experiment.endDate,
    flag: flag.key,
    variants,
  });
  // Charged before the computation queues: a refusal answers at once and leaves the stored result as it was.
  if (c.refresh) await ctx.refreshBudget(c.caller);
  return withConnection(ctx.em, ctx.work, async (sql) => {
    const key = {
      projectId: experiment.project.id,
      experimentId: experiment.id,
      metric: c.metricIndex,
      fingerprint,
      events: relevantEvents(names),
    };
    const { hit, highWater } = await lookup(sql, key);
    if (hit && !c.refresh) return { result: hit.result, lastRefresh: hit.computedAt, isCached: true };
    const now = new Date(ctx.clock.now());
    const window: Window = {
      projectId: experiment.project.id,
      start: experiment.startDate!,
      end: experiment.endDate ?? now,
      flagKey: flag.key,
      variants: variants.map((v) => v.key),
      groupIndex: c.metric?.groupIndex ?? null,
    };
    const result = await c.compute(await openScope(sql, window, c.entries, now), variants);
    await store(sql, { ...key, result, computedAt: now, highWater });
    return { result, lastRefresh: now, isCached: false };
  });
}

const shapeInput = (experiment: Experiment, filters: Record<string, unknown>, window: Window, variants: FlagVariant[]) => ({
  filters,
  flagKey: window.flagKey,
  variants,
  start: window.start,
  end: window.end,
});

/** Experiment results (docs/experiment-results.md): the primary metric, a secondary one, and the flag-implementation hint. */
export const ExperimentResultsService = {
  /** Checks `experiment:read` itself: an experiment can be reached from other roots than the experiment queries. */
  async primary(ctx: AppContext, experiment: Experiment, refresh: boolean): Promise<ResultEnvelope> {
    const { caller } = await accessProject(ctx, experiment.project.id, 'experiment:read');
    const filters = experiment.filters;
    checkTargetMetric(filters);
    if (!experiment.startDate) throw resultErrors.notStarted();
    const metric = parseMetric(filters)!;
    if (metric.kind === 'trend' && dayCount(experiment.startDate, experiment.endDate ?? new Date(ctx.clock.now())) > MAX_TREND_DAYS) {
      throw resultErrors.tooManyDays(MAX_TREND_DAYS);
    }
    const custom = customExposure(experiment.parameters);
    const useCustom = custom !== null && metric.kind === 'trend' && metric.math !== 'per_actor';
    return cached({
      ctx,
      caller,
      experiment,
      metricIndex: PRIMARY_METRIC,
      filters,
      metric,
      entries: [...(metric.kind === 'funnel' ? metric.steps : [metric.series]), ...(useCustom ? [custom.entry] : [])],
      refresh,
      async compute(scope, variants) {
        const input = shapeInput(experiment, filters, scope.window, variants);
        const exposures = await defaultExposures(scope);
        if (metric.kind === 'funnel') return funnelResult(input, metric, await funnelCounts(scope, metric), exposures);
        const rows = await trendCounts(scope, metric);
        const exposure = useCustom ? await customExposures(scope, custom.entry, custom.distinctActors) : exposures;
        return trendResult(input, metric, rows, exposure, exposures);
      },
    });
  },

  /** `index` as the client sent it: checked here, in the API's order, after the experiment is found. */
  async secondary(ctx: AppContext, experiment: Experiment, index: unknown, refresh: boolean): Promise<ResultEnvelope> {
    const { caller } = await accessProject(ctx, experiment.project.id, 'experiment:read');
    const metrics = Array.isArray(experiment.secondaryMetrics) ? experiment.secondaryMetrics : [];
    if (metrics.length === 0) throw resultErrors.noSecondaryMetrics();
    if (index === undefined || index === null || index === '') throw resultErrors.secondaryIdRequired();
    const text = String(index);
    if (!/^-?\d+$/.test(text)) throw resultErrors.secondaryIdNotInteger();
    const position = Number(text);
    if (!(position >= 0 && position < metrics.length)) throw resultErrors.secondaryIdOutOfRange();
    if (!experiment.startDate) throw resultErrors.notStarted();
    const entry = metrics[position];
    const filters = isPlainObject(entry) && isPlainObject(entry.filters) ? entry.filters : {};
    if (insightOf(filters) === null) throw resultErrors.secondaryNotFunnelOrTrend();
    const metric = parseMetric(filters);
    return cached({
      ctx,
      caller,
      experiment,
      metricIndex: position,
      filters,
      metric,
      entries: metric === null ? [] : metric.kind === 'funnel' ? metric.steps : [metric.series],
      refresh,
      async compute(scope, variants) {
        const keys = orderedKeys(variants);
        if (metric === null) return {};
        if (metric.kind === 'funnel') {
          const reach = funnelReach(await funnelCounts(scope, metric), keys, metric.steps.length);
          return Object.fromEntries(
            [...reach].map(([key, counts]) => [key, Math.round((counts[counts.length - 1] / counts[0]) * 1000) / 1000]),
          );
        }
        if (metric.math === 'per_actor') {
          const values = await perActorValues(scope, metric);
          return Object.fromEntries(keys.filter((key) => values.has(key)).map((key) => [key, values.get(key)!]));
        }
        // Only each variant's total: the days the rows name are all the series needs (no daily series is answered).
        const rows = await trendCounts(scope, metric);
        const days = [...new Set([...rows.days, ...rows.firsts].map((row) => row.day))].sort();
        const series = trendSeries(rows, metric, keys, days);
        return Object.fromEntries([...series].filter(([, s]) => s.events > 0).map(([key, s]) => [key, s.count]));
      },
    });
  },

  /** True unless an event the metric names, seen in the last 7 days, carries a `$feature/…` property. */
  async requiresFlagImplementation(ctx: AppContext, projectRef: unknown, events: unknown): Promise<boolean> {
    const { project } = await accessProject(ctx, projectRef, 'experiment:read');
    const names = (Array.isArray(events) ? events : [])
      .filter(isPlainObject)
      .map((entry) => entry.id)
      .filter((id): id is string => typeof id === 'string' && id !== '' && !id.includes('\u0000'));
    return !(await anyFlagPropertyRecently(ctx.em, ctx.work, project.id, [...new Set(names)], new Date(ctx.clock.now())));
  },
};
