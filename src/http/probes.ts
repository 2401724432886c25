import type { MikroORM } from '@mikro-orm/postgresql';
import { healthDocs, livezDocs, readyzDocs } from '../openapi/endpoint-docs';
import { PLAIN, publicAccess, type Endpoint } from './route-policy';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';

/** How long the database gets to answer `select 1` before the service calls itself not ready. */
export const READINESS_TIMEOUT_MS = 2000;

/**
 * GET /_livez: 200 as long as the process answers HTTP at all; it touches nothing else, so a
 * database outage never gets the process restarted (that is what readiness is for).
 *
 * GET /_readyz: 200 while the database answers through the service's own pool, 503 while it does
 * not (unreachable, refusing, or slower than READINESS_TIMEOUT_MS). A load balancer or Kubernetes
 * stops sending traffic on 503 and resumes on 200; the process itself keeps running and reconnects.
 * The change of state is logged once each way, not on every probe.
 */
function readiness(orm: MikroORM, logger: Logger, timeoutMs = READINESS_TIMEOUT_MS): Middleware {
  let lastReady: boolean | null = null;
  return async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    let timer: NodeJS.Timeout | undefined;
    let problem: string | null = null;
    try {
      await Promise.race([
        orm.em.getConnection().execute('select 1'),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error);
    } finally {
      clearTimeout(timer);
    }
    const ready = problem === null;
    if (ready !== lastReady) {
      if (ready) logger.info('ready: the database answers');
      else logger.warn({ reason: problem }, 'not ready: the database does not answer');
      lastReady = ready;
    }
    ctx.status = ready ? 200 : 503;
    ctx.body = ready ? { status: 'ready' } : { status: 'unavailable', database: 'unreachable' };
  };
}

/** The probes' rows (docs/operations.md): GET /_health, /_livez and /_readyz, public, no body, no limit. */
export const probeEndpoints: Endpoint[] = [
  {
    path: '/_health',
    methods: ['GET'],
    auth: publicAccess,
    policy: PLAIN,
    create: ({ orm }) =>
      async function health(ctx) {
        await orm.em.getConnection().execute('select 1');
        ctx.body = { status: 'ok' };
      },
    docs: [healthDocs],
  },
  {
    path: '/_livez',
    methods: ['GET'],
    auth: publicAccess,
    policy: PLAIN,
    create: () =>
      function livez(ctx) {
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { status: 'alive' };
      },
    docs: [livezDocs],
  },
  {
    path: '/_readyz',
    methods: ['GET'],
    auth: publicAccess,
    policy: PLAIN,
    create: ({ orm, logger }) => readiness(orm, logger),
    docs: [readyzDocs],
  },
];
