import { fieldErrors } from '../../errors';

/** evaluation_reasons' and my_flags' messages (docs/evaluation.md §9). */
export const evaluationErrors = {
  distinctIdRequired: () => fieldErrors.invalidInput('distinct_id is required'),
};

/** The `groups` query parameter's messages. */
export const groupsErrors = {
  invalidJson: () => fieldErrors.invalidInput('Invalid JSON in groups parameter'),
  notAnObject: () => fieldErrors.invalidInput('groups must be a JSON object'),
};
