/**
 * The one error hierarchy. Services throw these; each transport maps them once
 * (REST: `{type, code, detail, attr}` + status; GraphQL: message + extensions).
 * Messages come from the named constructors below, not from strings in services.
 */
export const ERROR_TYPES = ['validation_error', 'invalid_request', 'authentication_error', 'throttled_error', 'server_error'] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

const GRAPHQL_CODES: Record<number, string> = {
  400: 'BAD_USER_INPUT',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'BAD_USER_INPUT',
  409: 'CONFLICT',
  413: 'BAD_USER_INPUT',
  415: 'BAD_USER_INPUT',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_SERVER_ERROR',
};

export class AppError extends Error {
  /** Extra response headers (WWW-Authenticate, Allow, Retry-After). */
  headers: Record<string, string> = {};
  /** When true the REST response carries no body (flag DELETE). */
  emptyBody = false;

  constructor(
    readonly status: number,
    readonly type: ErrorType,
    readonly code: string,
    readonly detail: string,
    readonly attr: string | null = null,
  ) {
    super(detail);
    this.name = 'AppError';
  }

  get graphqlCode(): string {
    return GRAPHQL_CODES[this.status] ?? 'INTERNAL_SERVER_ERROR';
  }

  toJSON() {
    return { type: this.type, code: this.code, detail: this.detail, attr: this.attr };
  }

  withHeader(name: string, value: string): this {
    this.headers[name] = value;
    return this;
  }
}

export class ValidationError extends AppError {
  constructor(code: string, detail: string, attr: string | null = null) {
    super(400, 'validation_error', code, detail, attr);
  }
}

/** Generic field messages (docs/rest-api.md §1.4). */
export const fieldErrors = {
  required: (attr: string) => new ValidationError('required', 'This field is required.', attr),
  null: (attr: string) => new ValidationError('null', 'This field may not be null.', attr),
  blank: (attr: string) => new ValidationError('blank', 'This field may not be blank.', attr),
  maxLength: (attr: string, n: number) => new ValidationError('max_length', `Ensure this field has no more than ${n} characters.`, attr),
  notAString: (attr: string) => new ValidationError('invalid_input', 'Not a valid string.', attr),
  notABoolean: (attr: string) => new ValidationError('invalid_input', 'Must be a valid boolean.', attr),
  notAnInteger: (attr: string) => new ValidationError('invalid_input', 'A valid integer is required.', attr),
  notAUuid: (attr: string) => new ValidationError('invalid_input', 'Must be a valid UUID.', attr),
  notADateTime: (attr: string) =>
    new ValidationError(
      'invalid_input',
      'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
      attr,
    ),
  notAList: (attr: string, typeName: string) =>
    new ValidationError('not_a_list', `Expected a list of items but got type "${typeName}".`, attr),
  notADict: (attr: string, typeName: string) =>
    new ValidationError('not_a_dict', `Expected a dictionary of items but got type "${typeName}".`, attr),
  invalidChoice: (attr: string, shown: string) => new ValidationError('invalid_choice', `"${shown}" is not a valid choice.`, attr),
  doesNotExist: (attr: string, shown: string) =>
    new ValidationError('does_not_exist', `Invalid pk "${shown}" - object does not exist.`, attr),
  incorrectPkType: (attr: string, typeName: string) =>
    new ValidationError('incorrect_type', `Incorrect type. Expected pk value, received ${typeName}.`, attr),
  invalidInput: (detail: string, attr: string | null = null) => new ValidationError('invalid_input', detail, attr),
  /** PostgreSQL stores no NUL in text or jsonb; upstream (DRF) refuses it in text fields with this message. */
  nullCharacters: (attr: string) => new ValidationError('null_characters_not_allowed', 'Null characters are not allowed.', attr),
  /** Nor a lone surrogate (half of a UTF-16 pair); DRF's CharField refuses them with this message. */
  surrogateCharacters: (attr: string, codeUnit: number) =>
    new ValidationError(
      'surrogate_characters_not_allowed',
      `Surrogate characters are not allowed: U+${codeUnit.toString(16).toUpperCase()}.`,
      attr,
    ),
  /** JSON nested deeper than the API accepts in a field (src/validation/fields.ts MAX_FIELD_JSON_DEPTH). */
  tooDeep: (attr: string, limit: number) =>
    new ValidationError('max_depth', `Ensure this value is nested no more than ${limit} levels deep.`, attr),
};

