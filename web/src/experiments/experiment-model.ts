/**
 * The experiment form's model and its translation to and from the API's shapes (docs/experiments.md):
 * `filters` is a funnel (`insight: FUNNELS`, ordered steps) or a trend (`insight: TRENDS`, one event
 * counted), `parameters.feature_flag_variants` the variants, `secondaryMetrics` a list of `{name, filters}`.
 */

export type MetricKind = 'funnel' | 'trend';

export interface MetricModel {
  kind: MetricKind;
  /** Funnel: the steps in order; trend: one event. */
  events: string[];
}

export interface SecondaryModel extends MetricModel {
  name: string;
}

export interface VariantModel {
  key: string;
  rollout: string;
}

export interface ExperimentFormModel {
  name: string;
  description: string;
  flagKey: string;
  variants: VariantModel[];
  primary: MetricModel;
  secondary: SecondaryModel[];
  /** Empty: the default exposure (`$feature_flag_called`); else `parameters.custom_exposure_filter`'s event. */
  exposureEvent: string;
}

export const DEFAULT_VARIANTS: VariantModel[] = [
  { key: 'control', rollout: '50' },
  { key: 'test', rollout: '50' },
];

export const emptyModel = (): ExperimentFormModel => ({
  name: '',
  description: '',
  flagKey: '',
  variants: DEFAULT_VARIANTS.map((v) => ({ ...v })),
  primary: { kind: 'funnel', events: ['', ''] },
  secondary: [],
  exposureEvent: '',
});

export type Status = 'draft' | 'running' | 'complete';

/** The state follows from the dates (docs/experiments.md §1): no start, a draft; a start and no end, running; both, complete. */
export const statusOf = (experiment: { startDate?: unknown; endDate?: unknown }): Status =>
  !experiment.startDate ? 'draft' : !experiment.endDate ? 'running' : 'complete';

export const when = (iso: unknown) => (typeof iso === 'string' && iso ? new Date(iso).toLocaleString() : '—');

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The metric's events, ordered, and whether it is a funnel. */
export function metricOf(filters: unknown): MetricModel {
  const f = isObject(filters) ? filters : {};
  const entries = (Array.isArray(f.events) ? f.events : [])
    .filter(isObject)
    .map((e, i) => ({ id: typeof e.id === 'string' ? e.id : '', order: typeof e.order === 'number' ? e.order : i }))
    .sort((a, b) => a.order - b.order);
  const kind: MetricKind = typeof f.insight === 'string' && f.insight.toLowerCase() === 'funnels' ? 'funnel' : 'trend';
  const events = entries.map((e) => e.id);
  return { kind, events: kind === 'trend' ? events.slice(0, 1) : events };
}

export function filtersOf(metric: MetricModel): Record<string, unknown> {
  const events = metric.events.map((id, order) => ({
    id,
    name: id,
    order,
    type: 'events',
    ...(metric.kind === 'trend' ? { math: 'total' } : {}),
  }));
  return { insight: metric.kind === 'funnel' ? 'FUNNELS' : 'TRENDS', events, properties: [] };
}

/** A metric in words: "funnel: signup → purchase" or "count of purchase". */
export function metricInWords(metric: MetricModel): string {
  if (metric.events.length === 0) return 'no metric';
  return metric.kind === 'funnel' ? `Funnel: ${metric.events.join(' → ')}` : `Count of ${metric.events[0]} per exposed person`;
}

export function secondaryOf(value: unknown): SecondaryModel[] {
  return (Array.isArray(value) ? value : [])
    .filter(isObject)
    .map((m) => ({ name: typeof m.name === 'string' ? m.name : '', ...metricOf(m.filters) }));
}

export function variantsOf(value: unknown): VariantModel[] {
  return (Array.isArray(value) ? value : [])
    .filter(isObject)
    .map((v) => ({ key: typeof v.key === 'string' ? v.key : '', rollout: String(v.rollout_percentage ?? 0) }));
}

