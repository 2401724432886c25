import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Cohort } from './cohort.entity';
import type { RequestWork } from '../../http/request-work';
import { createCohortCountLoader } from './cohort.count';
import { CohortStore } from './cohort.store';

/** Cohorts by id (the ones a page of flags names: one statement) and their counts. */
export function createCohortLoaders(em: EntityManager, work: RequestWork) {
  return {
    cohort: new DataLoader<number, Cohort | null>(async (ids) => {
      const byId = await CohortStore.byIds(em, ids);
      return ids.map((id) => byId.get(id) ?? null);
    }),
    cohortCount: createCohortCountLoader(em, work),
  };
}
