import type { EntityManager } from '@mikro-orm/postgresql';
import { storableText } from '../../db/sql';
import { matchProperty, str, type PropertyBag, type PropertyFilter } from '../../evaluation/property-match';

/** What is counted: a project's persons, or its groups of one type. */
export interface CountSource {
  table: 'person' | '"group"';
  propertiesColumn: 'properties' | 'group_properties';
  scope: { sql: string; params: unknown[] };
  /** The key the property bag gets besides the stored properties, and the SQL listing its values. */
  identity: { key: 'distinct_id' | '$group_key'; sql: string };
}

const BATCH = 1000;

/**
 * One filter in SQL: an exact predicate where PostgreSQL decides as evaluation.md §4 does
 * (`is_set`, `is_not_set`, a missing value, cohorts), else a necessary one that narrows the
 * candidates the matcher then decides (a positive operator needs its key).
 */
function sqlFor(filter: PropertyFilter, source: CountSource): { sql: string; params: unknown[]; exact: boolean } {
  const key = str(filter.key);
  const operator = filter.operator ?? 'exact';
  const has = { sql: `jsonb_exists(t.${source.propertiesColumn}, ?)`, params: [key] };
  const always = (value: boolean) => ({ sql: value ? 'true' : 'false', params: [], exact: true });
  if (filter.type === 'cohort') {
    // SPEC-GAP: cohorts are not built yet; a cohort that does not exist has no members (evaluation.md §5.3).
    return always(operator === 'not_in');
  }
  if (key === source.identity.key) return { sql: 'true', params: [], exact: false };
  if (operator === 'is_set') return storableText(key) ? { ...has, exact: true } : always(false);
  if (operator === 'is_not_set') return storableText(key) ? { sql: `not (${has.sql})`, params: has.params, exact: true } : always(true);
  if (filter.value === undefined || filter.value === null) return always(false);
  const negated = typeof operator === 'string' && (operator.startsWith('not_') || operator === 'is_not');
  if (negated) return { sql: 'true', params: [], exact: false };
  return storableText(key) ? { ...has, exact: false } : always(false);
}

/** A person's distinct_id filter holds if it holds for any of its distinct ids (evaluation.md §10). */
function matchesAll(filters: PropertyFilter[], bag: PropertyBag, identities: string[], identityKey: string, now: Date): boolean {
  return filters.every((filter) => {
    if (str(filter.key) !== identityKey || identities.length === 0) return matchProperty(filter, bag, now);
    return identities.some((identity) => matchProperty(filter, { ...bag, [identityKey]: identity }, now));
  });
}

/**
 * How many rows of `source` match every filter (evaluation.md §10): `COUNT(*)` when SQL decides
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

  const keys = [...new Set(undecided.map((f) => str(f.key)).filter(storableText))];
  const bagSql = keys.length
    ? `(select coalesce(jsonb_object_agg(e.key, e.value), '{}'::jsonb) from jsonb_each(t.${source.propertiesColumn}) e where e.key in (${keys.map(() => '?').join(', ')}))`
    : `'{}'::jsonb`;
  const now = new Date();
  let matched = 0;
  let after = '0';
  for (;;) {
    const rows = await em.execute<Array<{ id: string; bag: PropertyBag; identities: string[] | null }>>(
      `select t.id, ${bagSql} as bag, ${source.identity.sql} as identities from ${source.table} t
        where ${where} and t.id > ? order by t.id limit ${BATCH}`,
      [...keys, ...params, after],
    );
    for (const row of rows) {
      if (matchesAll(undecided, row.bag, row.identities ?? [], source.identity.key, now)) matched++;
    }
    if (rows.length < BATCH) return matched;
    after = String(rows[rows.length - 1].id);
  }
}
