import type { EntityManager } from '@mikro-orm/postgresql';
import type { CohortDefinitionRow } from '../cohort/cohort.store';

/** What evaluation reads about the person behind a distinct id. */
export interface PersonForEvaluation {
  /** Null when no person has this distinct id. */
  properties: Record<string, unknown> | null;
  /** The static cohorts the person was added to. */
  staticCohorts: number[];
  /** The project's non-deleted cohorts, when asked for (else null). */
  cohorts: CohortDefinitionRow[] | null;
}

/** The person tables' queries for evaluation. */
export const PersonStore = {
  /**
   * The person behind `distinctId` (null: look nobody up, e.g. an id PostgreSQL cannot store) with
   * the static cohorts they belong to and, with `withCohorts`, the project's cohorts: always one
   * statement, one row.
   */
  async forEvaluation(em: EntityManager, projectId: number, distinctId: string | null, withCohorts: boolean): Promise<PersonForEvaluation> {
    const person =
      distinctId !== null
        ? `select p.properties, (select array_agg(cp.cohort_id) from cohort_person cp where cp.person_id = p.id) as static_cohorts
             from person_distinct_id d join person p on p.id = d.person_id where d.project_id = ? and d.distinct_id = ?`
        : 'select null::jsonb as properties, null::int[] as static_cohorts where false';
    const projectCohorts = withCohorts
      ? `(select coalesce(jsonb_agg(jsonb_build_object('id', c.id, 'is_static', c.is_static, 'filters', c.filters) order by c.id), '[]'::jsonb)
           from cohort c where c.project_id = ? and not c.deleted)`
      : 'null::jsonb';
    const [row]: Array<{
      properties: Record<string, unknown> | null;
      static_cohorts: number[] | null;
      cohorts: CohortDefinitionRow[] | null;
    }> = await em.execute(
      `select s.properties, s.static_cohorts, ${projectCohorts} as cohorts from (select 1) one left join (${person}) s on true`,
      [...(withCohorts ? [projectId] : []), ...(distinctId !== null ? [projectId, distinctId] : [])],
    );
    return { properties: row.properties, staticCohorts: (row.static_cohorts ?? []).map(Number), cohorts: row.cohorts };
  },
};
