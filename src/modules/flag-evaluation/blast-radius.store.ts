import type { EntityManager } from '@mikro-orm/postgresql';
import { storableText } from '../../db/sql';
import { cohortIdOfValue, cohortMembership, isPropertyGroup, type CohortDefinitions } from '../../evaluation/cohort-match';
import { CohortExpansion } from '../../evaluation/cohort-expansion';
import { matchProperty, str, type PropertyBag, type PropertyFilter } from '../../evaluation/property-match';
import { CohortSql, inverted, UNDECIDED, type Predicate } from './cohort-sql';
import { eventLoopSlices } from '../../event-loop-slices';

/** What is counted: a project's persons, or its groups of one type. */
export interface CountSource {
  table: 'person' | '"group"';
  propertiesColumn: 'properties' | 'group_properties';
  scope: { sql: string; params: unknown[] };
  /** The key the property bag gets besides the stored properties, and the SQL listing its values. */
  identity: { key: 'distinct_id' | '$group_key'; sql: string };
  /** Persons only: the project's non-deleted cohorts, for cohort filters (docs/evaluation.md §5), and their expansion. */
  cohorts?: { definitions: CohortDefinitions; expansion: CohortExpansion };
}

/**
 * The person keys, and whether static memberships are needed, to decide these cohorts with the
 * matcher: every cohort reachable from them, each once, iteratively.
 */
function cohortNeeds(roots: Array<number | null>, cohorts: CohortDefinitions, keys: Set<string>): boolean {
  const seen = new Set<number>();
  const pending = roots.filter((id): id is number => id !== null);
  let staticNeeded = false;
  while (pending.length) {
    const id = pending.pop()!;
    const cohort = cohorts.get(id);
    if (!cohort || seen.has(id)) continue;
    seen.add(id);
    if (cohort.isStatic) staticNeeded = true;
    const values: unknown[] = [cohort.properties];
    while (values.length) {
      const value = values.pop();
      if (isPropertyGroup(value)) for (const item of value.values) values.push(item);
      else if (value && typeof value === 'object') {
        const item = value as PropertyFilter;
        if (item.type === 'person') keys.add(str(item.key));
        else if (item.type === 'cohort') {
          const reference = cohortIdOfValue(item.value);
          if (reference !== null) pending.push(reference);
        }
      }
    }
  }
  return staticNeeded;
}

const BATCH = 1000;

/**
 * One filter in SQL: an exact predicate where PostgreSQL decides as docs/evaluation.md §4 does
 * (`is_set`, `is_not_set`, a missing value, cohorts), else a necessary one that narrows the
 * candidates the matcher then decides (a positive operator needs its key).
 */
function sqlFor(filter: PropertyFilter, source: CountSource, cohortSql: CohortSql | null): Predicate {
  const key = str(filter.key);
  const operator = filter.operator ?? 'exact';
  const has = { sql: `jsonb_exists(t.${source.propertiesColumn}, ?)`, params: [key] };
  const always = (value: boolean) => ({ sql: value ? 'true' : 'false', params: [], exact: true });
  if (filter.type === 'cohort') {
    const member = cohortSql ? cohortSql.member(cohortIdOfValue(filter.value)) : always(false);
    return operator === 'not_in' ? inverted(member) : member;
  }
  if (key === source.identity.key) return UNDECIDED;
  if (operator === 'is_set') return storableText(key) ? { ...has, exact: true } : always(false);
  if (operator === 'is_not_set') return storableText(key) ? { sql: `not (${has.sql})`, params: has.params, exact: true } : always(true);
  if (filter.value === undefined || filter.value === null) return always(false);
  const negated = typeof operator === 'string' && (operator.startsWith('not_') || operator === 'is_not');
  if (negated) return UNDECIDED;
  return storableText(key) ? { ...has, exact: false } : always(false);
}

/** One person filter; a distinct_id filter holds if it holds for any of the person's distinct ids (docs/evaluation.md §10). */
function matchOne(filter: PropertyFilter, bag: PropertyBag, identities: string[], identityKey: string, now: Date): boolean {
  if (str(filter.key) !== identityKey || identities.length === 0) return matchProperty(filter, bag, now);
  return identities.some((identity) => matchProperty(filter, { ...bag, [identityKey]: identity }, now));
}

