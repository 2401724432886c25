import { isPlainObject } from '../../validation/python';
import { filterErrors } from './flag-filters.errors';
import { cohortFiltersOutsideGroups } from './flag-filters.cohort-references';
import { checkPropertiesRules, checkPropertyRegex } from './flag-filters.properties';
import { type CheckedFilters, checkFiltersShape, checkPropertyListShape } from './flag-filters.shapes';

/**
 * Validation of a flag's `filters` (docs/rest-api.md §3.3): rules S1–S5 then V1–V6, in that order,
 * the first failure answers. Shapes (S3) live in `flag-filters.shapes.ts`, per-property rules
 * (V4, V6) in `flag-filters.properties.ts`, messages in `flag-filters.errors.ts`.
 */

export interface CohortInfo {
  id: number;
  name: string;
  deleted: boolean;
  /**
   * The name of the cohort holding a `behavioral` property: this one, else the first one it references
   * (transitively) that has one; null when none has.
   */
  behavioralCohort: string | null;
}

export interface FiltersValidationOptions {
  /** POST/PUT: true (rule S2 applies). PATCH: false. */
  requireGroups: boolean;
  /** Looks up cohorts of the flag's project by id; returns the ones that exist (deleted ones may be returned with deleted=true). */
  loadCohorts: (ids: number[]) => Promise<CohortInfo[]>;
}

/**
 * Throws ValidationError on the first failing rule; resolves when valid. Caller has already
 * decided that filters is to be validated (the "PATCH without groups key is ignored" rule is the
 * caller's). `loadCohorts` is called at most once, only when a cohort filter names an id.
 */
export async function validateFlagFilters(filters: unknown, options: FiltersValidationOptions): Promise<void> {
  if (!isPlainObject(filters)) throw filterErrors.notADict(filters); // S1
  if (options.requireGroups && filters.groups === undefined) throw filterErrors.noGroups(); // S2
  const checked = checkFiltersShape(filters); // S3
  checkRolloutRanges(checked); // S4
  checkUniqueVariantKeys(checked); // S5
  checkPropertyTypes(checked); // V1
  checkVariantSum(checked); // V2
  checkVariantOverrides(checked); // V3
  const properties = checked.groups.flatMap((group) => group.properties);
  await checkPropertiesRules([...properties, ...cohortFiltersOutsideGroups(filters)], options.loadCohorts, 'filters'); // V4a–V4e
  checkPayloads(checked); // V5
  for (const property of properties) checkPropertyRegex(property); // V6
}

/**
 * For blast radius (docs/rest-api.md §4.7): validates `condition.properties` shapes (S3 property rules, with
 * paths `<pathPrefix>[j]`, e.g. pathPrefix `condition.properties`) and V4a–V4e; errors there
 * have attr null. Absent or null properties are valid (none). V6 does not apply: an invalid
 * pattern just matches nobody (docs/evaluation.md §4.7).
 */
export async function validateConditionProperties(
  properties: unknown,
  pathPrefix: string,
  loadCohorts: FiltersValidationOptions['loadCohorts'],
): Promise<void> {
  const checked = checkPropertyListShape(properties, pathPrefix, null);
  await checkPropertiesRules(checked, loadCohorts, null);
}

/** S4: group rollouts, then variant rollouts, within 0–100. */
function checkRolloutRanges({ groups, variants }: CheckedFilters): void {
  const rollouts = [
    ...groups.map((group) => ({ path: group.path, pct: group.rolloutPercentage })),
    ...(variants ?? []).map((variant) => ({ path: variant.path, pct: variant.rolloutPercentage })),
  ];
  for (const { path, pct } of rollouts) {
    if (pct !== null && (pct < 0 || pct > 100)) throw filterErrors.outOfRange(`${path}.rollout_percentage`, pct);
  }
}

/** S5 */
function checkUniqueVariantKeys({ variants }: CheckedFilters): void {
  const keys = (variants ?? []).map((variant) => variant.key);
  if (new Set(keys).size !== keys.length) throw filterErrors.duplicateVariantKeys();
}

/** V1: a missing (or null) `type` counts as `event`, which neither kind of flag accepts. */
function checkPropertyTypes({ groups, aggregationGroupTypeIndex: index }: CheckedFilters): void {
  const properties = groups.flatMap((group) => group.properties);
  if (index === null) {
    if (!properties.every((p) => p.type === 'person' || p.type === 'cohort')) throw filterErrors.personOrCohortOnly();
  } else if (!properties.every((p) => p.type === 'group' && p.groupTypeIndex === index)) {
    throw filterErrors.groupOnly();
  }
}

// SPEC-GAP: "sum to exactly 100" is read in decimal: floating-point accumulation error is tolerated
// (33.4 + 33.3 + 33.3 is 99.99999999999999 in doubles, and upstream would refuse it in that order
// only), while any real shortfall such as 99.99999999 is still refused.
const SUM_TOLERANCE = 1e-9;

/** V2 (POST, PUT and PATCH alike), only when there is at least one variant. */
function checkVariantSum({ variants }: CheckedFilters): void {
  if (!variants || variants.length === 0) return;
  const sum = variants.reduce((total, variant) => total + variant.rolloutPercentage, 0);
  if (Math.abs(sum - 100) > SUM_TOLERANCE) throw filterErrors.variantSum();
}

/**
 * V3. SPEC-GAP: an empty-string `variant` means "no override", as upstream (which tests the
 * override's truthiness) and the evaluator (which ignores unknown overrides) treat it.
 */
function checkVariantOverrides({ groups, variants }: CheckedFilters): void {
  const keys = new Set((variants ?? []).map((variant) => variant.key));
  for (const group of groups) {
    if (group.variant && !keys.has(group.variant)) throw filterErrors.unknownVariantOverride();
  }
}

/** V5: `multivariate` non-null (even with no variants) means every payload key is a variant key. */
function checkPayloads({ payloads, variants }: CheckedFilters): void {
  if (payloads === null || payloads === undefined) return;
  if (!isPlainObject(payloads)) throw filterErrors.payloadsNotDict();
  const keys = Object.keys(payloads);
  if (variants !== null) {
    const variantKeys = new Set(variants.map((variant) => variant.key));
    if (!keys.every((key) => variantKeys.has(key))) throw filterErrors.payloadKeysNotVariants();
  } else if (keys.length > 1 || keys.some((key) => key !== 'true')) {
    throw filterErrors.payloadKeysNotTrue();
  }
}
