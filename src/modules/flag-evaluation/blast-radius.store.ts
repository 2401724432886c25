import type { EntityManager } from '@mikro-orm/postgresql';
import { storableText } from '../../db/sql';
import { cohortIdOfValue, cohortMembership, type CohortDefinitions, type PropertyGroup } from '../../evaluation/cohort-match';
import { matchProperty, str, type PropertyBag, type PropertyFilter } from '../../evaluation/property-match';

/** What is counted: a project's persons, or its groups of one type. */
export interface CountSource {
  table: 'person' | '"group"';
  propertiesColumn: 'properties' | 'group_properties';
  scope: { sql: string; params: unknown[] };
  /** The key the property bag gets besides the stored properties, and the SQL listing its values. */
  identity: { key: 'distinct_id' | '$group_key'; sql: string };
  /** Persons only: the project's non-deleted cohorts, for cohort filters (docs/evaluation.md §5). */
  cohorts?: CohortDefinitions;
}

type Predicate = { sql: string; params: unknown[]; exact: boolean };

const isGroup = (value: unknown): value is PropertyGroup =>
  value !== null && typeof value === 'object' && Array.isArray((value as PropertyGroup).values);

/** A leaf's `negation` (cohort property groups): exact predicates invert, narrowing ones cannot. */
function inverted(predicate: Predicate): Predicate {
  return predicate.exact
    ? { sql: `not (${predicate.sql})`, params: predicate.params, exact: true }
    : { sql: 'true', params: [], exact: false };
}

function combined(parts: Predicate[], joiner: 'and' | 'or'): Predicate {
  if (parts.length === 0) return { sql: 'true', params: [], exact: true };
  return {
    sql: parts.map((p) => `(${p.sql})`).join(` ${joiner} `),
    params: parts.flatMap((p) => p.params),
    exact: parts.every((p) => p.exact),
  };
}

/**
 * Membership of a cohort in SQL: `EXISTS` for a static cohort; a dynamic cohort's property group
 * with AND/OR kept, each person leaf as `sqlFor` makes it. Exact when every part is; otherwise a
 * necessary condition and the matcher decides the candidates.
 */
function cohortSql(id: number | null, source: CountSource, path: ReadonlySet<number>): Predicate {
  const cohort = id === null ? undefined : source.cohorts?.get(id);
  if (!cohort || path.has(id!)) return { sql: 'false', params: [], exact: true };
  if (cohort.isStatic)
    return { sql: 'exists (select 1 from cohort_person cp where cp.cohort_id = ? and cp.person_id = t.id)', params: [id], exact: true };
  if (!isGroup(cohort.properties)) return { sql: 'false', params: [], exact: true };
  const inner = new Set([...path, id!]);
  const group = (value: PropertyGroup): Predicate =>
    combined(
      value.values.map((item) => (isGroup(item) ? group(item) : leaf(item))),
      value.type === 'OR' ? 'or' : 'and',
    );
  const leaf = (item: PropertyFilter): Predicate => {
    let predicate: Predicate;
    if (item.type === 'person') predicate = sqlFor(item, source);
    else if (item.type === 'cohort') predicate = cohortSql(cohortIdOfValue(item.value), source, inner);
    else predicate = { sql: 'false', params: [], exact: true };
    return item.negation === true ? inverted(predicate) : predicate;
  };
  return group(cohort.properties);
}

/** The person keys and whether static memberships are needed to decide a cohort with the matcher. */
function cohortNeeds(id: number | null, source: CountSource, keys: Set<string>, seen: Set<number>): boolean {
  const cohort = id === null ? undefined : source.cohorts?.get(id);
  if (!cohort || seen.has(id!)) return false;
  seen.add(id!);
  if (cohort.isStatic) return true;
  let staticNeeded = false;
  const walk = (value: unknown) => {
    if (isGroup(value)) value.values.forEach(walk);
    else if (value && typeof value === 'object') {
      const item = value as PropertyFilter;
      if (item.type === 'person') keys.add(str(item.key));
      else if (item.type === 'cohort') staticNeeded = cohortNeeds(cohortIdOfValue(item.value), source, keys, seen) || staticNeeded;
    }
  };
  walk(cohort.properties);
  return staticNeeded;
}

const BATCH = 1000;

/**
 * One filter in SQL: an exact predicate where PostgreSQL decides as docs/evaluation.md §4 does
 * (`is_set`, `is_not_set`, a missing value, cohorts), else a necessary one that narrows the
 * candidates the matcher then decides (a positive operator needs its key).
 */