function matchesAll(
  filters: PropertyFilter[],
  row: { bag: PropertyBag; identities: string[]; staticCohorts: number[] },
  source: CountSource,
  now: Date,
): boolean {
  const person = (filter: PropertyFilter) => matchOne(filter, row.bag, row.identities, source.identity.key, now);
  let inCohort: ((id: number) => boolean) | null = null;
  return filters.every((filter) => {
    if (filter.type !== 'cohort') return person(filter);
    inCohort ??= cohortMembership(source.cohorts?.definitions ?? new Map(), new Set(row.staticCohorts.map(Number)), person);
    const id = cohortIdOfValue(filter.value);
    const member = id !== null && inCohort(id);
    return filter.operator === 'not_in' ? !member : member;
  });
}

/**
 * How many rows of `source` match every filter (docs/evaluation.md §10): `COUNT(*)` when SQL decides
 * every filter, else the SQL-narrowed candidates streamed in keyset batches of 1000, selecting
 * only the properties the filters name, through the same matcher flags use.
 */
export async function countMatching(
  em: EntityManager,
  source: CountSource,
  filters: PropertyFilter[],
  /** What relative dates count from: the app's clock. */
  now: Date,
  /** The request's (src/http/request-work.ts): no further batch once it has ended. */
  signal?: AbortSignal,
): Promise<number> {
  const cohorts = source.cohorts;
  const cohortSql = cohorts ? new CohortSql(cohorts.definitions, cohorts.expansion, (leaf) => sqlFor(leaf, source, null)) : null;
  const parts = filters.map((filter) => ({ filter, ...sqlFor(filter, source, cohortSql) }));
  const where = [source.scope.sql, ...parts.map((p) => `(${p.sql})`)].join(' and ');
  const params = [...source.scope.params, ...parts.flatMap((p) => p.params)];
  const undecided = parts.filter((p) => !p.exact).map((p) => p.filter);
  if (undecided.length === 0) {
    const [row] = await em.execute<Array<{ count: string }>>(`select count(*) from ${source.table} t where ${where}`, params);
    return Number(row.count);
  }

  const wanted = new Set<string>();
  for (const filter of undecided) if (filter.type !== 'cohort') wanted.add(str(filter.key));
  const undecidedCohorts = undecided.filter((filter) => filter.type === 'cohort').map((filter) => cohortIdOfValue(filter.value));
  const staticNeeded = cohortNeeds(undecidedCohorts, cohorts?.definitions ?? new Map(), wanted);
  const keys = [...wanted].filter(storableText);
  const bagSql = keys.length
    ? `(select coalesce(jsonb_object_agg(e.key, e.value), '{}'::jsonb) from jsonb_each(t.${source.propertiesColumn}) e where e.key in (${keys.map(() => '?').join(', ')}))`
    : `'{}'::jsonb`;
  const staticSql = staticNeeded ? '(select array_agg(cp.cohort_id) from cohort_person cp where cp.person_id = t.id)' : 'null::int[]';
  const slices = eventLoopSlices();
  let matched = 0;
  let after = '0';
  for (;;) {
    signal?.throwIfAborted();
    const rows = await em.execute<Array<{ id: string; bag: PropertyBag; identities: string[] | null; static_cohorts: number[] | null }>>(
      `select t.id, ${bagSql} as bag, ${source.identity.sql} as identities, ${staticSql} as static_cohorts from ${source.table} t
        where ${where} and t.id > ? order by t.id limit ${BATCH}`,
      [...keys, ...params, after],
    );
    for (const row of rows) {
      await slices.pause();
      if (matchesAll(undecided, { bag: row.bag, identities: row.identities ?? [], staticCohorts: row.static_cohorts ?? [] }, source, now))
        matched++;
    }
    if (rows.length < BATCH) return matched;
    after = String(rows[rows.length - 1].id);
  }
}

/**
 * Persons of a project, as counted by blast radius and cohort counts; `cohorts` decides cohort
 * filters, `expansion` (the cached definitions' own, when there is one) measures them.
 */
export const personSource = (
  projectId: number,
  definitions: CohortDefinitions,
  expansion: CohortExpansion = new CohortExpansion(definitions),
): CountSource => ({
  table: 'person',
  propertiesColumn: 'properties',
  scope: { sql: 't.project_id = ?', params: [projectId] },
  identity: { key: 'distinct_id', sql: '(select array_agg(d.distinct_id) from person_distinct_id d where d.person_id = t.id)' },
  cohorts: { definitions, expansion },
});

/** Groups of one type in a project, as counted by blast radius. */
export const groupSource = (projectId: number, groupTypeIndex: number): CountSource => ({
  table: '"group"',
  propertiesColumn: 'group_properties',
  scope: { sql: 't.project_id = ? and t.group_type_index = ?', params: [projectId, groupTypeIndex] },
  identity: { key: '$group_key', sql: 'array[t.group_key]' },
});
