import { AppError, ValidationError } from '../../errors';

// SPEC-GAP: "20 MB" and "1 MB" are binary megabytes (MiB).
export const MAX_BODY_BYTES = 20 * 1024 * 1024;
export const MAX_EVENTS = 10_000;
export const MAX_EVENT_BYTES = 1024 * 1024;

const invalidPayload = (detail: string) => new ValidationError('invalid_payload', detail);
const malformed = (reason: string) => invalidPayload(`Malformed request data: ${reason}`);
const invalidEvent = (reason: string) => invalidPayload(`Invalid payload: ${reason}`);

/** The capture protocol's refusals (docs/ingestion.md §1.3), exactly as SDKs expect them. */
export const captureErrors = {
  // The socket closes after the answer: the rest of an oversized body is never read.
  bodyTooLarge: () =>
    new AppError(413, 'invalid_request', 'payload_too_large', 'Request body exceeds 20 MB after decompression.').withHeader(
      'Connection',
      'close',
    ),
  unreadableBody: () => malformed('Failed to read the request body.'),
  undecompressable: (reason: string) => malformed(`Failed to decompress data. ${reason}`),
  unsupportedCompression: (name: string) => malformed(`unsupported compression '${name}'`),
  jsonTooDeep: (levels: number) => malformed(`Invalid JSON: nested deeper than ${levels} levels`),
  keyTooLong: (characters: number) => malformed(`Invalid JSON: an object key is longer than ${characters} characters`),
  // SPEC-GAP: src/validation/fields.ts MAX_JSON_SHAPES; 413, as SDKs then send smaller batches.
  tooManyShapes: (limit: number) =>
    new AppError(
      413,
      'invalid_request',
      'payload_too_large',
      `Request body holds objects with more than ${limit} distinct sequences of keys; send fewer events or properties per request.`,
    ),
  invalidJson: (reason: string) => malformed(`Invalid JSON: ${reason}`),
  batchNotList: () => malformed('"batch" must be a list of events'),
  notEventsJson: () => malformed('Invalid JSON: expected an object or a list of events'),
  notAnObject: () => malformed('Invalid JSON: expected an object'),
  noData: () =>
    new ValidationError('no_data', 'No data found. Make sure to use a POST request when sending the payload in the body of the request.'),
  missingToken: () =>
    new AppError(
      401,
      'authentication_error',
      'missing_api_key',
      'API key not provided. You can find your project API key in your project settings.',
    ),
  invalidToken: () =>
    new AppError(
      401,
      'authentication_error',
      'invalid_api_key',
      'Project API key invalid. You can find your project API key in your project settings.',
    ),
  tooManyEvents: () => new AppError(413, 'invalid_request', 'payload_too_large', `Request contains more than ${MAX_EVENTS} events.`),
  eventTooLarge: () => new AppError(413, 'invalid_request', 'payload_too_large', 'Event exceeds 1 MB.'),
  distinctIdMissing: () => invalidEvent('All events must have the event field "distinct_id"!'),
  distinctIdBlank: () => invalidEvent('Event field "distinct_id" should not be blank!'),
  eventNotObject: (type: string) => invalidEvent(`All events must be JSON objects, received ${type}!`),
  eventNameMissing: () => invalidEvent('All events must have the event name field "event"!'),
  eventNameNotString: () => invalidEvent('Event field "event" must be a string!'),
  eventNameTooLong: (max: number) => invalidEvent(`Event field "event" must be at most ${max} characters!`),
  uuidInvalid: () => invalidEvent('Event field "uuid" is not a valid UUID!'),
  propertiesNotObject: (type: string) => invalidEvent(`Properties must be a JSON object, received ${type}!`),
  tooManyPropertyUpdates: (field: string, max: number) => invalidEvent(`Event field "${field}" must hold at most ${max} properties!`),
  unavailable: () => new AppError(503, 'server_error', 'server_error', 'Unable to store events. Please try again.'),
};
