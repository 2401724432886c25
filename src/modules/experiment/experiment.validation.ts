import { experimentErrors, invalid } from './experiment.errors';
import { flagErrors } from '../feature-flag/feature-flag.errors';
import { fieldErrors, ValidationError } from '../../errors';
import { parseBoolean, parseDateTime, parseString, hasField, refuseUnstorableJson } from '../../validation/fields';
import { regexProblem } from '../../evaluation/regex';
import { isPlainObject } from '../../validation/python';

/** A validated experiment write: only the fields the client sent, in stored form. */
export interface ExperimentChanges {
  name?: string;
  description?: string | null;
  startDate?: Date | null;
  endDate?: Date | null;
  featureFlagKey?: string;
  parameters?: Record<string, unknown>;
  secondaryMetrics?: unknown[];
  filters?: Record<string, unknown>;
  archived?: boolean;
}

export const DEFAULT_VARIANTS = [
  { key: 'control', name: 'Control Group', rollout_percentage: 50 },
  { key: 'test', name: 'Test Variant', rollout_percentage: 50 },
];

const KEY_FORMAT = /^[a-zA-Z0-9_-]+$/;
const MAX_VARIANTS = 20;

/** The field parsers answer `invalid_input`; experiments use upstream's `invalid` (docs/experiments.md §2). */
function asInvalid<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof ValidationError && error.code === 'invalid_input') throw invalid(error.detail, error.attr);
    throw error;
  }
}

/**
 * Steps 1–8 and 10–11 of docs/experiments.md §2, in order; the first failure answers. Step 9 (dates
 * after merging with the stored ones) is the service's, as it needs the stored experiment.
 */
export function validateExperimentInput(input: Record<string, unknown>, mode: 'create' | 'patch'): ExperimentChanges {
  const out: ExperimentChanges = {};
  if (hasField(input, 'name')) out.name = asInvalid(() => parseString(input.name, 'name', { maxLength: 400 })!);
  else if (mode === 'create') throw fieldErrors.required('name');
  if (hasField(input, 'description')) {
    out.description = asInvalid(() => parseString(input.description, 'description', { nullable: true, allowBlank: true, maxLength: 400 }));
  }
  if (hasField(input, 'startDate')) out.startDate = asInvalid(() => parseDateTime(input.startDate, 'start_date', { nullable: true }));
  if (hasField(input, 'endDate')) out.endDate = asInvalid(() => parseDateTime(input.endDate, 'end_date', { nullable: true }));
  if (hasField(input, 'featureFlagKey')) {
    const key = asInvalid(() => parseString(input.featureFlagKey, 'feature_flag_key', { maxLength: 400 })!);
    if (mode === 'create' && !KEY_FORMAT.test(key)) {
      throw flagErrors.invalidKey('feature_flag_key');
    }
    out.featureFlagKey = key;
  } else if (mode === 'create') throw fieldErrors.required('feature_flag_key');
  if (hasField(input, 'parameters')) out.parameters = validateParameters(input.parameters);
  if (hasField(input, 'secondaryMetrics')) {
    const metrics = input.secondaryMetrics;
    if (metrics !== null && !Array.isArray(metrics)) throw experimentErrors.secondaryMetricsNotList();
    refuseUnstorableJson(metrics, 'secondary_metrics');
    (metrics ?? []).forEach((metric: unknown, i: number) => {
      if (isPlainObject(metric)) refuseUnusableRegex(metric.filters, `[${i}].filters`, 'secondary_metrics');
    });
    out.secondaryMetrics = metrics ?? [];
  }
  if (hasField(input, 'filters')) {
    if (input.filters === null) throw fieldErrors.null('filters');
    if (!isPlainObject(input.filters)) throw experimentErrors.filtersNotObject();
    refuseUnstorableJson(input.filters, 'filters');
    refuseUnusableRegex(input.filters, '', 'filters');
    out.filters = input.filters;
  }
  if (hasField(input, 'archived')) out.archived = asInvalid(() => parseBoolean(input.archived, 'archived')!);
  return out;
}

/**
 * A metric's (or the custom exposure's) `regex`/`not_regex` property filters must be patterns the
 * evaluator can use (docs/evaluation.md §4.7), as a flag's are: each `events[]`/`actions[]` entry's
 * `properties[]`.
 */
