import type { EntityManager } from '@mikro-orm/postgresql';
import type { ProjectAccess } from '../../auth/access';
import { MembershipLevel } from '../organization/organization-membership.entity';
import type { FeatureFlag } from './feature-flag.entity';

/** The organization's flag access level when it has no resource-access record (decision 8). */
export const DEFAULT_FLAG_ACCESS_LEVEL = 37;

/**
 * `can_edit` for a batch of flags (rest-flags.md §2.5): creator, admin, or an organization flag
 * access level of 37. Role levels and per-flag role access join this rule with the roles
 * capability; it answers for a whole page at once so that capability adds a constant number of
 * queries, never one per flag.
 */
export async function canEditFlags(_em: EntityManager, access: ProjectAccess, flags: FeatureFlag[]): Promise<boolean[]> {
  const userId = access.caller.user.id;
  const everyoneEdits = DEFAULT_FLAG_ACCESS_LEVEL === 37;
  return flags.map(
    (flag) => everyoneEdits || access.level >= MembershipLevel.admin || (flag.createdBy !== null && flag.createdBy.id === userId),
  );
}
