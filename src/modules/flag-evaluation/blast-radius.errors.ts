import { fieldErrors } from '../../errors';
import { pyTypeName } from '../../validation/python';

/** user_blast_radius's messages (docs/rest-api.md §4.7). */
export const blastRadiusErrors = {
  missingCondition: () => fieldErrors.invalidInput('Missing condition for which to get blast radius'),
  conditionNotObject: (value: unknown) => fieldErrors.invalidInput(`condition must be an object, got ${pyTypeName(value)}`),
  indexNotInteger: (value: unknown) => fieldErrors.invalidInput(`group_type_index must be an integer or null, got ${pyTypeName(value)}`),
  invalidGroupTypeIndex: () => fieldErrors.invalidInput('Invalid group type index for feature flag condition.'),
};
