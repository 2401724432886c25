import cors from '@koa/cors';
import type { Middleware } from 'koa';
import helmet from 'koa-helmet';

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
  // HSTS for this host only: a self-hosted service must not pin its parent domain's other hosts to HTTPS.
  const headers = helmet({ strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: false } });
  return async (ctx, next) => {
    await headers(ctx, next);
    if (ctx.response.get('Access-Control-Allow-Origin')) ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
  };
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
  return cors({
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
}
