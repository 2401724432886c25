import { authErrors, requestErrors } from '../errors';
import type { AppContext } from '../context';
import { PersonalApiKeyStore } from '../modules/personal-api-key/personal-api-key.store';
import { Project } from '../modules/project/project.entity';
import { ProjectStore, type ProjectForUser } from '../modules/project/project.store';
import { DEFAULT_FLAG_ACCESS_LEVEL } from '../modules/role/role.entity';
import type { EntityManager } from '@mikro-orm/postgresql';
import { User } from '../modules/user/user.entity';
import { hashPersonalApiKey } from './personal-api-key';
import { scopesAllow, type Scope } from './scopes';
import { standingKey } from '../app-caches';

/** The calling key's limits (the columns of `personal_api_key` the checks read). */
export interface CallerKey {
  id: number;
  scopes: string[] | null;
  scopedTeams: number[] | null;
  scopedOrganizations: string[] | null;
  lastUsedAt: Date | null;
}

/** Who is calling: plain objects, shared by requests for a moment (see CREDENTIAL_TTL_MS in src/app-caches.ts); never handed to an EntityManager. */
export interface Caller {
  user: User;
  key: CallerKey;
}

export interface ProjectAccess {
  caller: Caller;
  /** A plain object (src/modules/project/project.rows.ts): writes store `projectReference`. */
  project: Project;
  /** The caller's membership level in the project's organization. */
  level: number;
  /** The organization's flag access level (its `feature flags` resource-access record, else 37). */
  flagAccessLevel: number;
  /** The highest `feature_flags_access_level` among the caller's roles in the organization; null without roles. */
  roleLevel: number | null;
}

/** What a request may learn of a project before any scope is asked: checks 1–4 passed; `level` null without membership. */
export type ProjectStanding = Omit<ProjectAccess, 'level'> & { level: number | null };

const LAST_USED_RESOLUTION_MS = 60 * 60 * 1000;
const MAX_INT32 = 2_147_483_647;

/**
 * Check 1 of docs/rest-api.md §1.3: who is calling. One SQL statement (key joined with user), at most
 * once a second per key; `fresh` asks the database whatever was remembered (memoised per request,
 * so it counts where it is the request's first call).
 */
export function authenticate(ctx: AppContext, fresh = false): Promise<Caller> {
  ctx.caller ??= (async () => {
    const credential = ctx.credential;
    if (!credential) throw authErrors.notAuthenticated();
    const secureValue = hashPersonalApiKey(credential.value);
    const caller = (fresh ? undefined : ctx.caches.callers.get(secureValue)) ?? (await lookUpCaller(ctx, secureValue));
    if (!caller) throw authErrors.invalidPersonalKey(credential.source);
    const now = new Date(ctx.clock.now());
    if (!caller.key.lastUsedAt || now.getTime() - caller.key.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
      caller.key.lastUsedAt = now;
      await PersonalApiKeyStore.touchLastUsed(ctx.em, caller.key.id, now);
    }
    return caller;
  })();
  return ctx.caller;
}

async function lookUpCaller(ctx: AppContext, secureValue: string): Promise<Caller | null> {
  const caller = await PersonalApiKeyStore.callerByHash(ctx.reads, secureValue);
  if (caller) ctx.caches.callers.set(secureValue, caller);
  return caller;
}

/** The caller as a reference a write can store (`created_by`, `last_modified_by`). */
export const callerReference = (em: EntityManager, caller: Caller): User => em.getReference(User, caller.user.id);

/** The checked project as a reference a write can store (the access check's project is a plain object). */
export const projectReference = (em: EntityManager, access: ProjectAccess): Project => em.getReference(Project, access.project.id);

/** A positive 32-bit integer path id, or null (which callers answer with 404). */
export function parseId(value: unknown): number | null {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !/^\d{1,10}$/.test(text)) return null;
  const id = Number(text);
  return id >= 1 && id <= MAX_INT32 ? id : null;
}

