import { isPlainObject } from '../../validation/python';

/**
 * How a flag's stored filters are shown (docs/rest-api.md §3.1): filters without `groups` are
 * shown as one condition with their legacy `properties` and no rollout.
 */
export function shownFilters(stored: Record<string, unknown>): Record<string, unknown> {
  if (Object.prototype.hasOwnProperty.call(stored, 'groups')) return stored;
  const properties = Array.isArray(stored.properties) ? stored.properties : [];
  return { groups: [{ properties, rollout_percentage: null }] };
}

/** One condition without properties, and no group aggregation. */
export function isSimpleFlag(stored: Record<string, unknown>): boolean {
  const filters = shownFilters(stored);
  const groups = filters.groups;
  if (!Array.isArray(groups) || groups.length !== 1) return false;
  const group = groups[0];
  const properties = isPlainObject(group) ? group.properties : undefined;
  const noProperties = properties === undefined || properties === null || (Array.isArray(properties) && properties.length === 0);
  const aggregation = filters.aggregation_group_type_index;
  return noProperties && (aggregation === undefined || aggregation === null);
}

export function rolloutPercentage(stored: Record<string, unknown>): number | null {
  if (!isSimpleFlag(stored)) return null;
  const group = (shownFilters(stored).groups as Array<Record<string, unknown>>)[0];
  const value = isPlainObject(group) ? group.rollout_percentage : null;
  return typeof value === 'number' ? value : null;
}
