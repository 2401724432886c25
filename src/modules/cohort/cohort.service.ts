import type { EntityManager } from '@mikro-orm/postgresql';
import { accessProject, callerReference, parseId } from '../../auth/access';
import type { AppContext } from '../../context';
import { storableText } from '../../db/sql';
import { requestErrors } from '../../errors';
import { flagCohortIds } from '../../evaluation/cohort-match';
import { clampPage, type Page, type PageArgs } from '../../pagination';
import { requireObject } from '../../validation/fields';
import { cohortSnapshot, logCohortCreated, logCohortUpdated } from '../activity/activity.log';
import type { FeatureFlag } from '../feature-flag/feature-flag.entity';
import { changingDefinitions } from '../flag-evaluation/definitions-changes';
import { Cohort } from './cohort.entity';
import { cohortErrors } from './cohort.errors';
import { loadProjectCohorts } from './cohort.lookups';
import { CohortStore } from './cohort.store';
import { parseDistinctIds, validateCohortInput } from './cohort.validation';

async function findRow(em: EntityManager, projectId: number, id: unknown): Promise<Cohort> {
  const cohortId = parseId(id);
  if (cohortId === null) throw requestErrors.notFound();
  const cohort = await CohortStore.byId(em, projectId, cohortId);
  if (!cohort) throw requestErrors.notFound();
  return cohort;
}

/** Cohorts of a project (docs/cohorts.md): reads map rows to plain objects; writes are one transaction each. */
export const CohortService = {
  /** The cohorts a flag's conditions name, by id, through the request's loader; missing and foreign ones left out. */
  async namedBy(ctx: AppContext, flag: Pick<FeatureFlag, 'filters' | 'project'>): Promise<Cohort[]> {
    await accessProject(ctx, flag.project.id, 'cohort:read');
    const ids = [...new Set(flagCohortIds(flag.filters))].sort((a, b) => a - b);
    const found = await ctx.loaders.cohort.loadMany(ids);
    return found.filter(
      (cohort): cohort is Cohort => cohort !== null && !(cohort instanceof Error) && cohort.project.id === flag.project.id,
    );
  },

  /** Non-deleted cohorts, newest id first. */
  async list(ctx: AppContext, projectRef: unknown, args: PageArgs): Promise<Page<Cohort>> {
    const { project } = await accessProject(ctx, projectRef, 'cohort:read');
    const { limit, offset } = clampPage(args);
    return CohortStore.page(ctx.em, project.id, limit, offset);
  },

  /** Deleted cohorts too (`deleted: true`); another project's id is 404. */
  async get(ctx: AppContext, projectRef: unknown, id: unknown): Promise<Cohort> {
    const { project } = await accessProject(ctx, projectRef, 'cohort:read');
    return findRow(ctx.em, project.id, id);
  },

  async create(ctx: AppContext, projectRef: unknown, input: unknown): Promise<Cohort> {
    const access = await accessProject(ctx, projectRef, 'cohort:write');
    const projectId = access.project.id;
    return changingDefinitions(ctx.em, projectId, () =>
      ctx.em.transactional(async (em) => {
        await CohortStore.lockProject(em, projectId);
        const changes = await validateCohortInput(input, null, () => loadProjectCohorts(em, projectId));
        const cohort = em.create(Cohort, {
          project: access.project.id,
          name: changes.name!,
          description: changes.description ?? '',
          filters: changes.filters ?? null,
          isStatic: changes.isStatic ?? false,
          deleted: changes.deleted ?? false,
          createdBy: callerReference(em, access.caller),
        });
        await em.flush();
        await logCohortCreated(em, access, cohort);
        return { ...cohort, project: access.project };
      }),
    );
  },

  /** PATCH: absent fields unchanged; `deleted` soft-deletes and restores; `is_static` cannot change. */
  async update(ctx: AppContext, projectRef: unknown, id: unknown, input: unknown): Promise<Cohort> {
    const access = await accessProject(ctx, projectRef, 'cohort:write');
    const projectId = access.project.id;
    return changingDefinitions(ctx.em, projectId, () =>
      ctx.em.transactional(async (em) => {
        const cohortId = parseId(id);
        if (cohortId === null) throw requestErrors.notFound();
        await CohortStore.lockProject(em, projectId);
        const cohort = await em.findOne(Cohort, { id: cohortId, project: projectId });
        if (!cohort) throw requestErrors.notFound();
        const changes = await validateCohortInput(input, { id: cohort.id, name: cohort.name, isStatic: cohort.isStatic }, () =>
          loadProjectCohorts(em, projectId),
        );
        const before = cohortSnapshot(cohort);
        Object.assign(cohort, changes);
        await em.flush();
        await logCohortUpdated(em, access, before, cohort);
        return cohort;
      }),
    );
  },

  /**
   * Static members by distinct id (docs/cohorts.md): each resolves to the project's person
   * (unknown ones skipped, repeats a no-op). Static membership is not in the SDK payload, so the
   * cached definitions stay valid.
   */
  async addPersons(ctx: AppContext, projectRef: unknown, id: unknown, input: unknown): Promise<Cohort> {
    const access = await accessProject(ctx, projectRef, 'cohort:write');
    const cohort = await findRow(ctx.em, access.project.id, id);
    const body = requireObject(input);
    const distinctIds = parseDistinctIds(body.distinctIds).filter(storableText);
    if (!cohort.isStatic) throw cohortErrors.notStatic();
    if (cohort.deleted) throw cohortErrors.deleted();
    if (distinctIds.length) await CohortStore.addStaticMembers(ctx.em, access.project.id, cohort.id, distinctIds);
    return cohort;
  },
};
