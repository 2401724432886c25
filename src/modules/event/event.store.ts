import type { EntityManager } from '@mikro-orm/postgresql';
import { windowPage, type Page } from '../../pagination';
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
    return windowPage(qb, limit, offset, (row) => em.map(Event, row));
  },
};
