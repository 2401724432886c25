import { authErrors, requestErrors } from '../errors';
import type { AppContext } from '../context';
import { LRUCache } from 'lru-cache';
import { nullableTimestampOf } from '../db/rows';
import { userFromRow } from '../modules/user/user.rows';
import { Project } from '../modules/project/project.entity';
import { FEATURE_FLAGS_RESOURCE } from '../modules/role/organization-resource-access.entity';
import { DEFAULT_FLAG_ACCESS_LEVEL } from '../modules/role/role.entity';
import type { EntityManager } from '@mikro-orm/postgresql';
import { User } from '../modules/user/user.entity';
import { hashPersonalApiKey } from './personal-api-key';
import { scopesAllow, type Scope } from './scopes';

/** The calling key's limits (the columns of `personal_api_key` the checks read). */
export interface CallerKey {
  id: number;
  scopes: string[] | null;
  scopedTeams: number[] | null;
  scopedOrganizations: string[] | null;
  lastUsedAt: Date | null;
}

/** Who is calling: plain objects, shared by requests for a moment (see CREDENTIAL_TTL_MS); never handed to an EntityManager. */
export interface Caller {
  user: User;
  key: CallerKey;
}

export interface ProjectAccess {
  caller: Caller;
  project: Project;
  /** The caller's membership level in the project's organization. */
  level: number;
  /** The organization's flag access level (its `feature flags` resource-access record, else 37). */
  flagAccessLevel: number;
  /** The highest `feature_flags_access_level` among the caller's roles in the organization; null without roles. */
  roleLevel: number | null;
}

const LAST_USED_RESOLUTION_MS = 60 * 60 * 1000;
const MAX_INT32 = 2_147_483_647;

/**
 * SPEC-GAP: a key's lookup is remembered for one second per process, so a polling SDK or a busy
 * script costs no statement per request; a revoked key or a deactivated user is refused within a second.
 * Only keys that authenticate are remembered, and at most 10,000 of them.
 */
export const CREDENTIAL_TTL_MS = 1000;
const callers = new LRUCache<string, Caller>({ max: 10_000, ttl: CREDENTIAL_TTL_MS });

/** Check 1 of docs/rest-api.md §1.3: who is calling. One SQL statement (key joined with user), at most once a second per key. */
export function authenticate(ctx: AppContext): Promise<Caller> {
  ctx.caller ??= (async () => {
    const credential = ctx.credential;
    if (!credential) throw authErrors.notAuthenticated();
    const secureValue = hashPersonalApiKey(credential.value);
    const caller = callers.get(secureValue) ?? (await lookUpCaller(ctx, secureValue));
    if (!caller) throw authErrors.invalidPersonalKey(credential.source);
    const now = new Date();
    if (!caller.key.lastUsedAt || now.getTime() - caller.key.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
      caller.key.lastUsedAt = now;
      await ctx.em.getConnection().execute('update personal_api_key set last_used_at = ? where id = ?', [now, caller.key.id]);
    }
    return caller;
  })();
  return ctx.caller;
}

async function lookUpCaller(ctx: AppContext, secureValue: string): Promise<Caller | null> {
  const rows: Array<Record<string, unknown>> = await ctx.em.getConnection().execute(
    `select k.id as key_id, k.scopes as key_scopes, k.scoped_teams as key_scoped_teams,
            k.scoped_organizations as key_scoped_organizations, k.last_used_at as key_last_used_at, u.*
       from personal_api_key k join app_user u on u.id = k.user_id
      where k.secure_value = ?`,
    [secureValue],
  );
  if (rows.length === 0 || !rows[0].is_active) return null;
  const row = rows[0];
  const caller: Caller = {
    user: userFromRow(row),
    key: {
      id: Number(row.key_id),
      scopes: row.key_scopes as string[] | null,
      scopedTeams: (row.key_scoped_teams as number[] | null)?.map(Number) ?? null,
      scopedOrganizations: row.key_scoped_organizations as string[] | null,
      lastUsedAt: nullableTimestampOf(row.key_last_used_at),
    },
  };
  callers.set(secureValue, caller);
  return caller;
}

/** The caller as a reference a write can store (`created_by`, `last_modified_by`). */
export const callerReference = (em: EntityManager, caller: Caller): User => em.getReference(User, caller.user.id);

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
 * membership (403). The project and the caller's membership come in one SQL statement.
 */
export function accessProject(ctx: AppContext, projectRef: unknown, scope: Scope): Promise<ProjectAccess> {
  const memoKey = `${String(projectRef)}|${scope}`;
  let access = ctx.projects.get(memoKey);
  if (!access) {
    const resolved = resolveProjectAccess(ctx, projectRef, scope);
    ctx.projects.set(memoKey, resolved);
    // `@current` (or `007`) and the id it names are one project: later lookups by id reuse the answer.
    resolved.then(
      ({ project }) => {
        if (!ctx.projects.has(`${project.id}|${scope}`)) ctx.projects.set(`${project.id}|${scope}`, resolved);
      },
      () => undefined,
    );
    access = resolved;
  }
  return access;
}

async function resolveProjectAccess(ctx: AppContext, projectRef: unknown, scope: Scope): Promise<ProjectAccess> {
  const caller = await authenticate(ctx);
  const projectId = projectRef === '@current' ? caller.user.currentProjectId : parseId(projectRef);
  if (!projectId) throw requestErrors.projectNotFound();
  const rows: Array<Record<string, unknown>> = await ctx.em.execute(
    `select p.*, m.level as membership_level,
            (select ra.access_level from organization_resource_access ra
              where ra.organization_id = p.organization_id and ra.resource = ?) as flag_access_level,
            (select max(r.feature_flags_access_level) from role r join role_membership rm on rm.role_id = r.id
              where r.organization_id = p.organization_id and rm.user_id = ?) as role_level
       from project p
       left join organization_membership m on m.organization_id = p.organization_id and m.user_id = ?
      where p.id = ?`,
    [FEATURE_FLAGS_RESOURCE, caller.user.id, caller.user.id, projectId],
  );
  if (rows.length === 0) throw requestErrors.projectNotFound();
  const { membership_level: level, flag_access_level: flagAccessLevel, role_level: roleLevel, ...projectRow } = rows[0];
  const project = ctx.em.map(Project, projectRow);
  const { key } = caller;
  if (key.scopedTeams?.length && !key.scopedTeams.includes(project.id)) throw authErrors.keyProjectScope(project.id);
  const organizationId = project.organization.id;
  if (key.scopedOrganizations?.length && !key.scopedOrganizations.includes(organizationId)) {
    throw authErrors.keyOrganizationScope(organizationId);
  }
  if (!scopesAllow(key.scopes, scope)) throw authErrors.missingScope(scope);
  if (level === null || level === undefined) throw authErrors.noProjectAccess();
  return {
    caller,
    project,
    level: Number(level),
    flagAccessLevel: flagAccessLevel === null || flagAccessLevel === undefined ? DEFAULT_FLAG_ACCESS_LEVEL : Number(flagAccessLevel),
    roleLevel: roleLevel === null || roleLevel === undefined ? null : Number(roleLevel),
  };
}
