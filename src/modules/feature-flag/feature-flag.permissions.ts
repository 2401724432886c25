import type { EntityManager } from '@mikro-orm/postgresql';
import type { ProjectAccess } from '../../auth/access';
import { MembershipLevel } from '../organization/organization-membership.entity';
import { FlagAccessLevel } from '../role/role.entity';
import { RoleStore } from '../role/role.store';
import type { FeatureFlag } from './feature-flag.entity';

/**
 * `can_edit` for a batch of flags (docs/rest-api.md §2.5): the creator, admins, everyone while the
 * organization's flag level is 37, members of a level-37 role, and members of a role with a
 * role-access record for the flag. The levels come with the project access check; the records
 * take one query for the whole batch, and only when a role could grant what nothing else does
 * (`em` is asked for then: a request that needs no query forks no EntityManager).
 */
export async function canEditFlags(em: () => EntityManager, access: ProjectAccess, flags: FeatureFlag[]): Promise<boolean[]> {
  const everyFlag =
    access.level >= MembershipLevel.admin || access.flagAccessLevel === FlagAccessLevel.edit || access.roleLevel === FlagAccessLevel.edit;
  if (everyFlag) return flags.map(() => true);
  const userId = access.caller.user.id;
  const isCreator = (flag: FeatureFlag) => flag.createdBy !== null && flag.createdBy.id === userId;
  const undecided = flags.filter((flag) => !isCreator(flag)).map((flag) => flag.id);
  const granted =
    access.roleLevel !== null && undecided.length > 0 ? await RoleStore.flagsGrantedToUser(em(), userId, undecided) : new Set<number>();
  return flags.map((flag) => isCreator(flag) || granted.has(flag.id));
}
