import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { groupBy } from '../../group-by';
import { FeatureFlag } from '../feature-flag/feature-flag.entity';
import { FeatureFlagRoleAccess } from './feature-flag-role-access.entity';
import { RoleMembership } from './role-membership.entity';
import { Role } from './role.entity';

/** Roles, their members and flags, and a flag's role access: one query per relation per request. */
export function createRoleLoaders(em: () => EntityManager) {
  return {
    role: new DataLoader<string, Role | null>(async (ids) => {
      const roles = await em().find(Role, { id: { $in: [...ids] } });
      const byId = new Map(roles.map((role) => [role.id, role]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
    roleMembers: new DataLoader<string, RoleMembership[]>(async (roleIds) => {
      const members = await em().find(RoleMembership, { role: { $in: [...roleIds] } }, { orderBy: { joinedAt: 'asc', id: 'asc' } });
      const byRole = groupBy(members, (m) => m.role.id);
      return roleIds.map((id) => byRole.get(id) ?? []);
    }),
    /** Flags with a role-access record for the role, ascending id. */
    roleFlags: new DataLoader<string, FeatureFlag[]>(async (roleIds) => {
      const records = await em().find(
        FeatureFlagRoleAccess,
        { role: { $in: [...roleIds] } },
        { populate: ['featureFlag'], orderBy: { featureFlag: { id: 'asc' } } },
      );
      const byRole = groupBy(records, (r) => r.role.id);
      return roleIds.map((id) => (byRole.get(id) ?? []).map((r) => r.featureFlag));
    }),
    flagRoleAccess: new DataLoader<number, FeatureFlagRoleAccess[]>(async (flagIds) => {
      const records = await em().find(
        FeatureFlagRoleAccess,
        { featureFlag: { $in: [...flagIds] } },
        { orderBy: { addedAt: 'asc', id: 'asc' } },
      );
      const byFlag = groupBy(records, (r) => r.featureFlag.id);
      return flagIds.map((id) => byFlag.get(id) ?? []);
    }),
    flag: new DataLoader<number, FeatureFlag | null>(async (ids) => {
      const flags = await em().find(FeatureFlag, { id: { $in: [...ids] } });
      const byId = new Map(flags.map((flag) => [flag.id, flag]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
  };
}
