import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';

/** A page of persons' distinct ids in one query, oldest first. */
export function createPersonLoaders(em: EntityManager) {
  return {
    personDistinctIds: new DataLoader<number, string[]>(async (personIds) => {
      const rows: Array<{ person_id: string | number; distinct_id: string }> = await em
        .getConnection()
        .execute('select person_id, distinct_id from person_distinct_id where person_id in (?) order by added_at, id', [[...personIds]]);
      const byPerson = new Map<number, string[]>();
      for (const row of rows) byPerson.set(Number(row.person_id), [...(byPerson.get(Number(row.person_id)) ?? []), row.distinct_id]);
      return personIds.map((id) => byPerson.get(id) ?? []);
    }),
  };
}
