import type { EntityManager } from '@mikro-orm/postgresql';
import { groupBy } from '../../group-by';
import { containsPattern } from '../../db/sql';
import { windowPage, type Page } from '../../pagination';
import type { CohortDefinitionRow } from '../cohort/cohort.store';
import { Person } from './person.entity';
import { runPrepared, type PreparedStatement } from '../../db/prepared';
import { BatchedLookup } from '../../db/batched-lookup';

/** The stored persons behind distinct ids, with the static cohorts each belongs to (docs/evaluation.md §4.1). */
const PERSONS_FOR_EVALUATION: PreparedStatement = {
  name: 'flagship_persons_for_evaluation',
  text: `select d.distinct_id, p.properties, (select array_agg(cp.cohort_id) from cohort_person cp where cp.person_id = p.id) as static_cohorts
           from person_distinct_id d join person p on p.id = d.person_id where d.project_id = $1 and d.distinct_id = any($2::text[])`,
};

type EvaluationRow = { distinct_id: string; properties: Record<string, unknown> | null; static_cohorts: number[] | null };

/** The SDK path's person lookups: those of one turn share a statement. */
const personLookups = new BatchedLookup<EvaluationRow>(async (em, projectId, distinctIds) => {
  const rows = await runPrepared<EvaluationRow>(em, PERSONS_FOR_EVALUATION, [projectId, distinctIds]);
  return new Map(rows.map((row) => [row.distinct_id, row]));
});

/** What evaluation reads about the person behind a distinct id. */
export interface PersonForEvaluation {
  /** Null when no person has this distinct id. */
  properties: Record<string, unknown> | null;
  /** The static cohorts the person was added to. */
  staticCohorts: number[];
  /** The project's non-deleted cohorts, when asked for (else null). */
  cohorts: CohortDefinitionRow[] | null;
}

/** What a person list is narrowed by (each absent or empty: no condition). */
export interface PersonListFilters {
  /** Persons with exactly this distinct id. */
  distinctId?: string | null;
  /** A case-insensitive substring of a distinct id or of the properties' JSON text. */
  search?: string | null;
}

/** The person tables' queries for reads and evaluation. */
export const PersonStore = {
  /** A project's persons, newest first: one statement, a second for a page past the end. */
  async page(em: EntityManager, projectId: number, filters: PersonListFilters, limit: number, offset: number): Promise<Page<Person>> {
    const qb = em.createQueryBuilder(Person, 'p').select(['p.*']).where({ project: projectId });
    if (filters.distinctId) {
      qb.andWhere('exists (select 1 from person_distinct_id d where d.person_id = p.id and d.project_id = ? and d.distinct_id = ?)', [
        projectId,
        filters.distinctId,
      ]);
    }
    if (filters.search) {
      const pattern = containsPattern(filters.search);
      qb.andWhere(
        '(exists (select 1 from person_distinct_id d where d.person_id = p.id and d.distinct_id ilike ?) or p.properties::text ilike ?)',
        [pattern, pattern],
      );
    }
    qb.orderBy({ createdAt: 'desc', id: 'desc' });
    return windowPage(qb, limit, offset, (row) => em.map(Person, row));
  },

  /** The distinct ids of each of these persons, oldest first (a person without any: absent): one statement. */
  async distinctIdsOf(em: EntityManager, personIds: readonly number[]): Promise<Map<number, string[]>> {
    const rows: Array<{ person_id: string | number; distinct_id: string }> = await em
      .getConnection()
      .execute('select person_id, distinct_id from person_distinct_id where person_id in (?) order by added_at, id', [[...personIds]]);
    const byPerson = groupBy(rows, (row) => Number(row.person_id));
    return new Map([...byPerson].map(([personId, owned]) => [personId, owned.map((row) => row.distinct_id)]));
  },

  /**
   * The person behind `distinctId` (null: look nobody up, e.g. an id PostgreSQL cannot store) with
   * the static cohorts they belong to and, with `withCohorts`, the project's cohorts: always one
   * statement, one row.
   */
  async forEvaluation(em: EntityManager, projectId: number, distinctId: string | null, withCohorts: boolean): Promise<PersonForEvaluation> {
    // The SDK path's shape (remote evaluation has the cohorts already): one prepared lookup, no ORM.
    if (distinctId !== null && !withCohorts && !em.isInTransaction()) {
      const found = await personLookups.get(em, projectId, distinctId);
      return { properties: found?.properties ?? null, staticCohorts: (found?.static_cohorts ?? []).map(Number), cohorts: null };
    }
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
