import type { MikroORM } from '@mikro-orm/postgresql';
import type { GraphQLSchema } from 'graphql';
import type { Context, Middleware } from 'koa';
import type { Logger } from 'pino';
import type { AppCaches } from '../app-caches';
import type { Clock } from '../clock';
import type { AppContext } from '../context';
import type { OutsideOperation } from '../openapi/types';
import type { Method, Route, RouteAuth } from '../rest/route';
import type { Metrics } from './metrics';

/**
 * What a row of the route table pays for before its handler runs (docs/operations.md, "The route
 * table"). The app builds each row's pipeline from it, so a row that declares nothing pays nothing.
 */
export interface RoutePolicy {
  /**
   * `json`: the REST body parser (JSON or form, 1 MiB, depth-checked) for POST, PUT, PATCH and
   * DELETE; `raw`: the handler reads the body itself (capture's encodings and size caps); `none`.
   */
  body: 'none' | 'json' | 'raw';
  /** `sdk`: any origin, preflights answered (what browsers' SDKs call); `admin`: CORS_ORIGINS; `none`. */
  cors: 'none' | 'sdk' | 'admin';
  /**
   * `key`: burst and sustained budgets per personal API key, failed credentials per client address;
   * `local_evaluation`: the per-project SDK polling budget; `key_unless_public_token`: `none` for the
   * project's public token (OFREP, as `/flags`), `key` for any other credential; `none` (docs/rest-api.md §1.6).
   */
  limit: 'none' | 'key' | 'local_evaluation' | 'key_unless_public_token';
  /** The request may start computations that stop when it is answered (src/http/request-work.ts). */
  work: boolean;
  /**
   * How a refusal made before the handler (the rate limiter's 429, a bad key) is written: REST's
   * error body (the default), or GraphQL's `{errors: [...]}` (docs/README.md decision 3).
   */
  refusals?: 'rest' | 'graphql';
}

/** Anyone: no credential is read (probes, the console's files, the OpenAPI document). */
export const publicAccess: RouteAuth = { describe: 'no credential', check: async () => undefined, security: [] };

/** The project's public `api_token`, in the body or the query; the handler itself looks it up. */
export const publicTokenAccess: RouteAuth = {
  describe: "the project's public api_token (phc_…), in the body or the query",
  check: async () => undefined,
  security: [],
};

/** What a row's handler may use, made once per app (src/app.ts). */
export interface AppParts {
  orm: MikroORM;
  logger: Logger;
  metrics: Metrics;
  makeContext(koa: Context): AppContext;
  /** The app's clock and remembered lookups, for handlers that make no context (capture). */
  clock: Clock;
  caches: AppCaches;
  /** Apollo, for /graphql (src/graphql/apollo-koa.ts). */
  graphql: Middleware;
  /** The whole schema and the REST rows: the OpenAPI document is generated from them. */
  schema: GraphQLSchema;
  routes: Route[];
  endpoints: Endpoint[];
  /** The bearer token GET /metrics requires (none: this host only). */
  metricsToken: string | undefined;
}

/**
 * A row served by a handler of its own rather than a GraphQL operation: capture, remote
 * evaluation, GraphQL itself, probes, metrics, the OpenAPI document, the console's and SDKs' files.
 * The module that serves it owns the row; src/rest/routes.ts lists them all.
 */
export interface Endpoint {
  /** As in the REST rows (`:param`, `{/*rest}`); answered with and without a trailing slash, in any case. */
  path: string;
  /** What it serves; GET answers HEAD too. Any other method is 405 with `Allow`. */
  methods: readonly Method[];
  auth: RouteAuth;
  policy: RoutePolicy;
  /** Its access-log and metrics label; default: `path`. */
  label?: string;
  /** The handler, made once per app; calling `next` means "not mine after all" (404). */
  create(parts: AppParts): Middleware;
  /** Its OpenAPI operations (src/openapi/document.ts); none for files that are not API. */
  docs?: OutsideOperation[];
}

/** The policy of a row that reads nothing and is called by anyone. */
export const PLAIN: RoutePolicy = { body: 'none', cors: 'none', limit: 'none', work: false };
