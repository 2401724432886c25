import { bodyParser } from '@koa/bodyparser';
import type { Middleware } from 'koa';
import { requestErrors } from '../errors';
import { exceedsJsonDepth } from '../validation/fields';

export const MAX_BODY_BYTES = 1_048_576;

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * JSON or form bodies up to 1 MiB (rest-flags.md §1.2); other media types with a body are 415.
 * The limit is enforced while streaming, so an oversized body is never buffered whole. An empty
 * body is `{}`; JSON nested too deep to handle safely is a parse error (see MAX_JSON_DEPTH).
 */
export function parseBody(): Middleware {
  const parser = bodyParser({
    enableTypes: ['json', 'form'],
    jsonLimit: MAX_BODY_BYTES,
    formLimit: MAX_BODY_BYTES,
    jsonStrict: false,
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
      if (ctx.request.rawBody === '') ctx.request.body = {};
      else if (exceedsJsonDepth(ctx.request.body)) throw requestErrors.parse();
      return next();
    });
  };
}
