import { ERROR_TYPES, type ErrorType } from '../errors';
import type { JsonSchema } from './types';

/**
 * The REST error body (`AppError.toJSON()` in src/errors.ts) and the statuses it comes with. Each
 * status names the error types it can carry, so a 403 that says `validation_error` fails the response check.
 */
export const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'Every REST error: what kind, a stable code, a message for people and the offending field (or null).',
  properties: {
    type: { type: 'string', enum: [...ERROR_TYPES] },
    code: { type: 'string', description: 'A stable machine-readable code, e.g. `required`, `not_found`, `permission_denied`.' },
    detail: { type: 'string', description: 'A message for people.' },
    attr: { type: ['string', 'null'], description: 'The body field the error is about, when there is one.' },
  },
  required: ['type', 'code', 'detail', 'attr'],
  additionalProperties: false,
};

interface ErrorStatus {
  name: string;
  description: string;
  types: ErrorType[];
  headers?: Record<string, { description: string; schema: JsonSchema }>;
}

export const ERROR_STATUSES: Record<number, ErrorStatus> = {
  400: {
    name: 'BadRequest',
    description: 'The request is invalid (a field, a query parameter or the JSON itself); nothing was written.',
    types: ['validation_error', 'invalid_request'],
  },
  401: {
    name: 'Unauthorized',
    description: 'No credential, or one that is not valid.',
    types: ['authentication_error'],
    headers: { 'WWW-Authenticate': { description: 'Always `Bearer`.', schema: { type: 'string' } } },
  },
  403: { name: 'Forbidden', description: 'The credential may not do this (scope, project or role).', types: ['authentication_error'] },
  404: {
    name: 'NotFound',
    description: 'The project, organization or object does not exist (or is not visible to the caller).',
    types: ['invalid_request'],
  },
  405: {
    name: 'MethodNotAllowed',
    description: 'The path does not serve this method.',
    types: ['invalid_request'],
    headers: { Allow: { description: 'The methods the path serves.', schema: { type: 'string' } } },
  },
  409: { name: 'Conflict', description: 'The object changed since the client read it (`version`).', types: ['server_error'] },
  413: { name: 'PayloadTooLarge', description: 'The body is larger than the limit (1 MiB for the REST API).', types: ['invalid_request'] },
  415: { name: 'UnsupportedMediaType', description: 'The body is neither JSON nor a form.', types: ['invalid_request'] },
  429: {
    name: 'TooManyRequests',
    description: 'Rate limited.',
    types: ['throttled_error'],
    headers: { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer', minimum: 1 } } },
  },
  500: { name: 'ServerError', description: 'An unexpected error; the body shows no internals.', types: ['server_error'] },
  503: { name: 'ServiceUnavailable', description: 'The database took too long or is unavailable; try again.', types: ['server_error'] },
};

/** `components.responses`: one per status, each the error body narrowed to its types. */
export function errorResponseComponents(): Record<string, unknown> {
  return Object.fromEntries(
    Object.values(ERROR_STATUSES).map(({ name, description, types, headers }) => [
      name,
      {
        description,
        ...(headers ? { headers } : {}),
        content: {
          'application/json': {
            schema: { allOf: [{ $ref: '#/components/schemas/Error' }, { properties: { type: { enum: types } } }] },
          },
        },
      },
    ]),
  );
}

export const errorResponseRef = (status: number) => {
  const known = ERROR_STATUSES[status];
  if (!known) throw new Error(`OpenAPI: no error response is defined for status ${status} (src/openapi/error-responses.ts)`);
  return { $ref: `#/components/responses/${known.name}` };
};
