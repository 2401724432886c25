import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller } from '../../auth/access';
import { nullableTimestampOf } from '../../db/rows';
import { userFromRow } from '../user/user.rows';

/** The personal_api_key table's queries: authentication, and what a key create checks. */
export const PersonalApiKeyStore = {
  /** The active user and key behind a stored key hash, in one statement; null for an unknown key or an inactive user. */
  async callerByHash(em: EntityManager, secureValue: string): Promise<Caller | null> {
    const rows: Array<Record<string, unknown>> = await em.getConnection().execute(
      `select k.id as key_id, k.scopes as key_scopes, k.scoped_teams as key_scoped_teams,
              k.scoped_organizations as key_scoped_organizations, k.last_used_at as key_last_used_at, u.*
         from personal_api_key k join app_user u on u.id = k.user_id
        where k.secure_value = ?`,
      [secureValue],
    );
    if (rows.length === 0 || !rows[0].is_active) return null;
    const row = rows[0];
    return {
      user: userFromRow(row),
      key: {
        id: Number(row.key_id),
        scopes: row.key_scopes as string[] | null,
        scopedTeams: (row.key_scoped_teams as number[] | null)?.map(Number) ?? null,
        scopedOrganizations: row.key_scoped_organizations as string[] | null,
        lastUsedAt: nullableTimestampOf(row.key_last_used_at),
      },
    };
  },

  async touchLastUsed(em: EntityManager, keyId: number, at: Date): Promise<void> {
    await em.getConnection().execute('update personal_api_key set last_used_at = ? where id = ?', [at, keyId]);
  },

  /** Of these projects, those in an organization the user is a member of: one statement. */
  async memberProjects(em: EntityManager, userId: number, projectIds: number[]): Promise<Set<number>> {
    const rows: Array<{ id: number }> = await em.execute(
      `select p.id from project p join organization_membership m on m.organization_id = p.organization_id and m.user_id = ?
        where p.id = any(?::int[])`,
      [userId, `{${projectIds.join(',')}}`],
    );
    return new Set(rows.map((row) => Number(row.id)));
  },

  /** Of these organizations (lower-case uuids), those the user is a member of: one statement. */
  async memberOrganizations(em: EntityManager, userId: number, organizationIds: string[]): Promise<Set<string>> {
    const rows: Array<{ organization_id: string }> = await em.execute(
      'select organization_id from organization_membership where user_id = ? and organization_id = any(?::uuid[])',
      [userId, `{${organizationIds.join(',')}}`],
    );
    return new Set(rows.map((row) => row.organization_id));
  },

  /** Locks the user's row until the transaction ends, so key creates for one user take turns: one statement. */
  async lockUser(em: EntityManager, userId: number): Promise<void> {
    await em.execute('select id from app_user where id = ? for update', [userId]);
  },
};
