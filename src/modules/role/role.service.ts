import { LockMode } from '@mikro-orm/core';
import { refuseUniqueViolation } from '../../db/unique-violation';
import { logFlagRoleAccess } from '../activity/activity.log';
import { callerReference, forgetStandings } from '../../auth/access';
import type { EntityManager } from '@mikro-orm/postgresql';
import { accessOrganization, requireAdmin, type OrganizationAccess } from '../../auth/organization-access';
import type { AppContext } from '../../context';
import { fieldErrors, requestErrors } from '../../errors';
import { findPage, type Page, type PageArgs } from '../../pagination';
import { isUuid, parseString, requireObject, hasField } from '../../validation/fields';
import { pyRepr } from '../../validation/python';
import { FEATURE_FLAGS_RESOURCE, OrganizationResourceAccess } from './organization-resource-access.entity';
import { DEFAULT_FLAG_ACCESS_LEVEL, FLAG_ACCESS_LEVELS, Role } from './role.entity';
import { roleErrors } from './role.errors';
import { RoleStore } from './role.store';

/** An organization's flag access level: its `feature flags` resource-access record, 37 without one. */
export async function organizationFlagAccessLevel(em: EntityManager, organizationId: string): Promise<number> {
  const record = await em.findOne(OrganizationResourceAccess, { organization: organizationId, resource: FEATURE_FLAGS_RESOURCE });
  return record?.accessLevel ?? DEFAULT_FLAG_ACCESS_LEVEL;
}

/** `21 | 37` from a client value (numbers or their text), else `invalid_choice`. */
export function parseFlagAccessLevel(value: unknown, attr: string): number {
  const level = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof level !== 'number' || !FLAG_ACCESS_LEVELS.includes(level)) throw fieldErrors.invalidChoice(attr, pyRepr(value));
  return level;
}

export async function findRole(em: EntityManager, organizationId: string, roleId: unknown): Promise<Role> {
  const role = isUuid(roleId) ? await em.findOne(Role, { id: roleId.toLowerCase(), organization: organizationId }) : null;
  if (!role) throw requestErrors.notFound();
  return role;
}

/** Roles of an organization (docs/rest-api.md §5.1). Reads: any member; writes: admins. */
export const RoleService = {
  async list(ctx: AppContext, organizationRef: unknown, args: PageArgs): Promise<Page<Role>> {
    const { organization } = await accessOrganization(ctx, organizationRef, 'organization:read');
    return findPage(ctx.em, Role, { organization: organization.id }, { createdAt: 'asc', id: 'asc' }, args);
  },

  async get(ctx: AppContext, organizationRef: unknown, roleId: unknown): Promise<Role> {
    const { organization } = await accessOrganization(ctx, organizationRef, 'organization:read');
    return findRole(ctx.em, organization.id, roleId);
  },

  async create(ctx: AppContext, organizationRef: unknown, input: unknown): Promise<Role> {
    const access = await accessOrganization(ctx, organizationRef, 'organization:write');
    requireAdmin(access);
    return writeRole(ctx.em, access, null, input, 'create');
  },

  async update(ctx: AppContext, organizationRef: unknown, roleId: unknown, input: unknown, mode: 'patch' | 'put' = 'patch'): Promise<Role> {
    const access = await accessOrganization(ctx, organizationRef, 'organization:write');
    const role = await findRole(ctx.em, access.organization.id, roleId);
    requireAdmin(access);
    const written = await writeRole(ctx.em, access, role, input, mode);
    forgetStandings(ctx);
    return written;
  },

  /**
   * Its memberships go with it (foreign keys cascade); its flag role-access records are removed
   * first, each logged on its flag as a revoke, in the same transaction.
   */
  async delete(ctx: AppContext, organizationRef: unknown, roleId: unknown): Promise<Role> {
    const access = await accessOrganization(ctx, organizationRef, 'organization:write');
    const role = await findRole(ctx.em, access.organization.id, roleId);
    requireAdmin(access);
    await ctx.em.transactional(async (em) => {
      // Locked first: a grant or membership being added waits or finishes first, so its revocation is logged below.
      await em.findOne(Role, role.id, { lockMode: LockMode.PESSIMISTIC_WRITE, fields: ['id'] });
      const revoked = await RoleStore.revokeFlagAccess(em, role.id);
      for (const flag of revoked) {
        await logFlagRoleAccess(em, { project: { id: flag.projectId }, caller: access.caller }, flag, role, false);
      }
      await em.nativeDelete(Role, { id: role.id });
    });
    forgetStandings(ctx);
    return role;
  },
};

async function writeRole(
  em: EntityManager,
  access: OrganizationAccess,
  role: Role | null,
  raw: unknown,
  mode: 'create' | 'patch' | 'put',
): Promise<Role> {
  const input = requireObject(raw);
  let name: string | undefined;
  if (hasField(input, 'name')) name = parseString(input.name, 'name', { maxLength: 200 })!;
  else if (mode !== 'patch') throw fieldErrors.required('name');
  if (name !== undefined) {
    if (await RoleStore.nameTaken(em, access.organization.id, name, role?.id ?? null)) throw roleErrors.nameTaken();
  }
  let level: number | undefined;
  if (hasField(input, 'featureFlagsAccessLevel')) level = parseFlagAccessLevel(input.featureFlagsAccessLevel, 'feature_flags_access_level');
  else if (!role) level = await organizationFlagAccessLevel(em, access.organization.id);
  const target =
    role ??
    em.create(Role, {
      organization: access.organization,
      name: name!,
      featureFlagsAccessLevel: level!,
      createdBy: callerReference(em, access.caller),
    });
  if (name !== undefined) target.name = name;
  if (level !== undefined) target.featureFlagsAccessLevel = level;
  await refuseUniqueViolation(() => em.flush(), roleErrors.nameTaken);
  return target;
}
