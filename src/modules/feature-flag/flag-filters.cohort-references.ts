import { isPlainObject } from '../../validation/python';
import type { CheckedProperty } from './flag-filters.shapes';

/** The lists besides `groups` whose conditions may name cohorts; otherwise stored as sent (docs/rest-api.md §3.3). */
const OTHER_GROUP_LISTS = ['super_groups', 'holdout_groups'] as const;

/**
 * The cohort filters of `filters.super_groups[].properties` and `filters.holdout_groups[].properties`,
 * so that V4b and V4c check them as they check those in `groups`: a cohort of another project, a
 * deleted or missing one, or a behavioural one is refused wherever a flag names it. Anything else
 * in those lists is left alone.
 */
export function cohortFiltersOutsideGroups(filters: Record<string, unknown>): CheckedProperty[] {
  const found: CheckedProperty[] = [];
  for (const list of OTHER_GROUP_LISTS) {
    const groups = filters[list];
    if (!Array.isArray(groups)) continue;
    groups.forEach((group, i) => {
      const properties = isPlainObject(group) ? group.properties : null;
      if (!Array.isArray(properties)) return;
      properties.forEach((property, j) => {
        if (!isPlainObject(property) || property.type !== 'cohort') return;
        found.push({
          path: `${list}[${i}].properties[${j}]`,
          key: typeof property.key === 'string' ? property.key : 'id',
          value: property.value,
          type: 'cohort',
          operator: typeof property.operator === 'string' ? property.operator : null,
          groupTypeIndex: null,
        });
      });
    });
  }
  return found;
}
