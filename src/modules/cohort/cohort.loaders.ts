import DataLoader from 'dataloader';
import type { AppContext } from '../../context';
import type { Cohort } from './cohort.entity';
import { createCohortCountLoader } from './cohort.count';
import { CohortStore } from './cohort.store';

/** Cohorts by id (the ones a page of flags names: one statement) and their counts. */
export function createCohortLoaders(ctx: AppContext) {
  return {
    cohort: new DataLoader<number, Cohort | null>(async (ids) => {
      const byId = await CohortStore.byIds(ctx.em, ids);
      return ids.map((id) => byId.get(id) ?? null);
    }),
    cohortCount: createCohortCountLoader(ctx),
  };
}
