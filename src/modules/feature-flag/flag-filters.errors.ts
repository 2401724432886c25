import { fieldErrors, ValidationError } from '../../errors';
import { pyRepr, pyTypeName } from '../../validation/python';

/**
 * The messages of docs/rest-api.md §3.3 (flag `filters`) and §4.7 (blast radius). Rules that blast
 * radius reuses take the `attr` to report: `"filters"` on flag writes, null there.
 */
export type Attr = 'filters' | null;

/** What S3 says a value must be. */
export type Expected =
  'a list' | 'an object' | 'a string' | 'a number' | 'a number or null' | 'an integer or null' | 'a string or null' | 'an object or null';

const invalid = (detail: string, attr: Attr = 'filters') => new ValidationError('invalid_input', detail, attr);

/** S3 prints `null` (not `NoneType`) for a missing or null value. */
const shownType = (value: unknown) => (value === null || value === undefined ? 'null' : pyTypeName(value));

export const filterErrors = {
  notADict: (value: unknown) => fieldErrors.notADict('filters', pyTypeName(value)),
  noGroups: () => invalid('Feature flags must have at least one condition set (group).'),
  wrongType: (path: string, expected: Expected, value: unknown, attr: Attr = 'filters') =>
    invalid(`${path} must be ${expected}, got ${shownType(value)}`, attr),
  emptyKey: (path: string, attr: Attr = 'filters') => invalid(`${path} must be a non-empty string`, attr),
  outOfRange: (path: string, value: number) => invalid(`${path} must be between 0 and 100, got ${pyRepr(value)}`),
  duplicateVariantKeys: () => invalid('Invalid variant definitions: Variant keys must be unique.'),
  personOrCohortOnly: (attr: Attr = 'filters') => invalid('Filters are not valid (can only use person and cohort properties)', attr),
  groupOnly: () => invalid('Filters are not valid (can only use group properties)'),
  variantSum: () => invalid('Invalid variant definitions: Variant rollout percentages must sum to 100.'),
  unknownVariantOverride: () => invalid('Filters are not valid (variant override does not exist)'),
  invalidOperator: (operator: unknown, attr: Attr) =>
    new ValidationError('invalid_operator', `Invalid operator: ${pyRepr(operator)}`, attr),
  cohortDoesNotExist: (value: unknown, attr: Attr) =>
    new ValidationError('cohort_does_not_exist', `Cohort with id ${pyRepr(value)} does not exist`, attr),
  behavioralCohort: (name: string, attr: Attr) =>
    new ValidationError('behavioral_cohort_found', `Cohort '${name}' with filters on events cannot be used in feature flags.`, attr),
  invalidDate: (value: unknown, attr: Attr) => new ValidationError('invalid_date', `Invalid date value: ${pyRepr(value)}`, attr),
  invalidValue: (operator: string, value: unknown, attr: Attr) =>
    new ValidationError('invalid_value', `Invalid value for operator ${operator}: ${pyRepr(value)}`, attr),
  payloadsNotDict: () => invalid('Payloads must be passed as a dictionary'),
  payloadKeysNotVariants: () => invalid('Payload keys must match a variant key for multivariate flags'),
  payloadKeysNotTrue: () => invalid("Payload keys must be 'true' for boolean flags"),
  cannotEvaluate: () => invalid("Can't evaluate flag - please check release conditions", null),
  unusableRegex: (path: string, reason: string) =>
    new ValidationError('invalid_regex', `${path}.value is not a regular expression this service can evaluate: ${reason}`, 'filters'),
};
