import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { User } from './user.entity';
import { userFromRow } from './user.rows';

/** `created_by` and friends: one query for every user a page of results mentions, read without a unit of work. */
export function createUserLoader(em: EntityManager) {
  return new DataLoader<number, User | null>(async (ids) => {
    // In the caller's transaction when there is one (a CLI command holds its only connection).
    const rows: Array<Record<string, unknown>> = await em
      .getConnection()
      .execute('select * from app_user where id in (?)', [[...ids]], 'all', em.getTransactionContext());
    const byId = new Map(rows.map((row) => [Number(row.id), userFromRow(row)]));
    return ids.map((id) => byId.get(id) ?? null);
  });
}
