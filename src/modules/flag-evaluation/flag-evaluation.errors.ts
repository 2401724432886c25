import { AppError, fieldErrors, ValidationError } from '../../errors';
import { captureErrors } from '../ingestion/ingestion.errors';

/** evaluation_reasons' and my_flags' messages (docs/evaluation.md §9). */
export const evaluationErrors = {
  distinctIdRequired: () => fieldErrors.invalidInput('distinct_id is required'),
  /** Paths that answer every flag or none (evaluation reasons, my flags): docs/evaluation.md §4.7's budget was spent. */
  matchBudgetSpent: () =>
    new AppError(
      503,
      'server_error',
      'service_unavailable',
      "The project's flags could not be evaluated: their regular expressions took too long to match.",
    ),
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
  propertiesNotAnObject: (field: 'person_properties' | 'group_properties', where: string = field) =>
    new ValidationError('invalid', `${where} must be an object`, field),
  notAnObject: () => captureErrors.notAnObject(),
  bodyTooLarge: (bytes: number) =>
    new AppError(413, 'invalid_request', 'payload_too_large', `Request body exceeds ${bytes / 1024 / 1024} MB after decompression.`),
  tooManyProperties: (field: 'person_properties' | 'group_properties', max: number) =>
    new ValidationError('invalid', `${field} may hold at most ${max} properties`, field),
  tooManyGroups: (max: number) => new ValidationError('invalid', `groups may name at most ${max} groups`, 'groups'),
};
