import { isPropertyOperator, parseRelativeOrAbsoluteDate } from '../../evaluation/operators';
import { regexProblem } from '../../evaluation/regex';
import { type Attr, filterErrors } from './flag-filters.errors';
import type { CheckedProperty } from './flag-filters.shapes';
import type { CohortInfo, FiltersValidationOptions } from './flag-filters.validation';

/**
 * Per-property rules of docs/rest-api.md §3.3, shared by flag writes and blast radius (docs/rest-api.md §4.7):
 * V4a–V4e (`checkPropertyRules`) and V6 (`checkPropertyRegex`).
 */

// SPEC-GAP: V4d covers is_date_before/is_date_after only (docs/rest-api.md §3.3); an
// unparseable is_date_exact value is saved and simply never matches (docs/evaluation.md §4.6).
const DATE_OPERATORS: ReadonlySet<string> = new Set(['is_date_before', 'is_date_after']);
const STRING_VALUE_OPERATORS: ReadonlySet<string> = new Set(['regex', 'not_regex', 'icontains', 'not_icontains', 'gt', 'gte', 'lt', 'lte']);
const REGEX_OPERATORS: ReadonlySet<string> = new Set(['regex', 'not_regex']);

/** Cohort ids are positive int4 (a larger one cannot exist and must not reach the database). */
const MAX_ID = 2_147_483_647;

/** A cohort filter's value as a cohort id: a number or a string of digits; anything else is no id. */
export function cohortIdOf(value: unknown): number | null {
  const id = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof id === 'number' && Number.isInteger(id) && id > 0 && id <= MAX_ID ? id : null;
}

const isCohort = (property: CheckedProperty) => property.type === 'cohort';

/** Cohorts that exist (not deleted), by id, for every cohort the properties name: one lookup. */
async function loadCohorts(properties: CheckedProperty[], load: FiltersValidationOptions['loadCohorts']): Promise<Map<number, CohortInfo>> {
  const ids = new Set<number>();
  for (const property of properties) {
    const id = isCohort(property) ? cohortIdOf(property.value) : null;
    if (id !== null) ids.add(id);
  }
  if (ids.size === 0) return new Map();
  const found = await load([...ids]);
  return new Map(found.filter((cohort) => !cohort.deleted).map((cohort) => [cohort.id, cohort]));
}

/** V4a–V4e for one property. Cohort filters ignore their operator beyond V4a. */
function checkPropertyRules(property: CheckedProperty, cohorts: Map<number, CohortInfo>, attr: Attr, now: Date): void {
  const operator = property.operator ?? 'exact';
  if (!isPropertyOperator(operator)) throw filterErrors.invalidOperator(operator, attr);

  const { value } = property;
  if (isCohort(property)) {
    const id = cohortIdOf(value);
    const cohort = id === null ? undefined : cohorts.get(id);
    if (!cohort) throw filterErrors.cohortDoesNotExist(value, attr);
    if (cohort.behavioralCohort !== null) throw filterErrors.behavioralCohort(cohort.behavioralCohort, attr);
    return;
  }

  if (DATE_OPERATORS.has(operator) && (typeof value !== 'string' || !parseRelativeOrAbsoluteDate(value, now))) {
    throw filterErrors.invalidDate(value, attr);
  }
  if (STRING_VALUE_OPERATORS.has(operator) && typeof value !== 'string') {
    throw filterErrors.invalidValue(operator, value, attr);
  }
}

/** V4a–V4e over properties in order, after loading every referenced cohort at once. */
export async function checkPropertiesRules(
  properties: CheckedProperty[],
  load: FiltersValidationOptions['loadCohorts'],
  attr: Attr,
): Promise<void> {
  const cohorts = await loadCohorts(properties, load);
  // Only whether a date parses is checked, which does not depend on when: the system's time will do.
  const now = new Date();
  for (const property of properties) checkPropertyRules(property, cohorts, attr, now);
}

/**
 * V6: a `regex`/`not_regex` pattern must compile as the evaluator compiles it
 * (docs/evaluation.md §4.7). On a flag, one that is not even ECMAScript gets PostHog's own
 * message (`posthogV6`); any other refusal (lookaround, back-references, too long or too
 * complex) says why, at `filters`.
 */
export function checkPropertyRegex(property: CheckedProperty, posthogV6 = true): void {
  if (isCohort(property) || !REGEX_OPERATORS.has(property.operator ?? 'exact')) return;
  if (typeof property.value !== 'string') return; // V4e has refused it already
  const problem = regexProblem(property.value);
  if (problem?.dialect === 'ECMAScript' && posthogV6) throw filterErrors.cannotEvaluate();
  if (problem) throw filterErrors.unusableRegex(property.path, problem.reason);
}
