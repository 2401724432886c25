/**
 * The flag form's model of `filters` (docs/rest-api.md §3.3), and its conversion both ways. Values
 * are edited as text; a value is sent as a number where the operator compares numbers, as a list
 * where `exact`/`is_not` get several comma-separated values.
 */

export const OPERATORS = [
  ['exact', 'equals'],
  ['is_not', 'does not equal'],
  ['icontains', 'contains'],
  ['not_icontains', 'does not contain'],
  ['regex', 'matches regex'],
  ['not_regex', 'does not match regex'],
  ['gt', 'greater than'],
  ['gte', 'at least'],
  ['lt', 'less than'],
  ['lte', 'at most'],
  ['is_set', 'is set'],
  ['is_not_set', 'is not set'],
  ['is_date_before', 'before date'],
  ['is_date_after', 'after date'],
  ['is_date_exact', 'on date'],
  ['semver_gte', 'version at least'],
  ['semver_lt', 'version below'],
  ['semver_eq', 'version equals'],
] as const;

export interface PropertyRow {
  type: 'person' | 'group' | 'cohort';
  key: string;
  operator: string;
  value: string;
}

export interface ConditionSet {
  properties: PropertyRow[];
  rollout: string;
}

export interface VariantRow {
  key: string;
  name: string;
  rollout: string;
}

export interface FlagFormModel {
  key: string;
  name: string;
  /** null: persons; else a group type index. */
  groupTypeIndex: number | null;
  conditions: ConditionSet[];
  variants: VariantRow[];
  /** By value (`true`, or a variant key): JSON text, empty for none. */
  payloads: Record<string, string>;
  tags: string;
  persist: boolean;
}

type Json = Record<string, unknown>;

export const emptyModel = (): FlagFormModel => ({
  key: '',
  name: '',
  groupTypeIndex: null,
  conditions: [{ properties: [], rollout: '100' }],
  variants: [],
  payloads: {},
  tags: '',
  persist: false,
});

const text = (value: unknown) => (value === undefined || value === null ? '' : Array.isArray(value) ? value.join(', ') : String(value));

export function modelOf(flag: {
  key: string;
  name: string;
  filters: Json;
  tags: string[];
  ensureExperienceContinuity?: boolean | null;
}): FlagFormModel {
  const filters = flag.filters;
  const groups = Array.isArray(filters.groups) ? (filters.groups as Json[]) : [];
  const variants = Array.isArray((filters.multivariate as Json | null)?.variants)
    ? ((filters.multivariate as Json).variants as Json[])
    : [];
  const payloads = (filters.payloads ?? {}) as Json;
  return {
    key: flag.key,
    name: flag.name,
    groupTypeIndex: typeof filters.aggregation_group_type_index === 'number' ? filters.aggregation_group_type_index : null,
    conditions: groups.map((group) => ({
      rollout: text(group.rollout_percentage ?? 100),
      properties: (Array.isArray(group.properties) ? (group.properties as Json[]) : []).map((p) => ({
        type: (p.type === 'cohort' || p.type === 'group' ? p.type : 'person') as PropertyRow['type'],
        key: text(p.key),
        operator: typeof p.operator === 'string' ? p.operator : 'exact',
        value: text(p.value),
      })),
    })),
    variants: variants.map((v) => ({ key: text(v.key), name: text(v.name), rollout: text(v.rollout_percentage) })),
    payloads: Object.fromEntries(
      Object.entries(payloads).map(([value, payload]) => [value, typeof payload === 'string' ? payload : JSON.stringify(payload)]),
    ),
    tags: flag.tags.join(', '),
    persist: flag.ensureExperienceContinuity === true,
  };
}

const NUMERIC_OPERATORS = new Set(['gt', 'gte', 'lt', 'lte']);

function valueOf(row: PropertyRow): unknown {
  if (row.operator === 'is_set' || row.operator === 'is_not_set') return row.operator;
  if (row.type === 'cohort') return Number(row.value);
  if (NUMERIC_OPERATORS.has(row.operator)) return row.value.trim();
  if ((row.operator === 'exact' || row.operator === 'is_not') && row.value.includes(',')) {
    return row.value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
  }
  return row.value;
}

/** The variants' rollouts as numbers, and whether they sum to 100 (none: a boolean flag). */
export function variantSum(variants: VariantRow[]): number {
  return variants.reduce((sum, v) => sum + (Number(v.rollout) || 0), 0);
}

/** Problems the form can see before sending (the server checks everything again). */
export function localProblems(model: FlagFormModel): Record<string, string> {
  const problems: Record<string, string> = {};
  if (!model.key.trim()) problems.key = 'A key is required.';
  else if (!/^[a-zA-Z0-9_-]+$/.test(model.key.trim())) problems.key = 'Only letters, numbers, hyphens (-) and underscores (_).';
  if (model.variants.length > 0 && Math.abs(variantSum(model.variants) - 100) > 1e-9) {
    problems.variants = `Variant rollouts must sum to 100 (now ${variantSum(model.variants)}).`;
  }
  for (const [value, payload] of Object.entries(model.payloads)) {
    if (payload.trim() === '') continue;
    try {
      JSON.parse(payload);
    } catch {
      problems[`payload:${value}`] = 'Not valid JSON.';
    }
  }
  return problems;
}

/** A cohort filter is `in` or `not_in` (docs/evaluation.md): anything else a row carries from another type is `in`. */
export const cohortOperator = (operator: string) => (operator === 'not_in' ? 'not_in' : 'in');

/** The API's `filters` for the model. */
export function filtersOf(model: FlagFormModel): Json {
  const filters: Json = {
    groups: model.conditions.map((condition) => ({
      properties: condition.properties.map((row) => ({
        key: row.type === 'cohort' ? 'id' : row.key.trim(),
        type: row.type,
        operator: row.type === 'cohort' ? cohortOperator(row.operator) : row.operator,
        value: valueOf(row),
        ...(row.type === 'group' ? { group_type_index: model.groupTypeIndex } : {}),
      })),
      rollout_percentage: condition.rollout.trim() === '' ? null : Number(condition.rollout),
    })),
    aggregation_group_type_index: model.groupTypeIndex,
  };
  if (model.variants.length > 0) {
    filters.multivariate = {
      variants: model.variants.map((v) => ({ key: v.key.trim(), name: v.name, rollout_percentage: Number(v.rollout) })),
    };
  }
  const payloads = Object.entries(model.payloads).filter(([, payload]) => payload.trim() !== '');
  if (payloads.length) filters.payloads = Object.fromEntries(payloads);
  return filters;
}

export const tagsOf = (model: FlagFormModel) =>
  model.tags
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);