export const requestErrors = {
  parse: () => new AppError(400, 'invalid_request', 'parse_error', 'JSON parse error - request body is not valid JSON.'),
  notADictionary: (typeName: string) => new ValidationError('invalid_input', `Invalid data. Expected a dictionary, but got ${typeName}.`),
  unsupportedMediaType: (mediaType: string) =>
    new AppError(415, 'invalid_request', 'unsupported_media_type', `Unsupported media type "${mediaType}" in request.`),
  tooLarge: (limit: number) => new AppError(413, 'invalid_request', 'request_too_large', `Request body exceeds ${limit} bytes.`),
  /** JSON whose parse would cost too much (src/validation/fields.ts MAX_JSON_SHAPES). */
  tooManyShapes: (limit: number) =>
    new AppError(
      413,
      'invalid_request',
      'request_too_large',
      `Request body holds objects with more than ${limit} distinct sequences of keys.`,
    ),
  notFound: (detail = 'Not found.') => new AppError(404, 'invalid_request', 'not_found', detail),
  projectNotFound: () => new AppError(404, 'invalid_request', 'not_found', 'Project not found.'),
  organizationNotFound: () => new AppError(404, 'invalid_request', 'not_found', 'Organization not found.'),
  methodNotAllowed: (method: string, allow: string[]) =>
    new AppError(405, 'invalid_request', 'method_not_allowed', `Method "${method}" not allowed.`).withHeader('Allow', allow.join(', ')),
  /** Flag DELETE: refused with no body and no Allow header (docs/rest-api.md §3.8). */
  hardDeleteRefused: () => {
    const error = new AppError(405, 'invalid_request', 'method_not_allowed', 'Method "DELETE" not allowed.');
    error.emptyBody = true;
    return error;
  },
  conflict: (detail: string) => new AppError(409, 'server_error', 'conflict', detail),
  internal: () => new AppError(500, 'server_error', 'error', 'A server error occurred.'),
  /** docs/rest-api.md §1.6: `seconds` is the Retry-After value (at least 1). */
  throttled: (seconds: number) =>
    new AppError(
      429,
      'throttled_error',
      'throttled',
      `Request was throttled. Expected available in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}.`,
    ).withHeader('Retry-After', String(seconds)),
  /** SPEC-GAP (ours): `refresh` recomputes on demand, so it has a budget of its own per key (docs/experiment-results.md). */
  refreshThrottled: (limit: number, seconds: number) =>
    new AppError(
      429,
      'throttled_error',
      'throttled',
      `Too many refreshes: a key may recompute results ${limit} times a minute. Expected available in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}; stored results are served without refresh meanwhile.`,
    ).withHeader('Retry-After', String(seconds)),
  /**
   * The reason a request's computing work stops (src/http/request-work.ts): it was answered, or its
   * client went away. Nobody receives it; 499 (the status proxies log for a client that left)
   * keeps it apart from the server's own failures in the access log.
   */
  requestEnded: () => new AppError(499, 'server_error', 'request_ended', 'The request ended before its work finished.'),
  /** A statement outlived STATEMENT_TIMEOUT_MS (or waited too long for a lock): the server's fault, not the client's. */
  databaseTimeout: () =>
    new AppError(503, 'server_error', 'service_unavailable', 'The database took too long to answer. Please try again later.'),
};

/** PostgreSQL's query_canceled (statement_timeout) and lock_not_available (lock_timeout). */
const DATABASE_TIMEOUT_STATES = new Set(['57014', '55P03']);

/** A statement PostgreSQL cancelled for running past its timeout: the 503 below, an expected refusal under load, not a defect. */
export function isDatabaseTimeout(error: unknown): boolean {
  return typeof error === 'object' && error !== null && DATABASE_TIMEOUT_STATES.has(String((error as { code?: unknown }).code));
}

export const authErrors = {
  notAuthenticated: () =>
    new AppError(401, 'authentication_error', 'not_authenticated', 'Authentication credentials were not provided.').withHeader(
      'WWW-Authenticate',
      'Bearer',
    ),
  invalidPersonalKey: (where: 'Authorization header' | 'body' | 'query string') =>
    new AppError(401, 'authentication_error', 'authentication_failed', `Personal API key found in request ${where} is invalid.`).withHeader(
      'WWW-Authenticate',
      'Bearer',
    ),
  invalidSecretToken: () =>
    new AppError(
      401,
      'authentication_error',
      'authentication_failed',
      'Project secret API key found in request Authorization header is invalid.',
    ).withHeader('WWW-Authenticate', 'Bearer'),
  incorrectCredentials: () =>
    new AppError(401, 'authentication_error', 'authentication_failed', 'Incorrect authentication credentials.').withHeader(
      'WWW-Authenticate',
      'Bearer',
    ),
  forbidden: (detail: string) => new AppError(403, 'authentication_error', 'permission_denied', detail),
  /** GET /metrics without METRICS_TOKEN, from another host or through a proxy (docs/operations.md). */
  metricsLocalOnly: () => authErrors.forbidden('Metrics are served to this host only. Set METRICS_TOKEN to scrape them from elsewhere.'),
  noProjectAccess: () => authErrors.forbidden("You don't have access to the project."),
  notInOrganization: () => authErrors.forbidden("You don't belong to the organization."),
  keyProjectScope: (projectId: number) => authErrors.forbidden(`API key does not have access to the requested project: ID ${projectId}.`),
  keyScopedToProjectsOnOrgRoute: () => authErrors.forbidden('API keys with scoped projects are only supported on project-based endpoints.'),
  keyOrganizationScope: (organizationId: string) =>
    authErrors.forbidden(`API key does not have access to the requested organization: ID ${organizationId}.`),
  missingScope: (scope: string) => authErrors.forbidden(`API key missing required scope '${scope}'`),
  cannotEditFlag: () => authErrors.forbidden("You don't have edit permissions for this feature flag."),
};

/**
 * Recognises library errors once, for both transports. Anything unknown becomes the
 * opaque 500 (the caller logs the original).
 */
export function translate(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const e = error as { status?: number; type?: string; expose?: boolean; message?: string; name?: string };
  // Errors thrown by the body parser (co-body / raw-body / http-errors).
  if (e && typeof e === 'object') {
    if (isDatabaseTimeout(e)) return requestErrors.databaseTimeout();
    if (e.type === 'entity.too.large' || e.status === 413) return requestErrors.tooLarge(1048576);
    if (e.type === 'entity.parse.failed' || (e.status === 400 && e.name === 'SyntaxError')) return requestErrors.parse();
    if (e.status === 415) return requestErrors.unsupportedMediaType('unknown');
    if (e.status === 400 && e.expose) return requestErrors.parse();
  }
  return requestErrors.internal();
}
