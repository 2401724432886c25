import { unwrapResolverError } from '@apollo/server/errors';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import type { MikroORM } from '@mikro-orm/postgresql';
import Koa, { type Context, type Middleware } from 'koa';
import type { Logger } from 'pino';
import { createAppCaches } from './app-caches';
import { systemClock, useClock, type Clock } from './clock';
import { createContext, type AppContext, type AppServices } from './context';
import { listenForChanges } from './db/change-listener';
import { readCorsOrigins, readMetricsToken, readRateLimitConfig, type RateLimitConfig } from './config';
import { AppError, isDatabaseTimeout, requestErrors, translate } from './errors';
import { apolloMiddleware } from './graphql/apollo-koa';
import { formatGraphQLError, isInternal } from './graphql/errors';
import { apolloLimits } from './graphql/limits';
import { buildAppSchema, buildPublicSchema } from './graphql/schema';
import { DefinitionsCache } from './modules/flag-evaluation/definitions-cache';
import { localEvaluationDefinitions } from './modules/flag-evaluation/local-evaluation';
import { restRows } from './rest/adapter';
import { JobEngine, type JobEngineOptions } from './jobs/job-engine';
import { jobHandlers } from './jobs/job-handlers';
import { parseBody } from './rest/body';
import { endpoints, routes } from './rest/routes';
import { dispatch } from './http/dispatch';
import { redactUrl, requestLogging, safeLogger } from './http/logging';
import { createRateLimiter } from './http/rate-limit';
import { Metrics, poolUsageOf, routeLabel } from './http/metrics';
import type { AppParts } from './http/route-policy';
import type { RequestWork } from './http/request-work';
import { adminCors, securityHeaders } from './http/security';

export interface AppDeps {
  orm: MikroORM;
  logger: Logger;
  /** Trust X-Forwarded-* (only behind a proxy you run). */
  trustProxy?: boolean;
  /**
   * A PostgreSQL server that delivers notifications: LISTEN there for changes to cached data too.
   * Either way the change listener reads the database's change marks about once a second over a
   * connection of its own (to `orm`'s database), so changes by the CLI or another process are seen.
   */
  changesUrl?: string;
  /** Rate limits (docs/rest-api.md §1.6); default: from the environment (src/config.ts). */
  rateLimit?: RateLimitConfig;
  /** Origins the admin API answers CORS for; default: CORS_ORIGINS (none = CORS off). */
  corsOrigins?: string[];
  /** The bearer token GET /metrics requires; default: METRICS_TOKEN (none = this host only, docs/operations.md). */
  metricsToken?: string;
  /** What expires (credential and token caches) reads this; default: the system's. Tests move their own. */
  clock?: Clock;
  /**
   * Run the job engine in this process (src/jobs/job-engine.ts; docs/operations.md "The job engine"):
   * the service does; a test app only when it asks, since every running engine polls its queues.
   */
  jobs?: JobEngineOptions | false;
}

/** Outermost: any throw becomes `{type, code, detail, attr}`; a 500 shows no internals. */
function errorMiddleware(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const appError = translate(error);
      if (!(error instanceof AppError)) {
        const fields = { err: error, request_id: ctx.state.requestId, method: ctx.method, url: redactUrl(ctx.url) };
        if (isDatabaseTimeout(error)) logger.warn(fields, 'database timeout');
        else logger.error(fields, 'unhandled error');
      }
      ctx.set(appError.headers);
      if (appError.emptyBody) {
        ctx.body = '';
        ctx.remove('Content-Type');
      } else {
        ctx.body = appError.toJSON();
      }
      ctx.status = appError.status;
    }
  };
}

/** The one context per request, shared by whichever transport handles it. */
function contextFactory(services: AppServices) {
  return (koa: Context): AppContext => {
    koa.state.appContext ??= createContext(services, {
      method: koa.method,
      url: () => new URL(koa.href),
      headers: koa.headers,
      query: koa.query,
      body: koa.request.body,
      work: koa.state.work as RequestWork | undefined,
    });
    return koa.state.appContext as AppContext;
  };
}

