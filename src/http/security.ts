import cors from '@koa/cors';
import helmet from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context, Middleware } from 'koa';

/**
 * Helmet's headers with its defaults, which depend on nothing in the request: worked out once by
 * running helmet against a response that records them, then set on every response in one loop
 * (helmet's own chain of a dozen middleware per request cost the SDK's 304s a measurable share).
 * HSTS for this host only: a self-hosted service must not pin its parent domain's other hosts to HTTPS.
 */
function helmetHeaders(): Array<[string, string]> {
  const headers: Array<[string, string]> = [];
  const recorder = {
    setHeader: (name: string, value: string) => headers.push([name, value]),
    removeHeader: () => undefined,
    getHeader: () => undefined,
  };
  let done = false;
  helmet({ strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: false } })(
    { headers: {}, method: 'GET' } as IncomingMessage,
    recorder as unknown as ServerResponse,
    () => (done = true),
  );
  if (!done) throw new Error('helmet did not finish synchronously: its headers depend on the request');
  return headers;
}

/**
 * Security headers (helmet's defaults: CSP `default-src 'self'`, nosniff, X-Frame-Options,
 * Referrer-Policy, HSTS, COOP/CORP, …) on every response, errors included.
 *
 * The GraphiQL page and its assets (src/graphql/graphiql.ts) replace the policy with their own,
 * which also allows only this origin.
 * A response that answers CORS (the capture endpoints for posthog-js, the admin API for
 * CORS_ORIGINS) is meant to be read cross-origin, so it says `Cross-Origin-Resource-Policy: cross-origin`.
 */
export function securityHeaders(): Middleware {
  const headers = helmetHeaders();
  return (ctx, next) => {
    for (const [name, value] of headers) ctx.res.setHeader(name, value);
    return next();
  };
}

/** What a response that answers CORS says instead of helmet's `same-origin`: it is meant to be read cross-origin. */
export function readableCrossOrigin(ctx: Context): void {
  ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
}

/** Headers a browser client of the admin API may read. */
const EXPOSED = [
  'X-Request-Id',
  'Retry-After',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'RateLimit-Policy',
  'ETag',
  'Allow',
];

/**
 * CORS for the admin API (REST and GraphQL): off unless CORS_ORIGINS lists origins (or `*`).
 * Credentials are bearer keys sent by script, never cookies, so no `Allow-Credentials`. The capture
 * endpoints answer CORS themselves (any origin) and run before this.
 */
export function adminCors(origins: string[]): Middleware | null {
  if (origins.length === 0) return null;
  const any = origins.includes('*');
  const allowed = new Set(origins);
  const answer = cors({
    origin: (ctx) => {
      const origin = ctx.get('Origin');
      if (!origin) return '';
      return any || allowed.has(origin) ? origin : '';
    },
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowHeaders: ['Authorization', 'Content-Type', 'If-None-Match', 'X-Request-Id'],
    exposeHeaders: EXPOSED,
    maxAge: 600,
  });
  const answered = (ctx: Context) => {
    if (ctx.response.get('Access-Control-Allow-Origin')) readableCrossOrigin(ctx);
  };
  // Marked before the handler runs, so an error answer keeps it; a preflight never reaches `next`.
  return async (ctx, next) => {
    await answer(ctx, () => {
      answered(ctx);
      return next();
    });
    answered(ctx);
  };
}
