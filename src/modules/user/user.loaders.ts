import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { User } from './user.entity';
import { UserStore } from './user.store';

/** `created_by` and friends: one query for every user a page of results mentions, read without a unit of work. */
export function createUserLoader(em: () => EntityManager) {
  return new DataLoader<number, User | null>(async (ids) => {
    const byId = await UserStore.byIds(em(), ids);
    return ids.map((id) => byId.get(id) ?? null);
  });
}
