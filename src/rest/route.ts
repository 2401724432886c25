import type { DocumentNode } from 'graphql';
import type { Context } from 'koa';
import { accessProject, parseId, type ProjectAccess } from '../auth/access';
import { accessLocalEvaluation, type LocalEvaluationAccess } from '../auth/local-evaluation-access';
import { accessOrganization, type OrganizationAccess } from '../auth/organization-access';
import type { Scope } from '../auth/scopes';
import type { AppContext } from '../context';
import type { RoutePolicy } from '../http/route-policy';
import type { RouteDocs, SecurityRequirement } from '../openapi/types';

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface RestRequest {
  params: Record<string, string>;
  query: Record<string, unknown>;
  /** The body renamed to the row's GraphQL input type (see input.ts), `{}` without one; a non-object body as sent. */
  input: unknown;
}

/**
 * Who may call a row; checked before anything else the row does (docs/rest-api.md §1.3). `T` is
 * what a successful check answers, which a `handler` row receives.
 */
export interface RouteAuth<T = unknown> {
  describe: string;
  check(ctx: AppContext, params: Record<string, string>): Promise<T>;
  /** The OpenAPI security requirements (src/openapi/document.ts); absent: any personal API key. `[]`: public. */
  security?: SecurityRequirement[];
}

export const projectScope = (scope: Scope): RouteAuth<ProjectAccess> => ({
  describe: `personal API key with ${scope} on the project`,
  check: (ctx, params) => accessProject(ctx, params.project_id, scope),
  security: [{ PersonalApiKey: [scope] }],
});

export const organizationScope = (scope: Scope): RouteAuth<OrganizationAccess> => ({
  describe: `personal API key with ${scope} in the organization`,
  check: (ctx, params) => accessOrganization(ctx, params.organization_id, scope),
  security: [{ PersonalApiKey: [scope] }],
});

/** The local-evaluation paths: a personal key with `feature_flag:read`, or the project's secret token. */
export const localEvaluationScope: RouteAuth<LocalEvaluationAccess> = {
  describe: 'personal API key with feature_flag:read on the project, or its secret_api_token',
  check: (ctx, params) => accessLocalEvaluation(ctx, params.project_id),
  security: [{ PersonalApiKey: ['feature_flag:read'] }, { ProjectSecretToken: [] }],
};

/** A GraphQL operation run with variables taken from the request. */
export interface Operation {
  document: DocumentNode;
  /** `written` is what a write row's resolver returned. */
  variables(request: RestRequest, written?: { id: number | string }): Record<string, unknown>;
  /** OpenAPI additions for every row running this operation, e.g. the schema of what a `present` reshapes (the row's own `docs` win). */
  docs?: RouteDocs;
}

export interface RouteBase {
  method: Method;
  /** The documented path; it answers with and without a trailing slash. */
  path: string;
  auth: RouteAuth;
  /** What the OpenAPI document cannot read from the row itself, e.g. a `handler` row's response (src/openapi/types.ts). */
  docs?: RouteDocs;
  /** Overrides what the row pays for by default (src/rest/adapter.ts restPolicy). */
  policy?: Partial<RoutePolicy>;
}

export type Route = RouteBase &
  (
    | {
        kind: 'query';
        /** The GraphQL input type a body is read as, for a POST that only computes (blast radius). */
        inputType?: string;
        operation: Operation;
        status: number;
        shape: 'page' | 'one';
        /** Reshapes a `one` answer GraphQL cannot alias into the wire shape (an object keyed by data, a page with links from `url`). */
        present?(item: unknown, url: URL): unknown;
      }
    | ({
        kind: 'mutation';
        /** The GraphQL input type the body is read as (none: the body is ignored). */
        inputType?: string;
        /** The resolver the row calls (writes need the API's lenient field parsing, not GraphQL coercion). */
        call(ctx: AppContext, request: RestRequest): Promise<unknown>;
        status: number;
      } & (
        | {
            /** How the written object is shown: a read operation given the resolver's answer as `{id}`. */
            render: Operation;
            shape: 'one';
          }
        | { shape: 'empty' }
      ))
    /** A hot path answered by a plain Koa handler (the SDK definitions); made by `handlerRoute`, which checks `auth` first. */
    | { kind: 'handler'; serve(ctx: AppContext, koa: Context): Promise<void> }
    | { kind: 'refused' }
    /** A method the path does not serve but whose scope docs/rest-api.md §2.4 names: 405 after this row's auth. */
    | { kind: 'not_allowed' }
  );

/** A `handler` row whose handler receives what its `auth` check answered, typed. */
export function handlerRoute<T>(
  row: Omit<RouteBase, 'auth'> & { auth: RouteAuth<T>; handle(ctx: AppContext, koa: Context, access: T): Promise<void> },
): Route {
  const { handle, ...rest } = row;
  return { ...rest, kind: 'handler', serve: async (ctx, koa) => handle(ctx, koa, await row.auth.check(ctx, koa.params)) };
}

/** `limit`/`offset` of a list row's query string, for its operation's variables. */
export const pageParams = ({ query }: RestRequest) => ({
  limit: queryParams.pageInteger(query.limit),
  offset: queryParams.pageInteger(query.offset),
});

/** A path id for a GraphQL Int variable: malformed ids become 0, which no object has (404 after access checks). */
export const pathId = (value: string | undefined) => parseId(value) ?? 0;

const MAX_INT32 = 2_147_483_647;

/**
 * Lenient query parameters: missing, malformed or unknown values are ignored (docs/rest-api.md §3.5).
 * Text holding a NUL is unrecognised too: PostgreSQL cannot compare it with anything.
 */
export const queryParams = {
  text(value: unknown): string | null {
    const text = Array.isArray(value) ? value[0] : value;
    return typeof text === 'string' && text.trim() && !text.includes('\u0000') ? text.trim() : null;
  },
  integer(value: unknown): number | null {
    const text = queryParams.text(value);
    if (text === null || !/^[-+]?\d{1,9}$/.test(text)) return null;
    return Number(text);
  },
  /** `limit`/`offset`: any whole number, held within the 32-bit range of GraphQL's Int (docs/README.md decision 5 clamps it further). */
  pageInteger(value: unknown): number | null {
    const text = queryParams.text(value);
    if (text === null || !/^[-+]?\d+$/.test(text)) return null;
    return Math.max(-MAX_INT32, Math.min(Number(text), MAX_INT32));
  },
  boolean(value: unknown): boolean | null {
    const text = queryParams.text(value)?.toLowerCase();
    return text === 'true' ? true : text === 'false' ? false : null;
  },
  choice<T extends string>(value: unknown, choices: readonly T[]): T | null {
    const text = queryParams.text(value);
    return text !== null && (choices as readonly string[]).includes(text) ? (text as T) : null;
  },
  jsonStringList(value: unknown): string[] | null {
    const text = queryParams.text(value);
    if (text === null) return null;
    try {
      const parsed: unknown = JSON.parse(text);
      return Array.isArray(parsed) && parsed.every((item) => typeof item === 'string' && !item.includes('\u0000')) ? parsed : null;
    } catch {
      return null;
    }
  },
};
