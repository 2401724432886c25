import { fieldErrors, ValidationError } from '../../errors';
import { parseBoolean, parseDateTime, parseString, hasField, refuseUnstorableJson } from '../../validation/fields';
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

const invalid = (detail: string, attr: string | null) => new ValidationError('invalid', detail, attr);

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
      throw new ValidationError('invalid_key', 'Only letters, numbers, hyphens (-) & underscores (_) are allowed.', 'feature_flag_key');
    }
    out.featureFlagKey = key;
  } else if (mode === 'create') throw fieldErrors.required('feature_flag_key');
  if (hasField(input, 'parameters')) out.parameters = validateParameters(input.parameters);
  if (hasField(input, 'secondaryMetrics')) {
    const metrics = input.secondaryMetrics;
    if (metrics !== null && !Array.isArray(metrics)) throw invalid('secondary_metrics must be a list', 'secondary_metrics');
    refuseUnstorableJson(metrics, 'secondary_metrics');
    out.secondaryMetrics = metrics ?? [];
  }
  if (hasField(input, 'filters')) {
    if (input.filters === null) throw fieldErrors.null('filters');
    if (!isPlainObject(input.filters)) throw invalid('filters must be a JSON object', 'filters');
    refuseUnstorableJson(input.filters, 'filters');
    out.filters = input.filters;
  }
  if (hasField(input, 'archived')) out.archived = asInvalid(() => parseBoolean(input.archived, 'archived')!);
  return out;
}

/** Steps 10 and 11: after step 9, which the service checks between. */
export function validateExperimentFilters(changes: ExperimentChanges, mode: 'create' | 'patch'): void {
  if (mode === 'create' && (!changes.filters || Object.keys(changes.filters).length === 0)) {
    throw invalid('Filters are required to create an Experiment', null);
  }
  const properties = changes.filters?.properties;
  if (Array.isArray(properties) ? properties.length > 0 : isPlainObject(properties) && Object.keys(properties).length > 0) {
    throw invalid('Experiments do not support global filter properties', null);
  }
}

/** Step 9: both dates set (stored merged with the request) and the end not after the start. */
export function checkDateOrder(startDate: Date | null, endDate: Date | null): void {
  if (startDate && endDate && endDate.getTime() <= startDate.getTime()) throw invalid('End date must be after start date', null);
}

/** Step 5. `null` is stored as `{}`; unknown keys are kept untouched. */
function validateParameters(value: unknown): Record<string, unknown> {
  if (value === null) return {};
  if (!isPlainObject(value)) throw invalid('parameters must be a JSON object', 'parameters');
  if (hasField(value, 'feature_flag_variants')) validateVariants(value.feature_flag_variants);
  const index = value.aggregation_group_type_index;
  if (index !== undefined && index !== null && !(Number.isInteger(index) && (index as number) >= 0 && (index as number) <= 4)) {
    throw invalid('aggregation_group_type_index must be an integer between 0 and 4', 'parameters');
  }
  refuseUnstorableJson(value, 'parameters');
  return value;
}

function validateVariants(variants: unknown): void {
  if (!Array.isArray(variants)) throw invalid('Feature flag variants must be a list', 'parameters');
  // SPEC-GAP: `[]` means the default variants (docs/experiments.md §2), so the count rules skip it.
  if (variants.length === 0) return;
  if (variants.length > MAX_VARIANTS) throw invalid('Feature flag variants must be less than 21', 'parameters');
  if (variants.length === 1) throw invalid('Feature flag variants must contain at least 2 variants', 'parameters');
  const keys = variants.map((variant) => (isPlainObject(variant) && typeof variant.key === 'string' && variant.key ? variant.key : null));
  if (keys.includes(null)) throw invalid('Each feature flag variant must have a key', 'parameters');
  if (new Set(keys).size !== keys.length) throw invalid('Feature flag variant keys must be unique', 'parameters');
  if (!keys.includes('control')) throw invalid('Feature flag variants must contain a control variant', 'parameters');
  const rollouts = (variants as Array<Record<string, unknown>>).map((variant) => variant.rollout_percentage);
  const isPercentage = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 100;
  if (rollouts.some((value) => value !== undefined && !isPercentage(value))) {
    throw invalid('Invalid variant definitions: Variant rollout percentages must be numbers between 0 and 100.', 'parameters');
  }
  const sum = rollouts.reduce<number>((total, value) => total + ((value as number | undefined) ?? 0), 0);
  if (Math.abs(sum - 100) > 1e-9) throw invalid('Invalid variant definitions: Variant rollout percentages must sum to 100.', 'parameters');
}

/** The variants a new or draft experiment's flag gets: as sent, or the defaults when absent or `[]`. */
export function flagVariants(parameters: Record<string, unknown> | undefined): unknown[] {
  const variants = parameters?.feature_flag_variants;
  return Array.isArray(variants) && variants.length > 0 ? variants : DEFAULT_VARIANTS;
}
