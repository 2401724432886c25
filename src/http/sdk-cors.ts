import type { Context } from 'koa';
import { readableCrossOrigin } from './security';

/**
 * CORS for the endpoints browsers' SDKs call with the public token (capture, remote evaluation,
 * client config): any origin, echoed (or `*`), credentials allowed. The admin API's CORS is separate
 * (security.ts) and off by default.
 */
export function sdkCors(ctx: Context): void {
  ctx.set('Access-Control-Allow-Origin', ctx.get('Origin') || '*');
  ctx.set('Access-Control-Allow-Credentials', 'true');
  ctx.vary('Origin');
  readableCrossOrigin(ctx);
}

/** A preflight: the methods given, any header the browser asks for (else Content-Type), cached a day; body `{"status": 1}`. */
export function answerPreflight(ctx: Context, methods: string): void {
  ctx.set('Access-Control-Allow-Methods', methods);
  ctx.set('Access-Control-Allow-Headers', ctx.get('Access-Control-Request-Headers') || 'Content-Type');
  ctx.set('Access-Control-Max-Age', '86400');
  ctx.body = { status: 1 };
}
