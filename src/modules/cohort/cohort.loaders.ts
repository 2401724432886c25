import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Cohort } from './cohort.entity';
import { createCohortCountLoader } from './cohort.count';
import { cohortFromRow } from './cohort.rows';

/** Cohorts by id (the ones a page of flags names: one statement) and their counts. */
export function createCohortLoaders(em: EntityManager) {
  return {
    cohort: new DataLoader<number, Cohort | null>(async (ids) => {
      const rows: Array<Record<string, unknown>> = await em.execute('select * from cohort where id in (?)', [[...ids]]);
      const byId = new Map(rows.map((row) => [Number(row.id), cohortFromRow(row)]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
    cohortCount: createCohortCountLoader(em),
  };
}