function sqlFor(filter: PropertyFilter, source: CountSource): Predicate {
  const key = str(filter.key);
  const operator = filter.operator ?? 'exact';
  const has = { sql: `jsonb_exists(t.${source.propertiesColumn}, ?)`, params: [key] };
  const always = (value: boolean) => ({ sql: value ? 'true' : 'false', params: [], exact: true });
  if (filter.type === 'cohort') {
    const member = cohortSql(cohortIdOfValue(filter.value), source, new Set());
    return operator === 'not_in' ? inverted(member) : member;
  }
  if (key === source.identity.key) return { sql: 'true', params: [], exact: false };
  if (operator === 'is_set') return storableText(key) ? { ...has, exact: true } : always(false);
  if (operator === 'is_not_set') return storableText(key) ? { sql: `not (${has.sql})`, params: has.params, exact: true } : always(true);
  if (filter.value === undefined || filter.value === null) return always(false);
  const negated = typeof operator === 'string' && (operator.startsWith('not_') || operator === 'is_not');
  if (negated) return { sql: 'true', params: [], exact: false };
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
    inCohort ??= cohortMembership(source.cohorts ?? new Map(), new Set(row.staticCohorts.map(Number)), person);
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
export async function countMatching(em: EntityManager, source: CountSource, filters: PropertyFilter[]): Promise<number> {
  const parts = filters.map((filter) => ({ filter, ...sqlFor(filter, source) }));
  const where = [source.scope.sql, ...parts.map((p) => `(${p.sql})`)].join(' and ');
  const params = [...source.scope.params, ...parts.flatMap((p) => p.params)];
  const undecided = parts.filter((p) => !p.exact).map((p) => p.filter);
  if (undecided.length === 0) {
    const [row] = await em.execute<Array<{ count: string }>>(`select count(*) from ${source.table} t where ${where}`, params);
    return Number(row.count);
  }

  const wanted = new Set<string>();
  let staticNeeded = false;
  for (const filter of undecided) {
    if (filter.type === 'cohort') staticNeeded = cohortNeeds(cohortIdOfValue(filter.value), source, wanted, new Set()) || staticNeeded;
    else wanted.add(str(filter.key));
  }
  const keys = [...wanted].filter(storableText);
  const bagSql = keys.length
    ? `(select coalesce(jsonb_object_agg(e.key, e.value), '{}'::jsonb) from jsonb_each(t.${source.propertiesColumn}) e where e.key in (${keys.map(() => '?').join(', ')}))`
    : `'{}'::jsonb`;
  const staticSql = staticNeeded ? '(select array_agg(cp.cohort_id) from cohort_person cp where cp.person_id = t.id)' : 'null::int[]';
  const now = new Date();
  let matched = 0;
  let after = '0';
  for (;;) {
    const rows = await em.execute<Array<{ id: string; bag: PropertyBag; identities: string[] | null; static_cohorts: number[] | null }>>(
      `select t.id, ${bagSql} as bag, ${source.identity.sql} as identities, ${staticSql} as static_cohorts from ${source.table} t
        where ${where} and t.id > ? order by t.id limit ${BATCH}`,
      [...keys, ...params, after],
    );
    for (const row of rows) {
      if (matchesAll(undecided, { bag: row.bag, identities: row.identities ?? [], staticCohorts: row.static_cohorts ?? [] }, source, now))
        matched++;
    }
    if (rows.length < BATCH) return matched;
    after = String(rows[rows.length - 1].id);
  }
}

/** Persons of a project, as counted by blast radius and cohort counts; `cohorts` decides cohort filters. */
export const personSource = (projectId: number, cohorts: CohortDefinitions): CountSource => ({
  table: 'person',
  propertiesColumn: 'properties',
  scope: { sql: 't.project_id = ?', params: [projectId] },
  identity: { key: 'distinct_id', sql: '(select array_agg(d.distinct_id) from person_distinct_id d where d.person_id = t.id)' },
  cohorts,
});

/** Groups of one type in a project, as counted by blast radius. */
export const groupSource = (projectId: number, groupTypeIndex: number): CountSource => ({
  table: '"group"',
  propertiesColumn: 'group_properties',
  scope: { sql: 't.project_id = ? and t.group_type_index = ?', params: [projectId, groupTypeIndex] },
  identity: { key: '$group_key', sql: 'array[t.group_key]' },
});
