import type { JsonSchema, RouteDocs } from '../../openapi/types';

/**
 * The experiment results rows in the OpenAPI document (docs/experiment-results.md). Their GraphQL
 * field is a JSON object, so the shapes come from the builders instead: results.shape.ts
 * (`funnelResult`, `trendResult`), statistics/ (`funnelStatistics`, `trendStatistics`,
 * `twoProportionComparison`) and experiment-results.service.ts (`secondary`).
 */

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const object = (properties: Record<string, JsonSchema>, description?: string): JsonSchema => ({
  type: 'object',
  ...(description ? { description } : {}),
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});
const byVariant = (value: JsonSchema, description: string): JsonSchema => ({
  type: 'object',
  description: `Variant key → ${description}`,
  additionalProperties: value,
});
const interval = { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 };

/** What both kinds of primary result carry, besides their own statistics. */
const common = (insight: 'FUNNELS' | 'TRENDS', codes: string[]): Record<string, JsonSchema> => ({
  filters: {
    type: 'object',
    description:
      "The experiment's metric filters as stored (any other fields kept as sent), with the window and breakdown the result used.",
    properties: {
      insight: { const: insight },
      date_from: { type: 'string', description: 'Window start, `YYYY-MM-DDTHH:MM:SSZ`.' },
      date_to: { type: 'string', description: 'Window end (the end date, or when the result was computed).' },
      explicit_date: { const: true },
      breakdown: { type: 'string', description: '`$feature/<flag key>`.' },
      breakdown_type: { const: 'event' },
      properties: { type: 'array', maxItems: 0 },
    },
    required: ['insight', 'date_from', 'date_to', 'explicit_date', 'breakdown', 'breakdown_type', 'properties'],
  },
  probability: byVariant({ type: 'number', minimum: 0, maximum: 1 }, 'its probability of being the best (they add up to 1).'),
  significant: { type: 'boolean', description: 'True when `significance_code` is `significant`.' },
  significance_code: { type: 'string', enum: codes, description: 'The first rule that applies (docs/experiment-results.md).' },
  credible_intervals: byVariant(interval, 'the 95% credible interval of its rate.'),
  srm: { type: 'boolean', description: 'Sample-ratio mismatch: the exposures differ from the rollout (p < 0.001). Informational.' },
  srm_p_value: { type: 'number', minimum: 0, maximum: 1 },
});

const FUNNEL_STEP = object({
  action_id: { type: 'string', description: 'The event name.' },
  name: { type: 'string' },
  custom_name: { type: ['string', 'null'] },
  order: { type: 'integer', description: '0-based step position.' },
  type: { const: 'events' },
  count: { type: 'integer', description: 'Actors of the variant who reached this step.' },
  breakdown_value: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 1, description: '`[variant key]`.' },
});

const FUNNEL_RESULT: JsonSchema = object(
  {
    ...common('FUNNELS', ['significant', 'not_enough_exposure', 'low_win_probability', 'high_loss']),
    insight: {
      type: 'array',
      description: 'Per variant with data (control first), its steps.',
      items: { type: 'array', items: FUNNEL_STEP },
    },
    expected_loss: {
      type: 'number',
      minimum: 0,
      description:
        'Conversion rate expected to be lost by shipping the leader; 1 while the verdict is `not_enough_exposure` or `low_win_probability`.',
    },
    variants: {
      type: 'array',
      items: object({ key: { type: 'string' }, success_count: { type: 'integer' }, failure_count: { type: 'integer' } }),
    },
    frequentist: byVariant(
      object({
        p_value: { type: 'number', minimum: 0, maximum: 1, description: 'Two-sided pooled z-test against control.' },
        relative_lift: { type: ['number', 'null'], description: '+0.1 is 10% better than control; null when control converts nobody.' },
        confidence_interval: { ...interval, type: ['array', 'null'], description: '95% interval of the relative lift; null with it.' },
        significant: { type: 'boolean', description: 'p < 0.05.' },
      }),
      'this test variant against control (control has no entry).',
    ),
  },
  'A funnel metric: actors who entered and converted per variant.',
);