/**
 * Checks 1–6 of docs/rest-api.md §1.3 for a project-scoped operation: authentication (401),
 * the project (404), the key's project/organization limits (403), the scope (403) and
 * membership (403). The project and the caller's membership come in one SQL statement, made once
 * per request and project whatever scopes the request's fields need; a read scope may take it from
 * the last second's lookups (AppCaches.standings), a write scope (or `fresh`) always asks the database.
 */
export async function accessProject(
  ctx: AppContext,
  projectRef: unknown,
  scope: Scope,
  fresh = scope.endsWith(':write'),
): Promise<ProjectAccess> {
  const standing = await projectStanding(ctx, projectRef, fresh);
  if (!scopesAllow(standing.caller.key.scopes, scope)) throw authErrors.missingScope(scope);
  if (standing.level === null) throw authErrors.noProjectAccess();
  return { ...standing, level: standing.level };
}

/** This process changed who may do what in an organization: every remembered standing is looked up afresh. */
export function forgetStandings(ctx: AppContext): void {
  ctx.caches.standings.forget();
}

/** The request's memo of standings: a prefix no project reference can forge keeps fresh and remembered ones apart. */
const memoKey = (ref: unknown, fresh: boolean) => `${fresh ? 'fresh' : 'read'}:${String(ref)}`;

/** Checks 1–4, memoised per request and project reference; an answer looked up afresh serves reads too. */
function projectStanding(ctx: AppContext, projectRef: unknown, fresh: boolean): Promise<ProjectStanding> {
  let standing = ctx.projects.get(memoKey(projectRef, true)) ?? (fresh ? undefined : ctx.projects.get(memoKey(projectRef, false)));
  if (!standing) {
    const resolved = resolveProjectStanding(ctx, projectRef, fresh);
    ctx.projects.set(memoKey(projectRef, fresh), resolved);
    // `@current` (or `007`) and the id it names are one project: later lookups by id reuse the answer.
    resolved.then(
      ({ project }) => {
        const byId = memoKey(project.id, fresh);
        if (!ctx.projects.has(byId)) ctx.projects.set(byId, resolved);
      },
      () => undefined,
    );
    standing = resolved;
  }
  return standing;
}

async function resolveProjectStanding(ctx: AppContext, projectRef: unknown, fresh: boolean): Promise<ProjectStanding> {
  const caller = await authenticate(ctx);
  const projectId = projectRef === '@current' ? caller.user.currentProjectId : parseId(projectRef);
  if (!projectId) throw requestErrors.projectNotFound();
  const found = await projectForUser(ctx, projectId, caller.user.id, fresh);
  if (!found) throw requestErrors.projectNotFound();
  const { project, membershipLevel: level, flagAccessLevel, roleLevel } = found;
  const { key } = caller;
  if (key.scopedTeams?.length && !key.scopedTeams.includes(project.id)) throw authErrors.keyProjectScope(project.id);
  const organizationId = project.organization.id;
  if (key.scopedOrganizations?.length && !key.scopedOrganizations.includes(organizationId)) {
    throw authErrors.keyOrganizationScope(organizationId);
  }
  return { caller, project, level, flagAccessLevel: flagAccessLevel ?? DEFAULT_FLAG_ACCESS_LEVEL, roleLevel };
}

/**
 * The project and the user's standing there; remembered only for a member (a lookup that succeeds).
 * A fresh lookup that finds no membership forgets the user's standings in every project (a membership
 * is the organization's), so reads stop with the write, also those of a lookup still in flight.
 */
async function projectForUser(ctx: AppContext, projectId: number, userId: number, fresh: boolean): Promise<ProjectForUser | null> {
  const { standings } = ctx.caches;
  const cacheKey = standingKey(userId, projectId);
  const remembered = fresh ? undefined : standings.get(cacheKey);
  if (remembered) return remembered;
  const generation = standings.current;
  const found = await ProjectStore.forUser(ctx.reads, projectId, userId);
  if (found?.membershipLevel != null) standings.remember(cacheKey, freeze(found), generation);
  else if (fresh) standings.forgetUser(userId);
  return found;
}

/** Shared by the requests of the next second: nothing may change it. */
function freeze(found: ProjectForUser): ProjectForUser {
  Object.freeze(found.project.organization);
  Object.freeze(found.project);
  return Object.freeze(found);
}
