import type { AppContext } from '../context';
import { authErrors, requestErrors } from '../errors';
import { MembershipLevel } from '../modules/organization/organization-membership.entity';
import type { Organization } from '../modules/organization/organization.entity';
import { OrganizationStore } from '../modules/organization/organization.store';
import { ProjectStore } from '../modules/project/project.store';
import { isUuid } from '../validation/fields';
import { authenticate, type Caller } from './access';
import { scopesAllow, type Scope } from './scopes';

export interface OrganizationAccess {
  caller: Caller;
  organization: Organization;
  level: number;
}

/**
 * Checks 1–6 of docs/rest-api.md §1.3 for an organization route: authentication (401), the
 * organization (404; `@current` is the current project's), the key's limits (403: keys limited
 * to projects are refused here outright), the scope (403) and membership (403).
 */
export async function accessOrganization(ctx: AppContext, organizationRef: unknown, scope: Scope): Promise<OrganizationAccess> {
  const caller = await authenticate(ctx);
  let organizationId: string | null = null;
  if (organizationRef === '@current') {
    organizationId = caller.user.currentProjectId ? await ProjectStore.organizationOf(ctx.em, caller.user.currentProjectId) : null;
  } else if (isUuid(organizationRef)) {
    organizationId = organizationRef.toLowerCase();
  }
  const found = organizationId ? await OrganizationStore.forUser(ctx.em, organizationId, caller.user.id) : null;
  if (!found) throw requestErrors.organizationNotFound();
  const { organization, membershipLevel: level } = found;
  const { key } = caller;
  if (key.scopedTeams?.length) throw authErrors.keyScopedToProjectsOnOrgRoute();
  if (key.scopedOrganizations?.length && !key.scopedOrganizations.includes(organization.id)) {
    throw authErrors.keyOrganizationScope(organization.id);
  }
  if (!scopesAllow(key.scopes, scope)) throw authErrors.missingScope(scope);
  if (level === null) throw authErrors.notInOrganization();
  return { caller, organization, level };
}

/** Writes to roles, memberships and resource access: admins and owners only (docs/rest-api.md §5). */
export function requireAdmin(access: { level: number }): void {
  if (access.level < MembershipLevel.admin) throw authErrors.forbidden('You need to have admin level or higher.');
}