const TREND_RESULT: JsonSchema = object(
  {
    ...common('TRENDS', ['significant', 'not_enough_exposure', 'low_win_probability', 'high_p_value']),
    insight: {
      type: 'array',
      description: 'Per variant with data (control first), its series.',
      items: object({
        action: object({
          id: { type: 'string', description: 'The event name.' },
          type: { type: 'string' },
          order: { const: 0 },
          name: { type: 'string' },
          custom_name: { type: ['string', 'null'] },
          math: { type: ['string', 'null'] },
          math_property: { type: ['string', 'null'] },
        }),
        breakdown_value: { type: 'string', description: 'The variant key.' },
        count: { type: 'number', description: 'The last value of `data`.' },
        data: { type: 'array', items: { type: 'number' }, description: 'The running total per UTC day of the window.' },
        days: { type: 'array', items: { type: 'string', format: 'date' } },
        labels: { type: 'array', items: { type: 'string' }, description: '`1-Mar-2026` for each day.' },
      }),
    },
    p_value: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      description: 'Control against the best test variant; 1 while the verdict is `not_enough_exposure` or `low_win_probability`.',
    },
    variants: {
      type: 'array',
      items: object({
        key: { type: 'string' },
        count: { type: 'number' },
        exposure: { type: 'number', description: "The exposure relative to control's (control: 1)." },
        absolute_exposure: { type: 'number' },
      }),
    },
  },
  'A trend metric: a count per variant against its exposure.',
);

/** The REST envelope of `ExperimentResults` (`result`, `lastRefresh`, `isCached` with REST names). */
const envelope = (result: JsonSchema, description: string): JsonSchema =>
  object(
    {
      result,
      last_refresh: { type: 'string', format: 'date-time', description: 'When the result was computed.' },
      is_cached: { type: 'boolean', description: 'True when served from the stored result instead of being computed now.' },
    },
    description,
  );

const REFRESH = {
  schema: { type: 'string' },
  description: 'Present with any value but `false` or `0` (empty included): compute again instead of serving the stored result.',
};

export const experimentResultsDocs: RouteDocs = {
  summary: 'results: the primary metric per variant',
  description: 'The primary metric per variant, with probabilities, significance and the sample-ratio check (docs/experiment-results.md).',
  query: { refresh: REFRESH },
  response: ref('ExperimentResults'),
  schemas: {
    ExperimentFunnelResult: FUNNEL_RESULT,
    ExperimentTrendResult: TREND_RESULT,
    ExperimentResults: envelope(
      { oneOf: [ref('ExperimentFunnelResult'), ref('ExperimentTrendResult')] },
      "An experiment's primary metric, computed or stored.",
    ),
  },
  errors: [400],
};

export const experimentSecondaryResultsDocs: RouteDocs = {
  summary: 'secondary results: one secondary metric per variant',
  description:
    'One secondary metric over the same window and variants, without statistics: per variant its count (trends) or its ' +
    'conversion rate rounded to 3 decimals (funnels). Variants without data are left out; a metric naming no event answers `{}`.',
  query: {
    // The GraphQL argument is `index`; the REST row reads it from `?id=`.
    index: null,
    id: { schema: { type: 'integer', minimum: 0 }, required: true, description: 'The 0-based index into `secondary_metrics`.' },
    refresh: REFRESH,
  },
  response: ref('ExperimentSecondaryResults'),
  schemas: {
    ExperimentSecondaryResults: envelope(byVariant({ type: 'number' }, 'its value.'), "A secondary metric's value per variant."),
  },
};

export const requiresFlagImplementationDocs: RouteDocs = {
  summary: 'requires flag implementation: does the metric see the flag yet',
  query: {
    events: {
      schema: { type: 'string' },
      description: "The metric's `events` entries (`[{id, type, order}]`) as JSON text; malformed JSON counts as an empty list.",
    },
  },
  response: object({ result: { type: 'boolean' } }),
};
