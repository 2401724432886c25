import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Experiment } from './experiment.entity';
import type { ResultEnvelope } from './experiment-results.service';

function byFlag<T extends { featureFlag: { id: number } }>(flagIds: readonly number[], items: T[]): T[][] {
  return flagIds.map((id) => items.filter((item) => item.featureFlag.id === id));
}

/** A flag's experiments: one query per page of flags (the flag list primes the ids itself). */
export function createExperimentLoaders(em: () => EntityManager) {
  return {
    /** `experiment_set`: ids, ascending. */
    flagExperimentIds: new DataLoader<number, number[]>(async (flagIds) => {
      const experiments = await em().find(
        Experiment,
        { featureFlag: { $in: [...flagIds] } },
        { fields: ['id', 'featureFlag'], orderBy: { id: 'asc' } },
      );
      return byFlag(flagIds, experiments).map((list) => list.map((experiment) => experiment.id));
    }),
    flagExperiments: new DataLoader<number, Experiment[]>(async (flagIds) =>
      byFlag(flagIds, await em().find(Experiment, { featureFlag: { $in: [...flagIds] } }, { orderBy: { id: 'asc' } })),
    ),
    /**
     * One computation per experiment result within a request (keyed in experiment-results.service.ts
     * `cached`): GraphQL aliases asking for the same result share it and one refresh charge.
     */
    experimentResults: new Map<string, Promise<ResultEnvelope>>(),
  };
}
