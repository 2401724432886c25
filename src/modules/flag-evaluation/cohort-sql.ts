import { cohortIdOfValue, isPropertyGroup, type CohortDefinitions, type PropertyGroup } from '../../evaluation/cohort-match';
import type { CohortExpansion } from '../../evaluation/cohort-expansion';
import type { PropertyFilter } from '../../evaluation/property-match';

/** A condition in SQL: exact when PostgreSQL decides as the matcher would, else a necessary one (the matcher decides the candidates). */
export type Predicate = { sql: string; params: unknown[]; exact: boolean };

export const ALWAYS: Predicate = { sql: 'true', params: [], exact: true };
export const NEVER: Predicate = { sql: 'false', params: [], exact: true };
/** Narrows nothing: the matcher decides. */
export const UNDECIDED: Predicate = { sql: 'true', params: [], exact: false };

/** A leaf's `negation` (cohort property groups): exact predicates invert, narrowing ones cannot. */
export function inverted(predicate: Predicate): Predicate {
  return predicate.exact ? { sql: `not (${predicate.sql})`, params: predicate.params, exact: true } : UNDECIDED;
}

function combined(parts: Predicate[], joiner: 'and' | 'or'): Predicate {
  if (parts.length === 0) return ALWAYS;
  return {
    sql: parts.map((p) => `(${p.sql})`).join(` ${joiner} `),
    params: parts.flatMap((p) => p.params),
    exact: parts.every((p) => p.exact),
  };
}

/**
 * Conditions one statement inlines at most. Building and binding a condition costs the event loop
 * about 10 µs, so a cohort at the save limit (10,000) held it for 100 ms; past this budget the
 * matcher decides instead, in batches that yield (blast-radius.store.ts), with the same answer.
 */
export const MAX_INLINED_CONDITIONS = 500;

// Reached only by hand-made data (saving caps a cohort's groups at 20 levels and a reference chain at 20).
const MAX_SQL_NESTING = 450;

/**
 * Cohort filters of one statement in SQL. Each cohort's expansion is measured once
 * (`CohortExpansion`, linear in the definitions); the statement inlines at most
 * MAX_INLINED_CONDITIONS leaves in all, so its text grows with the definitions, never with what
 * the references multiply to. A cohort that does not fit what is left, goes round a cycle or nests
 * too deep narrows nothing and is left to the matcher.
 */
export class CohortSql {
  #left = MAX_INLINED_CONDITIONS;

  constructor(
    private readonly cohorts: CohortDefinitions,
    private readonly expansion: CohortExpansion,
    private readonly personLeaf: (filter: PropertyFilter) => Predicate,
  ) {}

  /** Membership of cohort `id` (a flag's `in`): `EXISTS` for a static cohort; a dynamic one inlined if it fits. */
  member(id: number | null): Predicate {
    const cohort = id === null ? undefined : this.cohorts.get(id);
    if (!cohort) return NEVER;
    if (cohort.isStatic || !isPropertyGroup(cohort.properties)) return this.#inline(id!);
    const { size, depth, cyclic } = this.expansion.of(id!);
    if (cyclic || depth > MAX_SQL_NESTING || size > this.#left) return UNDECIDED;
    this.#left -= size;
    return this.#inline(id!);
  }

  /** A cohort whose whole expansion has been paid for (it fits, and so does everything under it). */
  #inline(id: number): Predicate {
    const cohort = this.cohorts.get(id);
    if (!cohort) return NEVER;
    if (cohort.isStatic)
      return { sql: 'exists (select 1 from cohort_person cp where cp.cohort_id = ? and cp.person_id = t.id)', params: [id], exact: true };
    if (!isPropertyGroup(cohort.properties)) return NEVER;
    const group = (value: PropertyGroup): Predicate =>
      combined(
        value.values.map((item) => (isPropertyGroup(item) ? group(item) : this.#leaf(item))),
        value.type === 'OR' ? 'or' : 'and',
      );
    return group(cohort.properties);
  }

  #leaf(item: PropertyFilter): Predicate {
    let predicate: Predicate;
    if (item.type === 'person') predicate = this.personLeaf(item);
    else if (item.type === 'cohort') {
      const id = cohortIdOfValue(item.value);
      predicate = id === null ? NEVER : this.#inline(id);
    } else predicate = NEVER;
    return item.negation === true ? inverted(predicate) : predicate;
  }
}
