import { randomUUID } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import pino, { type Logger, type LoggerOptions } from 'pino';

/**
 * Request ids, the access log, and what logs may never show: credentials (the Authorization
 * header, `personal_api_key` in a query or body) and the values a database error carries (SQL
 * with inlined parameters, `detail` lines such as `Key (email)=(…) already exists`).
 */

/** A client's own id is kept when it is 1–200 of [A-Za-z0-9._-]; anything else gets a fresh UUID. */
const VALID_REQUEST_ID = /^[A-Za-z0-9._-]{1,200}$/;

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** The client's own X-Request-Id when it is acceptable, else null. */
function clientRequestId(header: string | string[] | undefined): string | null {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && VALID_REQUEST_ID.test(value) ? value : null;
}

export function requestIdOf(header: string | string[] | undefined): string {
  return clientRequestId(header) ?? randomUUID();
}

/** A path segment that looks like a key or token (`phx_…`, `phc_…`, `phs_…`): a client that put one in a URL. */
const KEY_SEGMENT = /(^|\/)ph[a-z]_[^/]*/gi;

/** The path for the access log: key-looking segments censored (the query string is never logged). */
export const loggablePath = (path: string) => (path.includes('_') ? path.replace(KEY_SEGMENT, '$1[Redacted]') : path);

/** Told of every answered request (the /metrics counters). */
export interface RequestObserver {
  observeRequest(method: string, route: string, status: number, seconds: number): void;
}

/**
 * Outermost middleware: every response carries X-Request-Id; one JSON line per request (method,
 * route pattern, path without its query string, status, duration in ms, request id) once the
 * answer is decided, and the same facts to the metrics.
 */
export function requestLogging(
  logger: Logger,
  observer?: RequestObserver,
  routeOf: (ctx: Context) => string = (ctx) => ctx.path,
): Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const sent = clientRequestId(ctx.headers['x-request-id']);
    const requestId = sent ?? randomUUID();
    // Kept on the Koa context for the log lines written beneath it. Not an AsyncLocalStorage: on
    // Node 20 that hooks every promise, a cost the hot paths measurably pay.
    ctx.state.requestId = requestId;
    ctx.set(REQUEST_ID_HEADER, requestId);
    let failed = false;
    try {
      await next();
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      const status = failed ? 500 : ctx.status;
      const route = routeOf(ctx);
      observer?.observeRequest(ctx.method, route, status, durationMs / 1000);
      // The line is built only when it will be written (LOG_LEVEL=warn in production benches).
      if (logger.isLevelEnabled('info')) {
        // A handler may answer under an id of its own (remote evaluation: a new UUID per request,
        // docs/remote-evaluation.md); the line then carries that id, and the client's beside it.
        const answeredId = String(ctx.state.requestId ?? requestId);
        logger.info(
          {
            request_id: answeredId,
            ...(sent !== null && sent !== answeredId ? { client_request_id: sent } : {}),
            method: ctx.method,
            route,
            path: loggablePath(ctx.path),
            status,
            duration_ms: Math.round(durationMs * 100) / 100,
          },
          'request',
        );
      }
    }
  };
}

/** Object paths pino censors wherever a caller logs request-like objects. */
export const REDACT_PATHS = [
  'authorization',
  'headers.authorization',
  'req.headers.authorization',
  'request.headers.authorization',
  'personal_api_key',
  '*.personal_api_key',
  'query.personal_api_key',
  'body.personal_api_key',
];

/** `url` with the `personal_api_key` (and any `*key*`/`*token*`-looking) query values replaced. */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const params = new URLSearchParams(url.slice(at + 1));
  for (const name of new Set(params.keys())) {
    if (/key|token|secret|password/i.test(name)) params.set(name, '[Redacted]');
  }
  const query = params.toString();
  return query ? `${url.slice(0, at)}?${query}` : url.slice(0, at);
}

// ---- database errors -------------------------------------------------------------------------

