import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PersonStore } from './person.store';

/** A page of persons' distinct ids in one query, oldest first. */
export function createPersonLoaders(em: () => EntityManager) {
  return {
    personDistinctIds: new DataLoader<number, string[]>(async (personIds) => {
      const byPerson = await PersonStore.distinctIdsOf(em(), personIds);
      return personIds.map((id) => byPerson.get(id) ?? []);
    }),
  };
}
