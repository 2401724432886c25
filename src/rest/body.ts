import * as Bourne from '@hapi/bourne';
import { bodyParser } from '@koa/bodyparser';
import type { Middleware } from 'koa';
import { requestErrors } from '../errors';
import { exceedsJsonDepth, jsonTextRefusal, MAX_JSON_SHAPES } from '../validation/fields';

export const MAX_BODY_BYTES = 1_048_576;

/** The media types read as JSON (the body parser's own list). */
const JSON_TYPES = [
  'application/json',
  'application/json-patch+json',
  'application/vnd.api+json',
  'application/csp-report',
  'application/reports+json',
  'application/scim+json',
];

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * JSON text nested deeper than MAX_JSON_DEPTH (or with a key longer than MAX_JSON_KEY_LENGTH: a
 * parse error too), or with more than MAX_JSON_SHAPES object shapes, is refused before it is parsed:
 * parsing would build the whole structure first (a 1 MiB body of `[` is a million nested arrays, half
 * a second and tens of MB; 1 MiB of keys that never repeat, ~100,000 hidden classes). `__proto__`
 * keys are refused as before (the parser's `protoAction: 'error'`).
 */
function parseJson(text: string): unknown {
  const refusal = jsonTextRefusal(text);
  if (refusal === 'depth' || refusal === 'key') throw requestErrors.parse();
  if (refusal === 'shapes') throw requestErrors.tooManyShapes(MAX_JSON_SHAPES);
  try {
    return Bourne.parse(text, { protoAction: 'error' });
  } catch {
    throw requestErrors.parse();
  }
}

/**
 * Whether a body that arrives already parsed (an entry of a flags:import file) would exceed
 * MAX_BODY_BYTES as JSON text. One nested deeper than MAX_JSON_DEPTH is not measured, since
 * serialising it could overflow the stack: the service refuses it for its depth instead.
 */
export function exceedsBodySize(body: unknown): boolean {
  return !exceedsJsonDepth(body) && Buffer.byteLength(JSON.stringify(body) ?? '') > MAX_BODY_BYTES;
}

/**
 * JSON or form bodies up to 1 MiB (docs/rest-api.md §1.2); other media types with a body are 415.
 * The limit is enforced while streaming, so an oversized body is never buffered whole. An empty
 * body is `{}`; JSON nested too deep to handle safely is a parse error (see MAX_JSON_DEPTH). JSON
 * bodies are read as text and parsed here, so their depth is known before anything is built.
 */
export function parseBody(): Middleware {
  const parser = bodyParser({
    enableTypes: ['text', 'form'],
    extendTypes: { text: JSON_TYPES },
    textLimit: MAX_BODY_BYTES,
    formLimit: MAX_BODY_BYTES,
    parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'],
    onError: (error) => {
      const status = (error as { status?: number }).status;
      throw status === 413 ? requestErrors.tooLarge(MAX_BODY_BYTES) : requestErrors.parse();
    },
  });
  return async (ctx, next) => {
    if (hasBody(ctx.headers) && ['POST', 'PUT', 'PATCH', 'DELETE'].includes(ctx.method)) {
      if (!ctx.is('json', 'urlencoded')) throw requestErrors.unsupportedMediaType(ctx.request.type || 'none');
      ctx.state.bodyIsForm = ctx.is('urlencoded') !== false;
    }
    return parser(ctx, async () => {
      const body: unknown = ctx.request.body;
      if (ctx.request.rawBody === '') ctx.request.body = {};
      else if (typeof body === 'string') ctx.request.body = parseJson(body);
      else if (exceedsJsonDepth(body)) throw requestErrors.parse();
      return next();
    });
  };
}
