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

/**
 * The one dispatcher: every row of the table (REST rows and endpoints), each behind the stages its
 * policy declares. Paths without parameters are found by one Map lookup; the others by the router,
 * literal segments first (`matchingOrder`). Nothing else in the app matches paths
 * (test/rest/route-table.test.ts).
 */
export function dispatch(rest: RestRow[], endpoints: Endpoint[], app: AppParts, parts: PipelineParts): Middleware {
  const exact = new Map<string, Router>();
  const patterns: Array<{ path: string; register: (router: Router) => void }> = [];
  const add = (path: string, register: (router: Router) => void) => {
    if (!isStatic(path)) return void patterns.push({ path, register });
    const key = pathKey(path);
    let router = exact.get(key);
    if (!router) exact.set(key, (router = new Router()));
    register(router);
  };

  for (const endpoint of endpoints) {
    const allow = allowedMethods(endpoint);
    const shown = endpoint.methods.includes('GET') ? allow.filter((method) => method !== 'OPTIONS') : allow;
    const stages = [labelled(endpoint.label ?? endpoint.path), ...policyStages(endpoint.policy, parts, endpoint.methods)];
    add(endpoint.path, (router) => router.all(endpoint.path, ...stages, methodGate(allow, shown), endpoint.create(app)));
  }
  for (const row of rest) {
    const stages = [labelled(row.path), ...policyStages(row.policy, parts, [])];
    add(row.path, (router) =>
      row.method === 'ALL'
        ? router.all(row.path, ...stages, row.handle)
        : router.register(row.path, [row.method as Method], [...stages, row.handle]),
    );
  }

  const byPattern = new Router();
  // A stable sort: rows of one path keep their order (a path's 405 row comes after its own rows).
  for (const { register } of patterns.sort((a, b) =>
    matchingOrder(a.path) < matchingOrder(b.path) ? -1 : matchingOrder(a.path) > matchingOrder(b.path) ? 1 : 0,
  ))
    register(byPattern);
  const byPath = new Map<string, Middleware>([...exact].map(([key, router]) => [key, router.routes() as Middleware]));
  const patternRoutes = byPattern.routes() as Middleware;
  return (koa, next) => (byPath.get(pathKey(koa.path)) ?? patternRoutes)(koa, next);
}
