import { accessProject } from '../../auth/access';
import type { AppContext } from '../../context';
import { fieldErrors } from '../../errors';
import { clampPage, type Page } from '../../pagination';
import { parseTimestamp } from '../ingestion/capture.timestamp';
import type { EventListArgs, EventNameArgs } from './event.inputs';
import type { Event } from './event.entity';
import { EventStore } from './event.store';
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
    return EventStore.page(
      ctx.em,
      project.id,
      { event: args.event, distinctId: args.distinctId, personId: args.personId?.toLowerCase(), after, before },
      limit,
      offset,
    );
  },

  /**
   * Distinct event names the project has stored, most recently seen first: what the console offers
   * when a metric names an event. Same scope as the event list (`query:read`): a name is read off the
   * events.
   */
  async names(ctx: AppContext, projectRef: unknown, args: EventNameArgs): Promise<string[]> {
    const { project } = await accessProject(ctx, projectRef, 'query:read');
    const search = args.search ? args.search : null;
    if (search !== null && search.length > MAX_NAME_SEARCH) throw fieldErrors.maxLength('search', MAX_NAME_SEARCH);
    const limit = Number.isInteger(args.limit) && (args.limit as number) > 0 ? Math.min(args.limit as number, 1000) : 100;
    return ctx.work.run((signal) => {
      signal.throwIfAborted();
      return EventStore.names(ctx.em, project.id, search, limit);
    });
  },
};

const MAX_NAME_SEARCH = 200;
