import Router from '@koa/router';
import type { Middleware } from 'koa';
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
  const limit = parts.limiter.stage(policy.limit);
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
 * The one dispatcher: every row of the table (REST rows and endpoints), each behind the stages its
 * policy declares. Paths without parameters are found by one Map lookup; the others by the router,
 * in the table's order. Nothing else in the app matches paths (test/http/route-table.test.ts).
 */
export function dispatch(rest: RestRow[], endpoints: Endpoint[], app: AppParts, parts: PipelineParts): Middleware {
  const exact = new Map<string, Router>();
  const patterns = new Router();
  const routerFor = (path: string): Router => {
    if (!isStatic(path)) return patterns;
    const key = pathKey(path);
    let router = exact.get(key);
    if (!router) exact.set(key, (router = new Router()));
    return router;
  };

  for (const endpoint of endpoints) {
    const allow = allowedMethods(endpoint);
    const shown = endpoint.methods.includes('GET') ? allow.filter((method) => method !== 'OPTIONS') : allow;
    routerFor(endpoint.path).all(
      endpoint.path,
      labelled(endpoint.label ?? endpoint.path),
      ...policyStages(endpoint.policy, parts, endpoint.methods),
      methodGate(allow, shown),
      endpoint.create(app),
    );
  }
  for (const row of rest) {
    const stages = [labelled(row.path), ...policyStages(row.policy, parts, [])];
    if (row.method === 'ALL') routerFor(row.path).all(row.path, ...stages, row.handle);
    else routerFor(row.path).register(row.path, [row.method as Method], [...stages, row.handle]);
  }

  const byPath = new Map<string, Middleware>([...exact].map(([key, router]) => [key, router.routes() as Middleware]));
  const byPattern = patterns.routes() as Middleware;
  return (koa, next) => (byPath.get(pathKey(koa.path)) ?? byPattern)(koa, next);
}
