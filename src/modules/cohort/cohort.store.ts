import type { EntityManager } from '@mikro-orm/postgresql';
import type { Page } from '../../pagination';
import type { Cohort } from './cohort.entity';
import { cohortFromRow } from './cohort.rows';

/** A cohort as evaluation reads it. */
export interface CohortDefinitionRow {
  id: number;
  is_static: boolean;
  filters: Record<string, unknown> | null;
}

/** The cohort tables' queries: reads as plain objects (no unit of work), static members, and evaluation's reads. */
export const CohortStore = {
  /** One cohort of a project, deleted or not, or null: one statement. */
  async byId(em: EntityManager, projectId: number, cohortId: number): Promise<Cohort | null> {
    const rows: Array<Record<string, unknown>> = await em.execute('select * from cohort where id = ? and project_id = ?', [
      cohortId,
      projectId,
    ]);
    return rows.length === 0 ? null : cohortFromRow(rows[0]);
  },

  /** These cohorts by id, whatever their project (unknown ids absent): one statement. */
  async byIds(em: EntityManager, ids: readonly number[]): Promise<Map<number, Cohort>> {
    const rows: Array<Record<string, unknown>> = await em.execute('select * from cohort where id in (?)', [[...ids]]);
    return new Map(rows.map((row) => [Number(row.id), cohortFromRow(row)]));
  },

  /** A project's non-deleted cohorts, newest id first: one statement, a second for a page past the end. */
  async page(em: EntityManager, projectId: number, limit: number, offset: number): Promise<Page<Cohort>> {
    const rows: Array<Record<string, unknown>> = await em.execute(
      `select c.*, count(*) over () as total from cohort c where c.project_id = ? and not c.deleted order by c.id desc limit ? offset ?`,
      [projectId, limit, offset],
    );
    let count = rows.length ? Number(rows[0].total) : 0;
    if (rows.length === 0 && offset > 0) {
      const [row] = await em.execute<Array<{ count: string }>>('select count(*) from cohort where project_id = ? and not deleted', [
        projectId,
      ]);
      count = Number(row.count);
    }
    return { count, results: rows.map(cohortFromRow), limit, offset };
  },

  /** The id of the project's oldest non-deleted cohort with exactly this name, or null: one statement. */
  async liveIdByName(em: EntityManager, projectId: number, name: string): Promise<number | null> {
    const rows: Array<{ id: number }> = await em.execute(
      'select id from cohort where project_id = ? and name = ? and not deleted order by id limit 1',
      [projectId, name],
    );
    return rows.length === 0 ? null : Number(rows[0].id);
  },

  /**
   * Takes the project's cohort-write turn until the transaction ends (a transaction-scoped advisory
   * lock): one statement. Cohort writes take turns so that two updates cannot each add half of a
   * reference cycle the other's check did not see.
   */
  async lockProject(em: EntityManager, projectId: number): Promise<void> {
    await em.execute('select pg_advisory_xact_lock(hashtext(?))', [`cohorts:${projectId}`]);
  },

  /**
   * Adds the project's persons behind these distinct ids to a static cohort (unknown ids skipped,
   * existing members kept): one statement.
   */
  async addStaticMembers(em: EntityManager, projectId: number, cohortId: number, distinctIds: string[]): Promise<void> {
    await em.execute(
      `insert into cohort_person (cohort_id, person_id)
           select distinct ?::int, d.person_id from person_distinct_id d where d.project_id = ? and d.distinct_id in (?)
         on conflict do nothing`,
      [cohortId, projectId, distinctIds],
    );
  },

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
