import type { EntityManager } from '@mikro-orm/postgresql';

/** The experiment tables' queries (results have their own store, results/results.store.ts). */
export const ExperimentStore = {
  /**
   * Takes the turn for creating an experiment with this flag key in the project until the transaction
   * ends (a transaction-scoped advisory lock): one statement.
   */
  async lockFlagKey(em: EntityManager, projectId: number, featureFlagKey: string | undefined): Promise<void> {
    await em.execute('select pg_advisory_xact_lock(hashtext(?))', [`experiment-flag:${projectId}:${featureFlagKey}`]);
  },
};
