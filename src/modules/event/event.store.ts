import { raw } from '@mikro-orm/core';
import type { EntityManager, QueryBuilder } from '@mikro-orm/postgresql';
import type { Page } from '../../pagination';
import { Event } from './event.entity';

/** What an event list is narrowed by (each absent or null: no condition). */
export interface EventListFilters {
  event?: string | null;
  distinctId?: string | null;
  /** A lower-case uuid. */
  personId?: string | null;
  /** Strictly after / before. */
  after?: Date | null;
  before?: Date | null;
}

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

/** The event table's queries for reads. */
export const EventStore = {
  /** A project's events, newest first, then the newest insert: one statement, a second for a page past the end. */
  async page(em: EntityManager, projectId: number, filters: EventListFilters, limit: number, offset: number): Promise<Page<Event>> {
    const qb = em.createQueryBuilder(Event, 'e').select(['e.*']).where({ project: projectId });
    if (filters.event) qb.andWhere({ event: filters.event });
    if (filters.distinctId) qb.andWhere({ distinctId: filters.distinctId });
    if (filters.personId) qb.andWhere({ personId: filters.personId });
    if (filters.after) qb.andWhere({ timestamp: { $gt: filters.after } });
    if (filters.before) qb.andWhere({ timestamp: { $lt: filters.before } });
    qb.orderBy({ timestamp: 'desc', id: 'desc' });
    return windowPage(em, Event, qb, limit, offset);
  },
};
