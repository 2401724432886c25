import type { EntityManager } from '@mikro-orm/postgresql';
import { Organization } from './organization.entity';

/** The organization table's queries for access checks. */
export const OrganizationStore = {
  /** The organization and the user's membership level there (null when not a member), or null for an unknown organization. */
  async forUser(
    em: EntityManager,
    organizationId: string,
    userId: number,
  ): Promise<{ organization: Organization; membershipLevel: number | null } | null> {
    const rows: Array<Record<string, unknown>> = await em.execute(
      `select o.*, m.level as membership_level
         from organization o
         left join organization_membership m on m.organization_id = o.id and m.user_id = ?
        where o.id = ?`,
      [userId, organizationId],
    );
    if (rows.length === 0) return null;
    const { membership_level, ...organizationRow } = rows[0];
    return {
      organization: em.map(Organization, organizationRow),
      membershipLevel: membership_level === null || membership_level === undefined ? null : Number(membership_level),
    };
  },

  /** Whether an organization with this id exists: one statement. */
  async exists(em: EntityManager, organizationId: string): Promise<boolean> {
    const rows: unknown[] = await em.execute('select 1 from organization where id = ?', [organizationId]);
    return rows.length > 0;
  },
};
