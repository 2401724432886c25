import { NoUnusedFragmentsRule, specifiedRules, validate, type DocumentNode, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { Context, Middleware } from 'koa';
import type { RoutePolicy } from '../http/route-policy';
import { groupBy } from '../group-by';
import type { AppContext } from '../context';
import { requestErrors } from '../errors';
import { envelope } from './envelope';
import { restInput } from './input';
import { localEvaluationScope, queryParams, type RestRequest, type Route } from './route';
import { clampPage } from '../pagination';

const RULES = specifiedRules.filter((rule) => rule !== NoUnusedFragmentsRule);

/** The GraphQL documents a row runs. */
const documentsOf = (route: Route): DocumentNode[] =>
  route.kind === 'query' ? [route.operation.document] : route.kind === 'mutation' && route.shape === 'one' ? [route.render.document] : [];

/** Why each row's operations would not run against the schema; empty when all do (test/rest/routes.test.ts). */
export function operationProblems(schema: GraphQLSchema, routes: Route[]): string[] {
  return routes.flatMap((route) =>
    documentsOf(route).flatMap((document) => {
      const errors = validate(schema, document, RULES);
      if (errors.length) return [`${route.method} ${route.path}: ${errors.map((e) => e.message).join('; ')}`];
      const compiled = compileQuery(schema, document);
      return isCompiledQuery(compiled) ? [] : [`${route.method} ${route.path}: ${compiled.errors?.map((e) => e.message).join('; ')}`];
    }),
  );
}

type Runner = (variables: Record<string, unknown>, ctx: AppContext) => Promise<Record<string, unknown>>;

/**
 * A row's GraphQL operation, compiled (graphql-jit) on its first request into a function that runs
 * the same resolvers as graphql-js would, without re-walking the document for every row of every
 * request. Compiling every row at start cost ~0.4 s; a test validates and compiles them all instead.
 * The first error is rethrown for the REST error middleware.
 */
function compiledOperation(schema: GraphQLSchema, document: DocumentNode): Runner {
  let compiled: CompiledQuery | null = null;
  return async (variables, ctx) => {
    if (!compiled) {
      const result = compileQuery(schema, document);
      if (!isCompiledQuery(result)) throw new Error(`REST operation does not compile: ${result.errors?.map((e) => e.message).join('; ')}`);
      compiled = result;
    }
    const result = await compiled.query(undefined, ctx, variables);
    if (result.errors?.length) throw result.errors[0].originalError ?? result.errors[0];
    return result.data as Record<string, unknown>;
  };
}

/** One REST row as the dispatcher serves it (src/http/dispatch.ts): its path, method, policy and handler. */
export interface RestRow {
  path: string;
  /** `ALL`: the path's 405 for the methods it does not serve. */
  method: Route['method'] | 'ALL';
  policy: RoutePolicy;
  handle: Middleware;
}

/** What a REST row pays for (src/http/route-policy.ts): its own `policy` over what its method and auth imply. */
export function restPolicy(route: Route): RoutePolicy {
  return {
    body: BODY_METHODS.has(route.method) ? 'json' : 'none',
    cors: 'admin',
    limit: route.auth === localEvaluationScope ? 'local_evaluation' : 'key',
    work: route.kind === 'query' || route.kind === 'mutation',
    ...route.policy,
  };
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The route table's REST rows: every row at its path (with and without the trailing slash), and
 * for a known path with an unsupported method a 405 after the path's own auth checks.
 */
export function restRows(schema: GraphQLSchema, routes: Route[], makeContext: (koa: Context) => AppContext): RestRow[] {
  const unguarded = routes.find((route) => !route.auth);
  if (unguarded) throw new Error(`${unguarded.method} ${unguarded.path} states no auth requirement`);
  const allowed = groupBy(routes, (route) => route.path);
  const served = (path: string) =>
    allowed
      .get(path)!
      .filter((r) => r.kind !== 'refused' && r.kind !== 'not_allowed')
      .map((r) => r.method);
  const lastRowOf = new Map(routes.map((route, index) => [route.path, index]));
  return routes.flatMap((route, index): RestRow[] => {
    const read = route.kind === 'query' ? compiledOperation(schema, route.operation.document) : null;
    const render = route.kind === 'mutation' && route.shape === 'one' ? compiledOperation(schema, route.render.document) : null;
    const handle: Middleware = async (koa) => {
      const ctx = makeContext(koa);
      if (route.kind === 'handler') return route.serve(ctx, koa);
      await route.auth.check(ctx, koa.params);
      if (route.kind === 'refused') throw requestErrors.hardDeleteRefused();
      if (route.kind === 'not_allowed') throw requestErrors.methodNotAllowed(koa.method, served(route.path));
      const request: RestRequest = {
        params: koa.params,
        query: koa.query,
        input: route.inputType ? restInput(schema, route.inputType, koa.request.body, koa.state.bodyIsForm === true) : {},
      };
      let data: Record<string, unknown>;
      if (route.kind === 'query') {
        data = await read!(route.operation.variables(request), ctx);
      } else {
        const written = await route.call(ctx, request);
        if (route.shape === 'empty') {
          koa.status = route.status;
          return;
        }
        const id = typeof written === 'string' || typeof written === 'number' ? written : (written as { id: number | string }).id;
        data = await render!(route.render.variables(request, { id }), ctx);
      }
      koa.status = route.status;
      if (route.shape === 'page') {
        const page = data.page as { count: number; results: unknown[] };
        const { limit, offset } = clampPage({
          limit: queryParams.pageInteger(koa.query.limit),
          offset: queryParams.pageInteger(koa.query.offset),
        });
        koa.body = envelope({ ...page, limit, offset }, ctx.request.url);
      } else {
        koa.body = route.kind === 'query' && route.present ? route.present(data.item, ctx.request.url) : data.item;
      }
    };
    const row: RestRow = { path: route.path, method: route.method, policy: restPolicy(route), handle };
    // A path's 405 comes right after its own rows, so `/feature_flags/my_flags` answers PATCH with 405
    // before the `/:id` rows further down could take `my_flags` for an id. A body may carry the key.
    if (lastRowOf.get(route.path) !== index) return [row];
    const first = allowed.get(route.path)![0];
    const notAllowed: RestRow = {
      path: route.path,
      method: 'ALL',
      policy: { ...restPolicy(first), body: 'json', work: false },
      handle: async (koa) => {
        await first.auth.check(makeContext(koa), koa.params);
        throw requestErrors.methodNotAllowed(koa.method, served(route.path));
      },
    };
    return [row, notAllowed];
  });
}
