import { blastRadiusErrors } from './blast-radius.errors';
import { validateConditionProperties, type FiltersValidationOptions } from '../feature-flag/flag-filters.validation';
import { filterErrors } from '../feature-flag/flag-filters.errors';
import type { PropertyFilter } from '../../evaluation/property-match';
import { isPlainObject } from '../../validation/python';
import type { BlastRadiusInput } from './blast-radius.types';

const MAX_GROUP_TYPE_INDEX = 4;

export interface CheckedBlastRadius {
  properties: PropertyFilter[];
  groupTypeIndex: number | null;
}

/** docs/rest-api.md §4.7, in its order; every error is 400 `invalid_input` with `attr` null. */
export async function checkBlastRadiusInput(
  input: BlastRadiusInput,
  loadCohorts: FiltersValidationOptions['loadCohorts'],
): Promise<CheckedBlastRadius> {
  // A missing condition never gets here: the schema requires it, and REST refuses it with the API's message first (src/modules/flag-evaluation/flag-evaluation.operations.ts).
  const { condition, groupTypeIndex: index } = input;
  if (!isPlainObject(condition)) throw blastRadiusErrors.conditionNotObject(condition);
  await validateConditionProperties(condition.properties, 'condition.properties', loadCohorts);
  const properties = (Array.isArray(condition.properties) ? condition.properties : []) as PropertyFilter[];

  if (index === undefined || index === null) {
    if (!properties.every((p) => p.type === 'person' || p.type === 'cohort')) throw filterErrors.personOrCohortOnly(null);
    return { properties, groupTypeIndex: null };
  }
  if (typeof index !== 'number' || !Number.isInteger(index)) throw blastRadiusErrors.indexNotInteger(index);
  if (index < 0 || index > MAX_GROUP_TYPE_INDEX) throw blastRadiusErrors.invalidGroupTypeIndex();
  if (!properties.every((p) => p.type === 'group' && p.group_type_index === index)) throw blastRadiusErrors.invalidGroupTypeIndex();
  return { properties, groupTypeIndex: index };
}
