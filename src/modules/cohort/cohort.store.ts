import type { EntityManager } from '@mikro-orm/postgresql';

/** A cohort as evaluation reads it. */
export interface CohortDefinitionRow {
  id: number;
  is_static: boolean;
  filters: Record<string, unknown> | null;
}

/** The cohort tables' queries for evaluation. */
export const CohortStore = {
  /** How many persons each of these static cohorts holds, by cohort id (absent: none): one statement. */
  async staticMemberCounts(em: EntityManager, cohortIds: number[]): Promise<Map<number, number>> {
    const rows: Array<{ cohort_id: number; count: string }> = await em.execute(
      'select cohort_id, count(*) from cohort_person where cohort_id in (?) group by cohort_id',
      [cohortIds],
    );
    return new Map(rows.map((row) => [Number(row.cohort_id), Number(row.count)]));
  },

  /** Every cohort of a project, deleted ones included. */
  async all(em: EntityManager, projectId: number): Promise<Array<CohortDefinitionRow & { name: string; deleted: boolean }>> {
    return em.execute('select id, name, deleted, is_static, filters from cohort where project_id = ?', [projectId]);
  },

  /** A project's non-deleted cohorts, by id. */
  async liveDefinitions(em: EntityManager, projectId: number): Promise<CohortDefinitionRow[]> {
    return em.execute('select id, is_static, filters from cohort where project_id = ? and not deleted order by id', [projectId]);
  },
};
