import { holdReferenced } from '../../db/references';
import { refuseUniqueViolation } from '../../db/unique-violation';
import { accessProject, parseId, type ProjectAccess } from '../../auth/access';
import type { AppContext } from '../../context';
import { fieldErrors, requestErrors } from '../../errors';
import { findPage, type Page, type PageArgs } from '../../pagination';
import { isUuid, requireObject } from '../../validation/fields';
import { pyRepr } from '../../validation/python';
import type { FeatureFlag } from '../feature-flag/feature-flag.entity';
import { findFlag } from '../feature-flag/feature-flag.service';
import { MembershipLevel } from '../organization/organization-membership.entity';
import { FeatureFlagRoleAccess } from './feature-flag-role-access.entity';
import { FlagAccessLevel, Role } from './role.entity';
import { roleErrors } from './role.errors';
import { logFlagRoleAccess } from '../activity/activity.log';

/**
 * Who may grant or revoke roles on a flag (docs/rest-api.md §5.4): admins, everyone while the
 * organization's flag level is 37, the flag's creator, and members of a level-37 role.
 */
function requireFlagRoleEditor(access: ProjectAccess, flag: FeatureFlag): void {
  const allowed =
    access.level >= MembershipLevel.admin ||
    access.flagAccessLevel === FlagAccessLevel.edit ||
    (flag.createdBy !== null && flag.createdBy.id === access.caller.user.id) ||
    access.roleLevel === FlagAccessLevel.edit;
  if (!allowed) throw roleErrors.cannotEditFlagRoles();
}

async function findRecord(ctx: AppContext, flag: FeatureFlag, id: unknown): Promise<FeatureFlagRoleAccess> {
  const recordId = parseId(id);
  const record = recordId ? await ctx.em.findOne(FeatureFlagRoleAccess, { id: recordId, featureFlag: flag.id }) : null;
  if (!record) throw requestErrors.notFound();
  return record;
}

/** Per-flag role access (docs/rest-api.md §5.4); the parent flag may be soft-deleted. */
export const FeatureFlagRoleAccessService = {
  async list(ctx: AppContext, projectRef: unknown, flagId: unknown, args: PageArgs): Promise<Page<FeatureFlagRoleAccess>> {
    const { project } = await accessProject(ctx, projectRef, 'feature_flag:read');
    const flag = await findFlag(ctx.em, project.id, flagId);
    return findPage(ctx.em, FeatureFlagRoleAccess, { featureFlag: flag.id }, { addedAt: 'asc', id: 'asc' }, args);
  },

  async get(ctx: AppContext, projectRef: unknown, flagId: unknown, id: unknown): Promise<FeatureFlagRoleAccess> {
    const { project } = await accessProject(ctx, projectRef, 'feature_flag:read');
    return findRecord(ctx, await findFlag(ctx.em, project.id, flagId), id);
  },

  async create(ctx: AppContext, projectRef: unknown, flagId: unknown, raw: unknown): Promise<FeatureFlagRoleAccess> {
    const access = await accessProject(ctx, projectRef, 'feature_flag:write');
    const flag = await findFlag(ctx.em, access.project.id, flagId);
    requireFlagRoleEditor(access, flag);
    const input = requireObject(raw);
    if (!Object.prototype.hasOwnProperty.call(input, 'roleId')) throw fieldErrors.required('role_id');
    const roleId = input.roleId;
    const role = isUuid(roleId)
      ? await ctx.em.findOne(Role, { id: roleId.toLowerCase(), organization: access.project.organization.id })
      : null;
    if (!role) throw fieldErrors.doesNotExist('role_id', pyRepr(roleId));
    if (await ctx.em.count(FeatureFlagRoleAccess, { featureFlag: flag.id, role: role.id })) throw roleErrors.roleAlreadyHasAccess();
    // The grant and its activity entry (on the flag) commit together.
    return refuseUniqueViolation(
      () =>
        ctx.em.transactional(async (em) => {
          // A flag or role deleted since the lookups above: the same answers as if it had been gone then.
          if (!(await holdReferenced(em, 'feature_flag', flag.id))) throw requestErrors.notFound();
          if (!(await holdReferenced(em, 'role', role.id))) throw fieldErrors.doesNotExist('role_id', pyRepr(roleId));
          const record = em.create(FeatureFlagRoleAccess, { featureFlag: flag, role });
          await em.flush();
          await logFlagRoleAccess(em, access, flag, role, true);
          return record;
        }),
      roleErrors.roleAlreadyHasAccess,
    );
  },

  async delete(ctx: AppContext, projectRef: unknown, flagId: unknown, id: unknown): Promise<FeatureFlagRoleAccess> {
    const access = await accessProject(ctx, projectRef, 'feature_flag:write');
    const flag = await findFlag(ctx.em, access.project.id, flagId);
    const record = await findRecord(ctx, flag, id);
    requireFlagRoleEditor(access, flag);
    await ctx.em.transactional(async (em) => {
      const role = await em.findOneOrFail(Role, record.role.id, { fields: ['id', 'name'] });
      // Two racing revokes: only the one that removed the record logs it.
      if (await em.nativeDelete(FeatureFlagRoleAccess, { id: record.id })) await logFlagRoleAccess(em, access, flag, role, false);
    });
    return record;
  },
};
