import Router from '@koa/router';
import type { Middleware } from 'koa';
import compose from 'koa-compose';
import { requestErrors } from '../errors';
import type { Method } from '../rest/route';
import type { RestRow } from '../rest/adapter';
import type { RateLimiter } from './rate-limit';
import { requestWork } from './request-work';
import type { AppParts, Endpoint, RoutePolicy } from './route-policy';
import { answerPreflight, sdkCors } from './sdk-cors';

/** The shared pieces a row's policy may ask for, made once per app. */
export interface PipelineParts {
  limiter: RateLimiter;
  /** CORS for the admin API; null while CORS_ORIGINS is empty. */
  adminCors: Middleware | null;
  parseBody: Middleware;
}

/** The label a row's requests carry in the access log and the metrics (src/http/metrics.ts). */
const labelled =
  (label: string): Middleware =>
  (koa, next) => {
    koa.state.routeLabel = label;
    return next();
  };

/** SDK CORS on every answer, preflights answered here with the row's methods. */
function sdkCorsStage(allow: string[]): Middleware {
  const methods = allow.join(', ');
  return (koa, next) => {
    sdkCors(koa);
    if (koa.method === 'OPTIONS') return answerPreflight(koa, methods);
    return next();
  };
}

/** The stages a policy asks for, in the order they must run: later ones read what earlier ones set. */
function policyStages(policy: RoutePolicy, parts: PipelineParts, preflight: readonly string[]): Middleware[] {
  const stages: Middleware[] = [];
  if (policy.cors === 'sdk') stages.push(sdkCorsStage([...preflight, 'OPTIONS']));
  if (policy.cors === 'admin' && parts.adminCors) stages.push(parts.adminCors);
  // Before anything makes the request's context, which keeps its work and its body.
  if (policy.work) stages.push(requestWork());
  if (policy.body === 'json') stages.push(parts.parseBody);
  // After the body (a key may be in it), before the handler: docs/rest-api.md §1.3 check 3.
  const limit = parts.limiter.stage(policy);
  if (limit) stages.push(limit);
  return stages;
}

/** The methods an endpoint answers (GET answers HEAD too; SDK rows answer preflights). */
function allowedMethods(endpoint: Endpoint): string[] {
  const methods: string[] = [...endpoint.methods];
  if (methods.includes('GET')) methods.push('HEAD');
  if (endpoint.policy.cors === 'sdk') methods.push('OPTIONS');
  return methods;
}

const methodGate =
  (allow: string[], shown: string[]): Middleware =>
  (koa, next) => {
    if (!allow.includes(koa.method)) throw requestErrors.methodNotAllowed(koa.method, shown);
    return next();
  };

const isStatic = (path: string) => !/[:*{]/.test(path);
/** How the REST router compares paths: any case, with or without a trailing slash. */
const pathKey = (path: string) => (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path).toLowerCase();

/**
 * A path's matching order: literal segments before parameters, segment by segment, so a literal
 * sub-path (`/feature_flags/my_flags`) is tried before a parameter in its place (`/feature_flags/:id`)
 * whatever order the modules list their rows in. Paths that could match the same request differ
 * first where one has a literal and the other a parameter; `~` (after letters) marks the parameter.
 */
const matchingOrder = (path: string) =>
  path
    .split('/')
    .map((segment) => (/[:*{]/.test(segment) ? '~' : 'a'))
    .join('');

/** A row as the dispatcher registers it: the methods it answers (null: any), and its stages and handler. */
interface DispatchRow {
  methods: ReadonlySet<string> | null;
  stack: Middleware[];
}

/** What every exact row runs first: the empty params a parameterised row's handler would get. */
const noParams: Middleware = (koa, next) => {
  koa.params = {};
  return next();
};

/**
 * The rows of one path without parameters, composed once per method the first time it is asked
 * for: what the router would build for every request (match each layer, collect the matching
 * ones, compose them) is built once. Node's parser accepts a fixed list of methods, so the composed
 * chains are bounded. A method no row answers goes on (the 404 after the dispatcher).
 */
function exactPath(rows: DispatchRow[]): Middleware {
  const byMethod = new Map<string, Middleware | null>();
  const chainFor = (method: string): Middleware | null => {
    const matching = rows.filter((row) => row.methods === null || row.methods.has(method));
    return matching.length ? (compose([noParams, ...matching.flatMap((row) => row.stack)]) as Middleware) : null;
  };
  return (koa, next) => {
    let chain = byMethod.get(koa.method);
    if (chain === undefined) byMethod.set(koa.method, (chain = chainFor(koa.method)));
    return chain ? chain(koa, next) : next();
  };
}

/** A REST row's methods as the router registers them: GET answers HEAD too. */
const rowMethods = (method: Method | 'ALL'): ReadonlySet<string> | null =>
  method === 'ALL' ? null : new Set(method === 'GET' ? ['GET', 'HEAD'] : [method]);

/**
 * The one dispatcher: every row of the table (REST rows and endpoints), each behind the stages its
 * policy declares. Paths without parameters are found by one Map lookup and run a chain composed
 * once (`exactPath`); the others go through the router, literal segments first (`matchingOrder`).
 * Nothing else in the app matches paths (test/rest/route-table.test.ts).
 */
export function dispatch(rest: RestRow[], endpoints: Endpoint[], app: AppParts, parts: PipelineParts): Middleware {
  const exact = new Map<string, DispatchRow[]>();
  const patterns: Array<DispatchRow & { path: string }> = [];
  const add = (path: string, methods: ReadonlySet<string> | null, stack: Middleware[]) => {
    if (!isStatic(path)) return void patterns.push({ path, methods, stack });
    const key = pathKey(path);
    exact.set(key, [...(exact.get(key) ?? []), { methods, stack }]);
  };

  for (const endpoint of endpoints) {
    const allow = allowedMethods(endpoint);
    const shown = endpoint.methods.includes('GET') ? allow.filter((method) => method !== 'OPTIONS') : allow;
    const stages = [labelled(endpoint.label ?? endpoint.path), ...policyStages(endpoint.policy, parts, endpoint.methods)];
    add(endpoint.path, null, [...stages, methodGate(allow, shown), endpoint.create(app)]);
  }
  for (const row of rest) add(row.path, rowMethods(row.method), [labelled(row.path), ...policyStages(row.policy, parts, []), row.handle]);

  const byPattern = new Router();
  // A stable sort: rows of one path keep their order (a path's 405 row comes after its own rows).
  for (const { path, methods, stack } of patterns.sort((a, b) =>
    matchingOrder(a.path) < matchingOrder(b.path) ? -1 : matchingOrder(a.path) > matchingOrder(b.path) ? 1 : 0,
  )) {
    // The router adds HEAD to GET itself.
    if (methods === null) byPattern.all(path, ...stack);
    else
      byPattern.register(
        path,
        [...methods].filter((method) => method !== 'HEAD'),
        stack,
      );
  }
  const byPath = new Map<string, Middleware>([...exact].map(([key, rows]) => [key, exactPath(rows)]));
  const patternRoutes = byPattern.routes() as Middleware;
  return (koa, next) => (byPath.get(pathKey(koa.path)) ?? patternRoutes)(koa, next);
}