/** The Koa app, not listening. Middleware order lives here. */
export async function createApp({
  orm,
  logger: givenLogger,
  trustProxy = false,
  changesUrl,
  rateLimit = readRateLimitConfig(),
  corsOrigins = readCorsOrigins(),
  metricsToken = readMetricsToken(),
  clock = systemClock,
  jobs = false,
}: AppDeps): Promise<{ app: Koa; stop(): Promise<void> }> {
  // Error serializer without SQL values, credentials censored (src/http/logging.ts).
  const logger = safeLogger(givenLogger);
  useClock(orm, clock);
  // REST runs its operations on the whole schema; /graphql serves it without the REST-only fields.
  const schema = await buildAppSchema();
  const apollo = new ApolloServer<AppContext>({
    schema: await buildPublicSchema(),
    // Size, depth, alias and cost limits for every document, introspection included (src/graphql/limits.ts).
    ...apolloLimits,
    // Browsers get GraphiQL from this service's own files (src/graphql/graphiql.ts), never Apollo's CDN page.
    // No cache hints are used: without the cache-control plugin Apollo wraps no field resolver
    // (its willResolveField hook ran for every field of every object of a list).
    plugins: [...apolloLimits.plugins, ApolloServerPluginLandingPageDisabled(), ApolloServerPluginCacheControlDisabled()],
    introspection: true,
    // Keys travel in headers, never cookies, so there is no cross-site request to forge.
    csrfPrevention: false,
    // main.ts owns shutdown: stop accepting, finish in-flight requests, then stop Apollo and the pool.
    stopOnTerminationSignals: false,
    formatError: (formatted, error) => {
      if (isInternal(error) && formatted.extensions?.code === 'INTERNAL_SERVER_ERROR') {
        if (isDatabaseTimeout(unwrapResolverError(error))) logger.warn({ err: error }, 'database timeout');
        else logger.error({ err: error }, 'graphql error');
      }
      return formatGraphQLError(formatted, error);
    },
  });
  await apollo.start();
  // Cached copies are trusted while the change listener sees every change (src/db/change-listener.ts).
  const definitions = new DefinitionsCache((projectId) => localEvaluationDefinitions(orm.em, projectId), { trusted: false });
  const listener = listenForChanges(changesUrl ?? orm.config.getClientUrl(), logger, {
    notifications: Boolean(changesUrl),
    onState: (listening) => definitions.setTrusted(listening),
  });
  await listener.ready;
  // The refresh budget lives in the limiter's store (memory or Redis); it is called per request, once both exist.
  const caches = createAppCaches(clock);
  const makeContext = contextFactory({ em: orm.em, clock, caches, definitions, refreshBudget: (caller) => limiter.refresh(caller) });
  const limiter = await createRateLimiter({ config: rateLimit, logger, makeContext, clock });
  const metrics = new Metrics({
    pool: () => poolUsageOf(orm.em.getConnection().getKnex()),
    definitionsCache: () => definitions.counts,
  });
  const parts: AppParts = {
    orm,
    logger,
    metrics,
    makeContext,
    clock,
    caches,
    graphql: apolloMiddleware(apollo, makeContext),
    schema,
    routes,
    endpoints,
    metricsToken,
  };
  const engine = jobs ? new JobEngine(orm, logger, jobHandlers(orm, logger), jobs) : null;
  await engine?.start();
  const app = new Koa({ proxy: trustProxy });
  // What Koa reports outside a response (a client's malformed request or dropped socket) goes to the
  // service's log, not Koa's console.error.
  app.on('error', (error: unknown) => logger.warn({ err: error }, 'http error'));
  // Every request: X-Request-Id and the access log, then security headers, outside the error middleware so errors get both.
  app.use(requestLogging(logger, metrics, routeLabel));
  app.use(securityHeaders());
  app.use(errorMiddleware(logger));
  // Then the row of the route table that serves the path, behind only the stages its policy names
  // (src/http/dispatch.ts); a path no row serves is 404.
  const pipeline = { limiter, adminCors: adminCors(corsOrigins), parseBody: parseBody() };
  app.use(dispatch(restRows(schema, routes, makeContext), endpoints, parts, pipeline));
  app.use(async () => {
    throw requestErrors.notFound();
  });
  return {
    app,
    async stop() {
      // Running jobs finish first; they write through the pool, closed after this.
      await engine?.stop();
      await apollo.stop();
      await limiter.close();
      await listener.close();
      definitions.close();
    },
  };
}