function refuseUnusableRegex(filters: unknown, prefix: string, attr: string): void {
  if (!isPlainObject(filters)) return;
  for (const list of ['events', 'actions'] as const) {
    const entries = filters[list];
    if (!Array.isArray(entries)) continue;
    entries.forEach((entry: unknown, i: number) => {
      const properties = isPlainObject(entry) ? entry.properties : null;
      if (!Array.isArray(properties)) return;
      properties.forEach((property: unknown, j: number) => {
        if (!isPlainObject(property) || (property.operator !== 'regex' && property.operator !== 'not_regex')) return;
        if (typeof property.value !== 'string') return;
        const problem = regexProblem(property.value);
        if (problem)
          throw experimentErrors.unusableRegex(`${prefix}${prefix ? '.' : ''}${list}[${i}].properties[${j}]`, problem.reason, attr);
      });
    });
  }
}

/** Steps 10 and 11: after step 9, which the service checks between. */
export function validateExperimentFilters(changes: ExperimentChanges, mode: 'create' | 'patch'): void {
  if (mode === 'create' && (!changes.filters || Object.keys(changes.filters).length === 0)) {
    throw experimentErrors.filtersRequired();
  }
  const properties = changes.filters?.properties;
  if (Array.isArray(properties) ? properties.length > 0 : isPlainObject(properties) && Object.keys(properties).length > 0) {
    throw experimentErrors.globalProperties();
  }
}

/** Step 9: both dates set (stored merged with the request) and the end not after the start. */
export function checkDateOrder(startDate: Date | null, endDate: Date | null): void {
  if (startDate && endDate && endDate.getTime() <= startDate.getTime()) throw experimentErrors.endBeforeStart();
}

/** Step 5. `null` is stored as `{}`; unknown keys are kept untouched. */
function validateParameters(value: unknown): Record<string, unknown> {
  if (value === null) return {};
  if (!isPlainObject(value)) throw experimentErrors.parametersNotObject();
  if (hasField(value, 'feature_flag_variants')) validateVariants(value.feature_flag_variants);
  const index = value.aggregation_group_type_index;
  if (index !== undefined && index !== null && !(Number.isInteger(index) && (index as number) >= 0 && (index as number) <= 4)) {
    throw experimentErrors.aggregationIndex();
  }
  refuseUnstorableJson(value, 'parameters');
  // The custom exposure is read like a metric (docs/experiment-results.md), so its patterns are held to the same rule.
  refuseUnusableRegex(value.custom_exposure_filter, 'custom_exposure_filter', 'parameters');
  return value;
}

function validateVariants(variants: unknown): void {
  if (!Array.isArray(variants)) throw experimentErrors.variantsNotList();
  // SPEC-GAP: `[]` means the default variants (docs/experiments.md §2), so the count rules skip it.
  if (variants.length === 0) return;
  if (variants.length > MAX_VARIANTS) throw experimentErrors.tooManyVariants();
  if (variants.length === 1) throw experimentErrors.oneVariant();
  const keys = variants.map((variant) => (isPlainObject(variant) && typeof variant.key === 'string' && variant.key ? variant.key : null));
  if (keys.includes(null)) throw experimentErrors.variantWithoutKey();
  if (new Set(keys).size !== keys.length) throw experimentErrors.duplicateVariantKeys();
  if (!keys.includes('control')) throw experimentErrors.noControl();
  const rollouts = (variants as Array<Record<string, unknown>>).map((variant) => variant.rollout_percentage);
  const isPercentage = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 100;
  if (rollouts.some((value) => value !== undefined && !isPercentage(value))) {
    throw experimentErrors.variantPercentage();
  }
  const sum = rollouts.reduce<number>((total, value) => total + ((value as number | undefined) ?? 0), 0);
  if (Math.abs(sum - 100) > 1e-9) throw experimentErrors.variantSum();
}

/** The variants a new or draft experiment's flag gets: as sent, or the defaults when absent or `[]`. */
export function flagVariants(parameters: Record<string, unknown> | undefined): unknown[] {
  const variants = parameters?.feature_flag_variants;
  return Array.isArray(variants) && variants.length > 0 ? variants : DEFAULT_VARIANTS;
}
