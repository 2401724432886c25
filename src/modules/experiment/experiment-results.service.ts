import { accessProject } from '../../auth/access';
import type { AppContext } from '../../context';
import { isPlainObject } from '../../validation/python';
import type { Experiment } from './experiment.entity';
import { checkTargetMetric, customExposure, insightOf, parseMetric, type Metric } from './results/metric';
import { fingerprintOf, lookup, PRIMARY_METRIC, relevantEvents, store } from './results/results.cache';
import { resultErrors } from './results/results.errors';
import { funnelReach, funnelResult, orderedKeys, trendResult, trendSeries, windowDays, type FlagVariant } from './results/results.shape';
import {
  anyFlagPropertyRecently,
  customExposures,
  defaultExposures,
  funnelCounts,
  perActorValues,
  trendCounts,
  withConnection,
  type Sql,
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

/** Invalid regular expressions PostgreSQL refuses (after JavaScript accepted them) are the caller's 400. */
async function translatingRegex<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if ((error as { code?: string })?.code === '2201B') throw resultErrors.invalidRegex();
    throw error;
  }
}

interface Computation {
  ctx: AppContext;
  experiment: Experiment;
  metricIndex: number;
  filters: Record<string, unknown>;
  metric: Metric | null;
  refresh: boolean;
  compute(sql: Sql, window: Window, variants: FlagVariant[]): Promise<Record<string, unknown>>;
}

/** Cache, window and flag around one metric's computation (docs/experiment-results.md, "Caching"). */
async function cached(c: Computation): Promise<ResultEnvelope> {
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
  return translatingRegex(() =>
    withConnection(ctx.em, async (sql) => {
      const key = {
        projectId: experiment.project.id,
        experimentId: experiment.id,
        metric: c.metricIndex,
        fingerprint,
        events: relevantEvents(names),
      };
      const { hit, highWater } = await lookup(sql, key);
      if (hit && !c.refresh) return { result: hit.result, lastRefresh: hit.computedAt, isCached: true };
      const now = new Date();
      const window: Window = {
        projectId: experiment.project.id,
        start: experiment.startDate!,
        end: experiment.endDate ?? now,
        flagKey: flag.key,
        variants: variants.map((v) => v.key),
        groupIndex: c.metric?.groupIndex ?? null,
      };
      const result = await c.compute(sql, window, variants);
      await store(sql, { ...key, result, computedAt: now, highWater });
      return { result, lastRefresh: now, isCached: false };
    }),
  );
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
  async primary(ctx: AppContext, experiment: Experiment, refresh: boolean): Promise<ResultEnvelope> {
    const filters = experiment.filters;
    checkTargetMetric(filters);
    if (!experiment.startDate) throw resultErrors.notStarted();
    const metric = parseMetric(filters)!;
    const custom = customExposure(experiment.parameters);
    return cached({
      ctx,
      experiment,
      metricIndex: PRIMARY_METRIC,
      filters,
      metric,
      refresh,
      async compute(sql, window, variants) {
        const input = shapeInput(experiment, filters, window, variants);
        const exposures = await defaultExposures(sql, window);
        if (metric.kind === 'funnel') return funnelResult(input, metric, await funnelCounts(sql, window, metric), exposures);
        const rows = await trendCounts(sql, window, metric);
        const exposure =
          custom && metric.math !== 'per_actor' ? await customExposures(sql, window, custom.entry, custom.distinctActors) : exposures;
        return trendResult(input, metric, rows, exposure, exposures);
      },
    });
  },

  /** `index` as the client sent it: checked here, in the API's order, after the experiment is found. */
  async secondary(ctx: AppContext, experiment: Experiment, index: unknown, refresh: boolean): Promise<ResultEnvelope> {
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
      experiment,
      metricIndex: position,
      filters,
      metric,
      refresh,
      async compute(sql, window, variants) {
        const keys = orderedKeys(variants);
        if (metric === null) return {};
        if (metric.kind === 'funnel') {
          const reach = funnelReach(await funnelCounts(sql, window, metric), keys, metric.steps.length);
          return Object.fromEntries(
            [...reach].map(([key, counts]) => [key, Math.round((counts[counts.length - 1] / counts[0]) * 1000) / 1000]),
          );
        }
        if (metric.math === 'per_actor') {
          const values = await perActorValues(sql, window, metric);
          return Object.fromEntries(keys.filter((key) => values.has(key)).map((key) => [key, values.get(key)!]));
        }
        const series = trendSeries(await trendCounts(sql, window, metric), metric, keys, windowDays(window.start, window.end));
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
    return !(await anyFlagPropertyRecently(ctx.em, project.id, [...new Set(names)], new Date()));
  },
};
