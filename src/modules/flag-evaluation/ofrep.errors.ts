import { AppError } from '../../errors';

/** The error codes of OFREP's evaluation failures (docs/openfeature.md, "Errors"). */
export type OfrepErrorCode = 'FLAG_NOT_FOUND' | 'TARGETING_KEY_MISSING' | 'INVALID_CONTEXT' | 'PARSE_ERROR' | 'GENERAL';

/** An OFREP refusal: answered as `{key?, errorCode, errorDetails}` (src/modules/flag-evaluation/ofrep.handler.ts), never as the REST error body. */
export class OfrepError extends AppError {
  constructor(
    status: 400 | 404 | 500,
    readonly errorCode: OfrepErrorCode,
    detail: string,
  ) {
    super(status, status === 500 ? 'server_error' : 'invalid_request', errorCode.toLowerCase(), detail);
    this.name = 'OfrepError';
  }
}

export const ofrepErrors = {
  flagNotFound: (key: string) => new OfrepError(404, 'FLAG_NOT_FOUND', `Flag '${key.slice(0, 200)}' was not found`),
  targetingKeyMissing: () => new OfrepError(400, 'TARGETING_KEY_MISSING', 'context.targetingKey is required (the distinct id)'),
  invalidContext: (detail: string) => new OfrepError(400, 'INVALID_CONTEXT', detail),
  parse: (detail: string) => new OfrepError(400, 'PARSE_ERROR', detail),
  general: (detail: string) => new OfrepError(500, 'GENERAL', detail),
};
