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
 * What both transports know of the request; the URL is built on first use. A class, not an object
 * literal with a getter: a literal's getter is a new closure per request that V8 keeps in a new map
 * in old space, which held every request's objects through the young generation's collections
 * (a 304 for the SDK definitions spent a sixth of its time in the scavenger).
 */
class RequestDetails implements RequestInfo {
  readonly method: string;
  readonly headers: RequestInfo['headers'];
  readonly query: RequestInfo['query'];
  readonly body: unknown;
  private readonly source: RequestSource;
  private built: URL | undefined;

  constructor(source: RequestSource) {
    this.method = source.method;
    this.headers = source.headers;
    this.query = source.query;
    this.body = source.body;
    this.source = source;
  }

  get url(): URL {
    return (this.built ??= this.source.url());
  }
}

/** A request's or CLI command's context: the EntityManager is forked, and the loaders made, on first use. */
class Context implements AppContext {
  readonly reads: EntityManager;
  readonly request: RequestInfo;
  readonly definitions: DefinitionsCache;
  readonly clock: Clock;
  readonly caches: AppCaches;
  credential: Credential | null;
  caller: Promise<Caller> | null;
  projects = new Map<string, Promise<ProjectStanding>>();
  work: RequestWork;
  refreshBudget: RefreshBudget;
  // Not `#private`: Apollo copies a context's own properties onto a clone of it for each operation.
  private readonly services: AppServices;
  private forked: EntityManager | undefined;
  private made: Loaders | undefined;

  constructor(services: AppServices, source: RequestSource, operator: { caller: Caller; em: EntityManager } | null) {
    this.services = services;
    this.forked = operator?.em;
    this.reads = operator?.em ?? services.em;
    this.request = new RequestDetails(source);
    this.definitions = services.definitions;
    this.clock = services.clock;
    this.caches = services.caches;
    this.credential = extractCredential(this.request);
    // An operator (the CLI) is the caller already; a request's caller comes from its credential.
    this.caller = operator ? Promise.resolve(operator.caller) : null;
    this.work = source.work ?? new RequestWork();
    this.refreshBudget = services.refreshBudget ?? noRefreshBudget;
  }

  get em(): EntityManager {
    return (this.forked ??= this.services.em.fork());
  }

  get loaders(): Loaders {
    return (this.made ??= createLoaders(this));
  }
}

const noRefreshBudget: RefreshBudget = async () => undefined;

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
  return new Context(services, source, operator);
}
