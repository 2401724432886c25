import { fieldErrors, ValidationError } from '../../errors';
import { captureErrors } from '../ingestion/ingestion.errors';

/** evaluation_reasons' and my_flags' messages (docs/evaluation.md §9). */
export const evaluationErrors = {
  distinctIdRequired: () => fieldErrors.invalidInput('distinct_id is required'),
};

/** The `groups` query parameter's messages. */
export const groupsErrors = {
  invalidJson: () => fieldErrors.invalidInput('Invalid JSON in groups parameter'),
  notAnObject: () => fieldErrors.invalidInput('groups must be a JSON object'),
};

/** /flags and /decide (docs/remote-evaluation.md): bodies are decoded as capture decodes them. */
export const remoteEvaluationErrors = {
  distinctIdRequired: () => new ValidationError('invalid', 'distinct_id is required', 'distinct_id'),
  groupsNotAnObject: () => new ValidationError('invalid', 'groups must be an object', 'groups'),
  notAnObject: () => captureErrors.notAnObject(),
};