/** Fields of a pg error (copied onto MikroORM's DriverException) that can hold row values. */
const VALUE_FIELDS = ['detail', 'where', 'internalQuery', 'parameters', 'bindings', 'sql', 'query', 'hint'];
const SQLSTATE = /^[0-9A-Z]{5}$/;
const MAX_SQL_CHARS = 300;

function isDatabaseError(value: unknown, depth = 0): boolean {
  if (!value || typeof value !== 'object' || depth > 4) return false;
  const error = value as Record<string, unknown>;
  if (typeof error.code === 'string' && SQLSTATE.test(error.code) && ('severity' in error || 'routine' in error || 'sqlState' in error))
    return true;
  if (typeof error.name === 'string' && /Exception$/.test(error.name) && 'sqlState' in error) return true;
  return isDatabaseError(error.originalError, depth + 1) || isDatabaseError(error.cause, depth + 1);
}

/**
 * Knex prefixes the database's message with the statement, parameters inlined
 * (`select … where secure_value = 'sha256$…' - canceling statement due to statement timeout`), and
 * MikroORM appends ` - detail: …`. Quoted literals become `'?'`, the statement is cut short and the
 * detail lines go; the database's own message stays.
 */
export function redactSqlText(text: string): string {
  const withoutDetail = text.replace(/\n - (detail|hint): [\s\S]*?(?=\n - |\n\s+at |$)/g, '');
  const literals = withoutDetail.replace(/(?:[EeBbXxUu]&?)?'(?:[^']|'')*'/g, "'?'").replace(/\$([A-Za-z_]*)\$[\s\S]*?\$\1\$/g, '$$$$?$$$$');
  const split = literals.lastIndexOf(' - ');
  if (split < 0) return literals.length > MAX_SQL_CHARS * 2 ? `${literals.slice(0, MAX_SQL_CHARS * 2)}…` : literals;
  const statement = literals.slice(0, split);
  const message = literals.slice(split + 3);
  return `${statement.length > MAX_SQL_CHARS ? `${statement.slice(0, MAX_SQL_CHARS)}…` : statement} - ${message}`;
}

function redactSerialized(value: unknown, depth = 0): unknown {
  if (!value || typeof value !== 'object' || depth > 6) return value;
  if (Array.isArray(value)) return value.map((item) => redactSerialized(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
    if (VALUE_FIELDS.includes(key)) continue;
    if (key === 'message' && typeof field === 'string') out[key] = redactSqlText(field);
    else if (key === 'stack' && typeof field === 'string') out[key] = redactStack(field);
    else out[key] = redactSerialized(field, depth + 1);
  }
  return out;
}

/** The stack's frames only, under the redacted first line (the rest of the head repeats the message). */
function redactStack(stack: string): string {
  const lines = stack.split('\n');
  const frames = lines.filter((line) => /^\s+at /.test(line));
  const head = lines
    .slice(
      0,
      Math.max(
        1,
        lines.findIndex((line) => /^\s+at /.test(line)),
      ),
    )
    .join('\n');
  return [redactSqlText(head), ...frames].join('\n');
}

/** pino's `err` serializer, minus what a database error would leak. */
export function serializeError(error: unknown): unknown {
  const serialized = pino.stdSerializers.err(error as Error);
  return isDatabaseError(error) ? redactSerialized(serialized) : serialized;
}

/** What every logger of the service gets: the error serializer and the censored paths. */
export const loggerSafety: Pick<LoggerOptions, 'serializers' | 'redact'> = {
  serializers: { err: serializeError, error: serializeError },
  redact: { paths: REDACT_PATHS, censor: '[Redacted]' },
};

/** The service's root logger: JSON lines, safe serializers. */
export function createLogger(level: string): Logger {
  return pino({ level, ...loggerSafety });
}

/** A logger given from outside (tests, embedders) with the same safety applied. */
export const safeLogger = (logger: Logger): Logger => logger.child({}, loggerSafety);
