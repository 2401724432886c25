import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppCaches } from './app-caches';
import type { Clock } from './clock';
import { extractCredential, type Credential } from './auth/credentials';
import type { Caller, ProjectStanding } from './auth/access';
import { RequestWork } from './http/request-work';
import { createLoaders, type Loaders } from './loaders';
import type { DefinitionsCache } from './modules/flag-evaluation/definitions-cache';

/** Charges one recomputation of results to the caller's key; throws the 429 when its budget is spent. */
export type RefreshBudget = (caller: Caller) => Promise<void>;

/** What lives as long as the app: the root EntityManager requests fork, its clock and its caches. */
export interface AppServices {
  em: EntityManager;
  clock: Clock;
  caches: AppCaches;
  definitions: DefinitionsCache;
  /** The per-key refresh budget (src/http/rate-limit.ts); absent: unlimited (the CLI). */
  refreshBudget?: RefreshBudget;
}

/** What both transports know about the HTTP request. */
export interface RequestInfo {
  method: string;
  /** Absolute URL as the client sent it (scheme and host from the request). */
  url: URL;
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, unknown>;
  body: unknown;
}

export interface AppContext {
  /** The request's own EntityManager, forked on first use (the SDK hot path never needs one). */
  readonly em: EntityManager;
  /**
   * For raw reads that need no unit of work and no identity map (src/db/prepared.ts): the SDK paths'
   * token and person lookups, every admin request's access check, a flag by id or key. A request's is
   * the app's root EntityManager, never forked (inside a transaction it resolves to the transaction's),
   * so a request that only runs these never forks; a CLI command's or job's is its transaction's.
   */
  readonly reads: EntityManager;
  request: RequestInfo;
  credential: Credential | null;
  /** The request's DataLoaders, made on first use. */
  readonly loaders: Loaders;
  /** The SDK definitions, cached per project and change. */
  definitions: DefinitionsCache;
  /** The app's time for what expires (src/clock.ts). */
  readonly clock: Clock;
  /** The app's remembered lookups: credentials, tokens (src/app-caches.ts). */
  readonly caches: AppCaches;
  /** Who is calling, looked up once per request by src/auth/access.ts (null until then). */
  caller: Promise<Caller> | null;
  /** The caller's standing in each project asked about, memoised per request by src/auth/access.ts. */
  projects: Map<string, Promise<ProjectStanding>>;
  /** The request's computing work: one task at a time, stopped when the request ends (src/http/request-work.ts). */
  work: RequestWork;
  refreshBudget: RefreshBudget;
}

/** The request as Koa has it: the URL is built only when something asks for it (pagination links). */
export interface RequestSource extends Omit<RequestInfo, 'url'> {
  url(): URL;
  /** The HTTP request's work (src/http/request-work.ts); a CLI command's never stops. */
  work?: RequestWork;
}

/**
 * The only place that forks the EntityManager and makes loaders, for requests and CLI commands
 * alike. It never throws on a missing or bad credential: authorization raises that, so both
 * transports answer the same 401.
 */
export function createContext(
  services: AppServices,
  source: RequestSource,
  /** A CLI command's: the caller it acts as, and the EntityManager of its transaction, used as is. */
  operator: { caller: Caller; em: EntityManager } | null = null,
): AppContext {
  let em: EntityManager | undefined = operator?.em;
  let loaders: Loaders | undefined;
  let url: URL | undefined;
  const request: RequestInfo = {
    method: source.method,
    headers: source.headers,
    query: source.query,
    body: source.body,
    get url() {
      return (url ??= source.url());
    },
  };
  const ctx: AppContext = {
    get em() {
      return (em ??= services.em.fork());
    },
    get loaders() {
      return (loaders ??= createLoaders(ctx));
    },
    reads: operator?.em ?? services.em,
    request,
    definitions: services.definitions,
    clock: services.clock,
    caches: services.caches,
    credential: extractCredential(request),
    // An operator (the CLI) is the caller already; a request's caller comes from its credential.
    caller: operator ? Promise.resolve(operator.caller) : null,
    projects: new Map(),
    work: source.work ?? new RequestWork(),
    refreshBudget: services.refreshBudget ?? (async () => undefined),
  };
  return ctx;
}
