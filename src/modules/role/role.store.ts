import type { EntityManager } from '@mikro-orm/postgresql';

/** The role tables' queries. */
export const RoleStore = {
  /** Of these flags, those a role of the user has a role-access record for: one statement. */
  async flagsGrantedToUser(em: EntityManager, userId: number, flagIds: number[]): Promise<Set<number>> {
    const rows: Array<{ feature_flag_id: number }> = await em.execute(
      `select distinct fra.feature_flag_id
         from feature_flag_role_access fra
         join role_membership rm on rm.role_id = fra.role_id
        where rm.user_id = ? and fra.feature_flag_id in (?)`,
      [userId, flagIds],
    );
    return new Set(rows.map((row) => Number(row.feature_flag_id)));
  },

  /** Removes a role's flag role-access records, answering the flags they were on: one statement. */
  async revokeFlagAccess(em: EntityManager, roleId: string): Promise<Array<{ id: number; key: string; projectId: number }>> {
    const rows: Array<{ id: number; key: string; project_id: number }> = await em.execute(
      `delete from feature_flag_role_access a using feature_flag f
          where a.role_id = ? and f.id = a.feature_flag_id returning f.id, f.key, f.project_id`,
      [roleId],
    );
    return rows.map((row) => ({ id: Number(row.id), key: row.key, projectId: Number(row.project_id) }));
  },

  /** Whether another role of the organization (not `exceptId`) has this name, case-insensitively: one statement. */
  async nameTaken(em: EntityManager, organizationId: string, name: string, exceptId: string | null): Promise<boolean> {
    const rows: unknown[] = await em.execute(
      'select 1 from role where organization_id = ? and lower(name) = lower(?) and id is distinct from ?',
      [organizationId, name, exceptId],
    );
    return rows.length > 0;
  },
};
