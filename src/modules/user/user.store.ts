import type { EntityManager } from '@mikro-orm/postgresql';
import { MembershipLevel } from '../organization/organization-membership.entity';
import type { User } from './user.entity';
import { userFromRow } from './user.rows';

/** The app_user table's queries. */
export const UserStore = {
  /**
   * These users by id (unknown ids absent), as plain objects without a unit of work: one statement, in
   * the caller's transaction when there is one (a CLI command holds its only connection).
   */
  async byIds(em: EntityManager, ids: readonly number[]): Promise<Map<number, User>> {
    const rows: Array<Record<string, unknown>> = await em
      .getConnection()
      .execute('select * from app_user where id in (?)', [[...ids]], 'all', em.getTransactionContext());
    return new Map(rows.map((row) => [Number(row.id), userFromRow(row)]));
  },

  /**
   * The member of a project's organization with this (normalised) email, or with a null email the
   * earliest owner; null when there is none (or no such project): one statement.
   */
  async memberOfProject(em: EntityManager, projectId: number, email: string | null): Promise<User | null> {
    const rows: Array<Record<string, unknown>> = await em.execute(
      `select u.* from project p
       join organization_membership m on m.organization_id = p.organization_id
       join app_user u on u.id = m.user_id
      where p.id = ? and ${email !== null ? 'u.email = ?' : `m.level >= ${MembershipLevel.owner}`}
      order by m.joined_at, m.id limit 1`,
      email !== null ? [projectId, email] : [projectId],
    );
    return rows.length === 0 ? null : userFromRow(rows[0]);
  },
};
