import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { User } from './user.entity';

/** `created_by` and friends: one query for every user a page of results mentions. */
export function createUserLoader(em: EntityManager) {
  return new DataLoader<number, User | null>(async (ids) => {
    const users = await em.find(User, { id: { $in: [...ids] } });
    const byId = new Map(users.map((user) => [user.id, user]));
    return ids.map((id) => byId.get(id) ?? null);
  });
}
