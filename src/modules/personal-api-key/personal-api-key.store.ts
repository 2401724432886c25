import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller } from '../../auth/access';
import { nullableTimestampOf } from '../../db/rows';
import { userFromRow } from '../user/user.rows';

/** The personal_api_key table's queries for authentication. */
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
};
