import { holdReferenced } from '../../db/references';
import { refuseUniqueViolation } from '../../db/unique-violation';
import { forgetStandings } from '../../auth/access';
import { accessOrganization, requireAdmin } from '../../auth/organization-access';
import type { AppContext } from '../../context';
import { fieldErrors, requestErrors } from '../../errors';
import { findPage, type Page, type PageArgs } from '../../pagination';
import { isUuid, parseUuid, requireObject } from '../../validation/fields';
import { OrganizationMembership } from '../organization/organization-membership.entity';
import { User } from '../user/user.entity';
import { RoleMembership } from './role-membership.entity';
import { roleErrors } from './role.errors';
import { findRole } from './role.service';

/** Members of a role (docs/rest-api.md §5.2). */
export const RoleMembershipService = {
  async list(ctx: AppContext, organizationRef: unknown, roleId: unknown, args: PageArgs): Promise<Page<RoleMembership>> {
    const { organization } = await accessOrganization(ctx, organizationRef, 'organization:read');
    const role = await findRole(ctx.em, organization.id, roleId);
    return findPage(ctx.em, RoleMembership, { role: role.id }, { joinedAt: 'asc', id: 'asc' }, args);
  },

  async get(ctx: AppContext, organizationRef: unknown, roleId: unknown, membershipId: unknown): Promise<RoleMembership> {
    const { organization } = await accessOrganization(ctx, organizationRef, 'organization:read');
    const role = await findRole(ctx.em, organization.id, roleId);
    return findMembership(ctx, role.id, membershipId);
  },

  async create(ctx: AppContext, organizationRef: unknown, roleId: unknown, raw: unknown): Promise<RoleMembership> {
    const access = await accessOrganization(ctx, organizationRef, 'organization:write');
    const role = await findRole(ctx.em, access.organization.id, roleId);
    requireAdmin(access);
    const input = requireObject(raw);
    if (!Object.prototype.hasOwnProperty.call(input, 'userUuid')) throw fieldErrors.required('user_uuid');
    const userUuid = parseUuid(input.userUuid, 'user_uuid')!;
    const user = await ctx.em.findOne(User, { uuid: userUuid, isActive: true });
    const member = user && (await ctx.em.count(OrganizationMembership, { organization: access.organization.id, user: user.id }));
    if (!user || !member) throw roleErrors.userDoesNotExist();
    if (await ctx.em.count(RoleMembership, { role: role.id, user: user.id })) throw roleErrors.alreadyMember();
    const created = await refuseUniqueViolation(
      () =>
        ctx.em.transactional(async (em) => {
          // A role or user deleted since the lookups above: the same answers as if it had been gone then.
          if (!(await holdReferenced(em, 'role', role.id))) throw requestErrors.notFound();
          if (!(await holdReferenced(em, 'app_user', user.id))) throw roleErrors.userDoesNotExist();
          const membership = em.create(RoleMembership, { role, user });
          await em.flush();
          return membership;
        }),
      roleErrors.alreadyMember,
    );
    forgetStandings(ctx);
    return created;
  },

  async delete(ctx: AppContext, organizationRef: unknown, roleId: unknown, membershipId: unknown): Promise<RoleMembership> {
    const access = await accessOrganization(ctx, organizationRef, 'organization:write');
    const role = await findRole(ctx.em, access.organization.id, roleId);
    const membership = await findMembership(ctx, role.id, membershipId);
    requireAdmin(access);
    await ctx.em.nativeDelete(RoleMembership, { id: membership.id });
    forgetStandings(ctx);
    return membership;
  },
};

async function findMembership(ctx: AppContext, roleId: string, membershipId: unknown): Promise<RoleMembership> {
  const membership = isUuid(membershipId) ? await ctx.em.findOne(RoleMembership, { id: membershipId.toLowerCase(), role: roleId }) : null;
  if (!membership) throw requestErrors.notFound();
  return membership;
}
