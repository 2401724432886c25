import { raw, type EntityName, type FilterQuery, type QueryOrderMap } from '@mikro-orm/core';
import type { EntityManager, QueryBuilder } from '@mikro-orm/postgresql';

/** Pagination rules shared by every list (docs/README.md decision 5). */
export interface PageArgs {
  limit?: number | null;
  offset?: number | null;
}

export interface Page<T> {
  count: number;
  results: T[];
  limit: number;
  offset: number;
}

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

/** Missing, invalid or non-positive `limit` → 100, clamped to 1000; invalid or negative `offset` → 0. */
export function clampPage(args: PageArgs): { limit: number; offset: number } {
  const limit = Number.isInteger(args.limit) && (args.limit as number) > 0 ? Math.min(args.limit as number, MAX_LIMIT) : DEFAULT_LIMIT;
  const offset = Number.isInteger(args.offset) && (args.offset as number) > 0 ? (args.offset as number) : 0;
  return { limit, offset };
}

/** One page of an entity's rows with the total: for lists whose rows need no window tricks. */
export async function findPage<T extends object>(
  em: EntityManager,
  entity: EntityName<T>,
  where: FilterQuery<T>,
  orderBy: QueryOrderMap<T>,
  args: PageArgs,
): Promise<Page<T>> {
  const { limit, offset } = clampPage(args);
  const [results, count] = await em.findAndCount(entity, where, { orderBy, limit, offset });
  return { count, results, limit, offset };
}

/**
 * One page of a filtered query builder in one statement, each row read by `read`: the total rides on
 * the rows as a window count; only a page past the end needs a count of its own. (Flags, persons,
 * events, groups.)
 */
export async function windowPage<T extends object, R>(
  qb: QueryBuilder<T, string>,
  limit: number,
  offset: number,
  read: (row: Record<string, unknown>) => R,
): Promise<Page<R>> {
  // Cloned before it runs: a clone of an executed builder reuses its cached SQL.
  const countQb = qb.clone().limit(undefined).offset(undefined).orderBy({});
  qb.addSelect(raw('count(*) over() as total_count')).limit(limit).offset(offset);
  const rows: Array<Record<string, unknown>> = await qb.execute('all', false);
  const count = rows.length > 0 ? Number(rows[0].total_count) : offset > 0 ? await countQb.getCount() : 0;
  const results = rows.map(({ total_count: _, ...row }) => read(row));
  return { count, results, limit, offset };
}
