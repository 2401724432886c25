import type { EntityManager } from '@mikro-orm/postgresql';
import { extractCredential, type Credential } from './auth/credentials';
import type { Caller, ProjectAccess } from './auth/access';
import { createLoaders, type Loaders } from './loaders';

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
  em: EntityManager;
  request: RequestInfo;
  credential: Credential | null;
  loaders: Loaders;
  /** Memoised per request by src/auth/access.ts. */
  caller?: Promise<Caller>;
  projects: Map<string, Promise<ProjectAccess>>;
}

/**
 * The only place that forks the EntityManager and makes loaders. It never throws on a missing
 * or bad credential: authorization raises that, so both transports answer the same 401.
 */
export function createContext(rootEm: EntityManager, request: RequestInfo): AppContext {
  const em = rootEm.fork();
  const ctx: AppContext = {
    em,
    request,
    credential: extractCredential(request),
    loaders: undefined as unknown as Loaders,
    projects: new Map(),
  };
  ctx.loaders = createLoaders(em, () => ctx);
  return ctx;
}
