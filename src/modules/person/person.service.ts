import { accessProject } from '../../auth/access';
import type { AppContext } from '../../context';
import { requestErrors } from '../../errors';
import { clampPage, type Page } from '../../pagination';
import type { PersonListArgs } from './person.inputs';
import { Person } from './person.entity';
import { PersonStore } from './person.store';
import { isUuid } from '../../validation/fields';

/** Reads of persons (docs/ingestion.md §6); persons are written only by ingestion. */
export const PersonService = {
  async list(ctx: AppContext, projectRef: unknown, args: PersonListArgs): Promise<Page<Person>> {
    const { project } = await accessProject(ctx, projectRef, 'person:read');
    const { limit, offset } = clampPage(args);
    return PersonStore.page(ctx.em, project.id, { distinctId: args.distinctId, search: args.search }, limit, offset);
  },

  /** By integer id or uuid; anything else, another project's person or one merged away is 404. */
  async get(ctx: AppContext, projectRef: unknown, ref: string): Promise<Person> {
    const { project } = await accessProject(ctx, projectRef, 'person:read');
    const text = ref.trim();
    // Ids are read as JavaScript numbers (the entity maps bigint so), so only safe integers can name a
    // person; a larger one would be rounded to some other id (or past bigint's range, a database error).
    const id = /^\d+$/.test(text) ? Number(text) : null;
    const where = id !== null && Number.isSafeInteger(id) ? { id } : isUuid(text) ? { uuid: text.toLowerCase() } : null;
    const person = where && (await ctx.em.findOne(Person, { project: project.id, ...where }));
    if (!person) throw requestErrors.notFound();
    return person;
  },
};
