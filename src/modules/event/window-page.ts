import { raw } from '@mikro-orm/core';
import type { EntityManager, QueryBuilder } from '@mikro-orm/postgresql';
import type { Page } from '../../pagination';

/**
 * One page of a filtered query builder in one statement: the total rides on the rows as a
 * window count; only a page past the end needs a count of its own. (Persons, events, groups.)
 */
export async function windowPage<T extends object>(
  em: EntityManager,
  entity: new (...args: never[]) => T,
  qb: QueryBuilder<T, string>,
  limit: number,
  offset: number,
): Promise<Page<T>> {
  // Cloned before it runs: a clone of an executed builder reuses its cached SQL.
  const countQb = qb.clone().limit(undefined).offset(undefined).orderBy({});
  qb.addSelect(raw('count(*) over() as total_count')).limit(limit).offset(offset);
  const rows: Array<Record<string, unknown>> = await qb.execute('all', false);
  const count = rows.length > 0 ? Number(rows[0].total_count) : offset > 0 ? await countQb.getCount() : 0;
  const results = rows.map(({ total_count: _, ...row }) => em.map(entity, row));
  return { count, results, limit, offset };
}
