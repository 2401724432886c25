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
};
