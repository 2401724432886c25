import { isPlainObject } from '../../validation/python';
import { type Attr, type Expected, filterErrors } from './flag-filters.errors';

/**
 * Rule S3 of docs/rest-api.md §3.3: the JSON shapes of `filters`, checked depth-first in document
 * order (each group with its properties, rollout and variant before the next group; then
 * `multivariate`; then `aggregation_group_type_index`). The result is the typed view the
 * semantic rules (S4 onwards) work on.
 */

export interface CheckedProperty {
  /** JSON path, e.g. `groups[0].properties[1]`. */
  path: string;
  key: string;
  value: unknown;
  type: string | null;
  operator: string | null;
  groupTypeIndex: number | null;
}

export interface CheckedGroup {
  path: string;
  properties: CheckedProperty[];
  rolloutPercentage: number | null;
  /** The override as sent (`null` when absent). */
  variant: string | null;
}

export interface CheckedVariant {
  path: string;
  key: string;
  rolloutPercentage: number;
}

export interface CheckedFilters {
  groups: CheckedGroup[];
  /** null when `multivariate` is absent or null. */
  variants: CheckedVariant[] | null;
  aggregationGroupTypeIndex: number | null;
  payloads: unknown;
}

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
// JSON integers only: booleans, floats and numeric strings are refused.
const isInteger = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const isNonEmptyString = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const isNullish = (v: unknown): v is null | undefined => v === null || v === undefined;

function must<T>(ok: (v: unknown) => v is T, value: unknown, path: string, expected: Expected, attr: Attr): T {
  if (!ok(value)) throw filterErrors.wrongType(path, expected, value, attr);
  return value;
}

function mustOrNull<T>(ok: (v: unknown) => v is T, value: unknown, path: string, expected: Expected, attr: Attr): T | null {
  if (isNullish(value)) return null;
  return must(ok, value, path, expected, attr);
}

function requireKey(value: unknown, path: string, attr: Attr): string {
  if (!isNonEmptyString(value)) throw filterErrors.emptyKey(path, attr);
  return value;
}

/** One property filter: an object whose `key` is a non-empty string, `type`/`operator` string or null, `group_type_index` int or null. */
export function checkPropertyShape(raw: unknown, path: string, attr: Attr): CheckedProperty {
  const property = must(isPlainObject, raw, path, 'an object', attr);
  return {
    path,
    key: requireKey(property.key, `${path}.key`, attr),
    type: mustOrNull(isString, property.type, `${path}.type`, 'a string or null', attr),
    operator: mustOrNull(isString, property.operator, `${path}.operator`, 'a string or null', attr),
    groupTypeIndex: mustOrNull(isInteger, property.group_type_index, `${path}.group_type_index`, 'an integer or null', attr),
    value: property.value,
  };
}

/** A `properties` list: absent, null (both meaning none) or a list of property filters. */
export function checkPropertyListShape(raw: unknown, path: string, attr: Attr): CheckedProperty[] {
  const list = mustOrNull(Array.isArray, raw, path, 'a list', attr) ?? [];
  return list.map((property, j) => checkPropertyShape(property, `${path}[${j}]`, attr));
}

function checkGroup(raw: unknown, path: string): CheckedGroup {
  const group = must(isPlainObject, raw, path, 'an object', 'filters');
  return {
    path,
    properties: checkPropertyListShape(group.properties, `${path}.properties`, 'filters'),
    rolloutPercentage: mustOrNull(isNumber, group.rollout_percentage, `${path}.rollout_percentage`, 'a number or null', 'filters'),
    variant: mustOrNull(isString, group.variant, `${path}.variant`, 'a string or null', 'filters'),
  };
}

function checkVariant(raw: unknown, path: string): CheckedVariant {
  const variant = must(isPlainObject, raw, path, 'an object', 'filters');
  return {
    path,
    key: requireKey(variant.key, `${path}.key`, 'filters'),
    rolloutPercentage: must(isNumber, variant.rollout_percentage, `${path}.rollout_percentage`, 'a number', 'filters'),
  };
}

function checkMultivariate(raw: unknown): CheckedVariant[] | null {
  const multivariate = mustOrNull(isPlainObject, raw, 'multivariate', 'an object or null', 'filters');
  if (multivariate === null) return null;
  // SPEC-GAP: `multivariate: {}` (no `variants`) is refused as "multivariate.variants must be a list, got null".
  const variants = must(Array.isArray, multivariate.variants, 'multivariate.variants', 'a list', 'filters');
  return variants.map((variant, i) => checkVariant(variant, `multivariate.variants[${i}]`));
}

/**
 * S3 over a `filters` object. Absent `groups` is only reachable when S2 did not apply (PATCH,
 * whose caller already ignores such filters); it is then treated as no groups.
 */
export function checkFiltersShape(filters: Record<string, unknown>): CheckedFilters {
  const groups = filters.groups === undefined ? [] : must(Array.isArray, filters.groups, 'groups', 'a list', 'filters');
  return {
    groups: groups.map((group, i) => checkGroup(group, `groups[${i}]`)),
    variants: checkMultivariate(filters.multivariate),
    aggregationGroupTypeIndex: mustOrNull(
      isInteger,
      filters.aggregation_group_type_index,
      'aggregation_group_type_index',
      'an integer or null',
      'filters',
    ),
    payloads: filters.payloads,
  };
}
