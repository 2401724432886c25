import { accessProject } from '../../auth/access';
import type { AppContext } from '../../context';
import { fieldErrors } from '../../errors';
import { clampPage, type Page } from '../../pagination';
import { parseTimestamp } from '../ingestion/capture.timestamp';
import type { EventListArgs } from './event.inputs';
import { Event } from './event.entity';
import { windowPage } from './window-page';
import { isUuid } from '../../validation/fields';

function time(value: string | null | undefined, attr: 'after' | 'before'): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = parseTimestamp(value);
  if (!date) throw fieldErrors.notADateTime(attr);
  return date;
}

/** Reads of events (docs/ingestion.md §6): newest first, then the newest insert. */
export const EventService = {
  async list(ctx: AppContext, projectRef: unknown, args: EventListArgs): Promise<Page<Event>> {
    const { project } = await accessProject(ctx, projectRef, 'query:read');
    const { limit, offset } = clampPage(args);
    const [after, before] = [time(args.after, 'after'), time(args.before, 'before')];
    // SPEC-GAP: a person_id that is not a uuid is refused like other malformed filters.
    if (args.personId && !isUuid(args.personId)) throw fieldErrors.notAUuid('person_id');
    const qb = ctx.em.createQueryBuilder(Event, 'e').select(['e.*']).where({ project: project.id });
    if (args.event) qb.andWhere({ event: args.event });
    if (args.distinctId) qb.andWhere({ distinctId: args.distinctId });
    if (args.personId) qb.andWhere({ personId: args.personId.toLowerCase() });
    if (after) qb.andWhere({ timestamp: { $gt: after } });
    if (before) qb.andWhere({ timestamp: { $lt: before } });
    qb.orderBy({ timestamp: 'desc', id: 'desc' });
    return windowPage(ctx.em, Event, qb, limit, offset);
  },
};
