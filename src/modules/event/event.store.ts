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

  /**
   * The distinct event names of a project, most recently seen first (ties by name), at most `limit`,
   * those containing `search` (case-insensitive, a plain substring) when given. The names are walked
   * on the (project_id, event, timestamp) index one name at a time (a loose index scan: one probe per
   * distinct name, however many events each has), at most `EVENT_NAMES_SCANNED` of them in name order,
   * and each name's latest timestamp is one more probe of the same index.
   */
  async names(em: EntityManager, projectId: number, search: string | null, limit: number): Promise<string[]> {
    // Bound as parameters by the driver (knex's raw), not spliced into the text: a `?` in the search must stay a `?`.
    const { rows }: { rows: Array<{ event: string }> } = await em.getKnex().raw(
      `with recursive names(event) as (
         (select e.event from event e where e.project_id = ? order by e.event limit 1)
         union all
         select (select e.event from event e where e.project_id = ? and e.event > n.event order by e.event limit 1)
           from names n where n.event is not null
       ), walked as (select event from names where event is not null limit ?)
       select w.event from walked w
        cross join lateral (select max(e.timestamp) as seen from event e where e.project_id = ? and e.event = w.event) last
        where ?::text is null or strpos(lower(w.event), lower(?::text)) > 0
        order by last.seen desc nulls last, w.event
        limit ?`,
      [projectId, projectId, EVENT_NAMES_SCANNED, projectId, search, search, limit],
    );
    return rows.map((row) => row.event);
  },
};

/** How many distinct event names `EventStore.names` walks at most (docs/graphql.md, "Event names"). */
export const EVENT_NAMES_SCANNED = 10_000;
