import { authErrors, requestErrors } from '../errors';
import type { AppContext } from '../context';
import { PersonalApiKey } from '../modules/personal-api-key/personal-api-key.entity';
import { Project } from '../modules/project/project.entity';
import { FEATURE_FLAGS_RESOURCE } from '../modules/role/organization-resource-access.entity';
import { DEFAULT_FLAG_ACCESS_LEVEL } from '../modules/role/role.entity';
import type { User } from '../modules/user/user.entity';
import { hashPersonalApiKey } from './personal-api-key';
import { scopesAllow, type Scope } from './scopes';

export interface Caller {
  user: User;
  key: PersonalApiKey;
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

/** Check 1 of rest-flags.md §1.3: who is calling. One SQL statement (key joined with user). */
export function authenticate(ctx: AppContext): Promise<Caller> {
  ctx.caller ??= (async () => {
    const credential = ctx.credential;
    if (!credential) throw authErrors.notAuthenticated();
    const key = await ctx.em.findOne(
      PersonalApiKey,
      { secureValue: hashPersonalApiKey(credential.value) },
      { populate: ['user'] },
    );
    if (!key || !key.user.isActive) throw authErrors.invalidPersonalKey(credential.source);
    const now = new Date();
    if (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
      key.lastUsedAt = now;
      await ctx.em.nativeUpdate(PersonalApiKey, { id: key.id }, { lastUsedAt: now });
    }
    return { user: key.user, key };
  })();
  return ctx.caller;
}

/** A positive 32-bit integer path id, or null (which callers answer with 404). */
export function parseId(value: unknown): number | null {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !/^\d{1,10}$/.test(text)) return null;
  const id = Number(text);
  return id >= 1 && id <= MAX_INT32 ? id : null;
}

/**
 * Checks 1–6 of rest-flags.md §1.3 for a project-scoped operation: authentication (401),
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