/** The variants the flag defines (the flag is authoritative once it exists). */
export function flagVariantsOf(flagFilters: unknown): VariantModel[] {
  const multivariate = isObject(flagFilters) ? flagFilters.multivariate : null;
  return variantsOf(isObject(multivariate) ? multivariate.variants : []);
}

export function exposureEventOf(parameters: unknown): string {
  const custom = isObject(parameters) ? parameters.custom_exposure_filter : null;
  const events = isObject(custom) && Array.isArray(custom.events) ? custom.events : [];
  return isObject(events[0]) && typeof events[0].id === 'string' ? events[0].id : '';
}

export const variantSum = (variants: VariantModel[]) => variants.reduce((sum, v) => sum + (Number(v.rollout) || 0), 0);

/** Problems found as you type, by field (the server checks again; its refusals land at the same fields). */
export function localProblems(model: ExperimentFormModel, checkVariants: boolean): Record<string, string> {
  const problems: Record<string, string> = {};
  if (!model.name.trim()) problems.name = 'Give the experiment a name.';
  if (!/^[A-Za-z0-9_-]+$/.test(model.flagKey.trim()))
    problems.feature_flag_key = 'Only letters, numbers, hyphens (-) & underscores (_) are allowed.';
  if (checkVariants) {
    const keys = model.variants.map((v) => v.key.trim());
    if (model.variants.length < 2) problems.parameters = 'An experiment needs at least 2 variants.';
    else if (keys.some((k) => !k)) problems.parameters = 'Each variant needs a key.';
    else if (new Set(keys).size !== keys.length) problems.parameters = 'Variant keys must be unique.';
    else if (!keys.includes('control')) problems.parameters = 'One variant must be "control".';
    else if (model.variants.some((v) => !(Number(v.rollout) >= 0 && Number(v.rollout) <= 100) || v.rollout.trim() === ''))
      problems.parameters = 'Each rollout is a number between 0 and 100.';
    else if (variantSum(model.variants) !== 100) problems.parameters = `Variant rollouts sum to ${variantSum(model.variants)}, not 100.`;
  }
  const metricProblem = (metric: MetricModel) =>
    metric.events.length === 0 || metric.events.some((e) => !e.trim())
      ? metric.kind === 'funnel'
        ? 'Name an event for every step.'
        : 'Name the event to count.'
      : metric.kind === 'funnel' && metric.events.length < 2
        ? 'A funnel has at least 2 steps.'
        : undefined;
  const primary = metricProblem(model.primary);
  if (primary) problems.filters = primary;
  model.secondary.forEach((metric, i) => {
    const problem = !metric.name.trim() ? 'Give the metric a name.' : metricProblem(metric);
    if (problem) problems[`secondary:${i}`] = problem;
  });
  return problems;
}

/**
 * The parameters to send: `base` (what is stored, kept as it is) with the variants — unless
 * `withVariants` is false (a launched experiment: its variants are the flag's and cannot change) —
 * and the custom exposure event.
 */
export function parametersOf(model: ExperimentFormModel, base: Record<string, unknown>, withVariants: boolean): Record<string, unknown> {
  const parameters: Record<string, unknown> = { ...base };
  if (withVariants)
    parameters.feature_flag_variants = model.variants.map((v) => ({ key: v.key.trim(), rollout_percentage: Number(v.rollout) }));
  if (model.exposureEvent.trim())
    parameters.custom_exposure_filter = {
      events: [{ id: model.exposureEvent.trim(), name: model.exposureEvent.trim(), order: 0, type: 'events', math: 'dau' }],
    };
  else delete parameters.custom_exposure_filter;
  return parameters;
}

export const secondaryMetricsOf = (model: ExperimentFormModel) =>
  model.secondary.map((metric) => ({ name: metric.name.trim(), filters: filtersOf(metric) }));
