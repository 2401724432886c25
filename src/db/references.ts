import type { EntityManager } from '@mikro-orm/postgresql';

/** Tables whose rows a write references while another request may delete them. */
export type ReferencedTable = 'role' | 'feature_flag' | 'app_user';

/**
 * Holds a row a write is about to reference until the write's transaction ends, or answers false
 * when it is gone. `FOR KEY SHARE`: a concurrent delete waits for the write (and its cascade then
 * takes what the write added) instead of slipping between the write's lookup and its insert, which
 * failed the insert's foreign key with a 500. Call it with the write's transactional EntityManager.
 */
export async function holdReferenced(em: EntityManager, table: ReferencedTable, id: number | string): Promise<boolean> {
  const rows: unknown[] = await em.execute(`select 1 from ${table} where id = ? for key share`, [id]);
  return rows.length > 0;
}
