import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { accessProject, callerReference, parseId, type ProjectAccess, projectReference } from '../../auth/access';
import type { AppContext } from '../../context';
import { containsPattern } from '../../db/sql';
import { requestErrors } from '../../errors';
import { findPage, type Page, type PageArgs } from '../../pagination';
import { requireObject } from '../../validation/fields';
import { isPlainObject } from '../../validation/python';
import { experimentSnapshot, logExperimentCreated, logExperimentDeleted, logExperimentUpdated } from '../activity/activity.log';
import { FeatureFlag } from '../feature-flag/feature-flag.entity';
import { createFlag, requireFlagEditor, updateFlag, withUniqueKey } from '../feature-flag/feature-flag.service';
import { changingDefinitions } from '../flag-evaluation/definitions-changes';
import { Experiment } from './experiment.entity';
import { experimentErrors } from './experiment.errors';
import { ExperimentStore } from './experiment.store';
import {
  checkDateOrder,
  flagVariants,
  validateExperimentFilters,
  validateExperimentInput,
  type ExperimentChanges,
} from './experiment.validation';

export type ExperimentStatus = 'draft' | 'running' | 'complete';

export interface ExperimentListArgs extends PageArgs {
  archived?: boolean | null;
  status?: ExperimentStatus | null;
  search?: string | null;
  createdById?: number | null;
}

/** Experiments and their linked flag (docs/experiments.md §1–§5). Flag changes are ordinary flag writes. */
export const ExperimentService = {
  /** The experiments using a flag, ascending id. Reached through a flag (feature_flag:read), it needs the experiments' own scope. */
  async usingFlag(ctx: AppContext, flag: Pick<FeatureFlag, 'id' | 'project'>): Promise<Experiment[]> {
    await accessProject(ctx, flag.project.id, 'experiment:read');
    return ctx.loaders.flagExperiments.load(flag.id);
  },

  async list(ctx: AppContext, projectRef: unknown, args: ExperimentListArgs): Promise<Page<Experiment>> {
    const { project } = await accessProject(ctx, projectRef, 'experiment:read');
    const where: Record<string, unknown> = { project: project.id };
    if (args.archived !== undefined && args.archived !== null) where.archived = args.archived;
    if (args.status === 'draft') where.startDate = null;
    if (args.status === 'running') Object.assign(where, { startDate: { $ne: null }, endDate: null });
    if (args.status === 'complete') Object.assign(where, { startDate: { $ne: null }, endDate: { $ne: null } });
    if (args.search) where.name = { $ilike: containsPattern(args.search) };
    if (args.createdById) where.createdBy = args.createdById;
    return findPage(ctx.em, Experiment, where, { createdAt: 'desc', id: 'desc' }, args);
  },

  async get(ctx: AppContext, projectRef: unknown, id: unknown): Promise<Experiment> {
    const { project } = await accessProject(ctx, projectRef, 'experiment:read');
    return findExperiment(ctx.em, project.id, id);
  },

  async create(ctx: AppContext, projectRef: unknown, body: unknown): Promise<Experiment> {
    const access = await accessProject(ctx, projectRef, 'experiment:write');
    const changes = validateExperimentInput(requireObject(body), 'create');
    checkDateOrder(changes.startDate ?? null, changes.endDate ?? null);
    validateExperimentFilters(changes, 'create');
    return changingDefinitions(ctx.em, access.project.id, () =>
      withUniqueKey(() =>
        ctx.em.transactional(async (em) => {
          // Creates for one (project, key) take turns, so two cannot both create the flag.
          await ExperimentStore.lockFlagKey(em, access.project.id, changes.featureFlagKey);
          const flag = await linkedFlag(em, access, changes);
          const experiment = em.create(Experiment, {
            project: projectReference(em, access),
            name: changes.name!,
            description: changes.description ?? null,
            startDate: changes.startDate ?? null,
            endDate: changes.endDate ?? null,
            featureFlag: flag,
            parameters: changes.parameters ?? {},
            secondaryMetrics: changes.secondaryMetrics ?? [],
            filters: changes.filters!,
            archived: changes.archived ?? false,
            createdBy: callerReference(em, access.caller),
          });
          await em.flush();
          await logExperimentCreated(em, access, experiment);
          return experiment;
        }),
      ),
    );
  },

  async update(ctx: AppContext, projectRef: unknown, id: unknown, body: unknown): Promise<Experiment> {
    const access = await accessProject(ctx, projectRef, 'experiment:write');
    return changingDefinitions(ctx.em, access.project.id, () =>
      ctx.em.transactional(async (em) => {
        const experiment = await findExperiment(em, access.project.id, id, LockMode.PESSIMISTIC_WRITE);
        const input = requireObject(body);
        const flag = await em.findOneOrFail(FeatureFlag, experiment.featureFlag.id);
        // Draft or not is judged on the stored state, before this write.
        const wasDraft = experiment.startDate === null;
        // SPEC-GAP: a launched experiment's variants cannot change at all, so that refusal answers
        // before the shape rules: a single variant is refused as a change, not as a bad shape (docs/experiments.md §4).
        if (!wasDraft) refuseVariantChange(flag, input.parameters);
        const changes = validateExperimentInput(input, 'patch');
        checkDateOrder(
          changes.startDate !== undefined ? changes.startDate : experiment.startDate,
          changes.endDate !== undefined ? changes.endDate : experiment.endDate,
        );
        validateExperimentFilters(changes, 'patch');
        if (changes.featureFlagKey !== undefined && changes.featureFlagKey !== flag.key) {
          throw experimentErrors.flagKeyFixed();
        }
        const flagChanges = wasDraft ? draftFlagChanges(flag, changes) : {};
        if (wasDraft && changes.startDate) flagChanges.active = true;
        if (Object.keys(flagChanges).length > 0) await updateFlag(em, access, flag, flagChanges);
        const { featureFlagKey: _immutable, ...fields } = changes;
        const before = experimentSnapshot(experiment);
        em.assign(experiment, fields);
        experiment.updatedAt = new Date(ctx.clock.now());
        await em.flush();
        await logExperimentUpdated(em, access, before, experiment);
        return experiment;
      }),
    );
  },

  /** Hard delete; the flag is soft-deleted unless another experiment still uses it (§5.1). */
  async delete(ctx: AppContext, projectRef: unknown, id: unknown): Promise<Experiment> {
    const access = await accessProject(ctx, projectRef, 'experiment:write');
    return changingDefinitions(ctx.em, access.project.id, () =>
      ctx.em.transactional(async (em) => {
        const experiment = await findExperiment(em, access.project.id, id, LockMode.PESSIMISTIC_WRITE);
        const flag = await em.findOneOrFail(FeatureFlag, experiment.featureFlag.id, { lockMode: LockMode.PESSIMISTIC_WRITE });
        await requireFlagEditor(em, access, flag);
        await em.nativeDelete(Experiment, { id: experiment.id });
        await logExperimentDeleted(em, access, experiment);
        const stillUsed = await em.count(Experiment, { featureFlag: flag.id });
        if (!stillUsed && !flag.deleted) await updateFlag(em, access, flag, { deleted: true });
        return experiment;
      }),
    );
  },
};

async function findExperiment(em: EntityManager, projectId: number, id: unknown, lockMode?: LockMode): Promise<Experiment> {
  const experimentId = parseId(id);
  const experiment = experimentId
    ? await em.findOne(Experiment, { id: experimentId, project: projectId }, lockMode ? { lockMode } : {})
    : null;
  if (!experiment) throw requestErrors.notFound();
  return experiment;
}

function variantsOf(flag: FeatureFlag): Array<Record<string, unknown>> {
  const multivariate = flag.filters.multivariate;
  const variants = isPlainObject(multivariate) ? multivariate.variants : null;
  return Array.isArray(variants) ? variants.filter(isPlainObject) : [];
}

/** §3: reuse an eligible non-deleted flag with the key (activating it on launch), else create one. */
async function linkedFlag(em: EntityManager, access: ProjectAccess, changes: ExperimentChanges): Promise<FeatureFlag> {
  const key = changes.featureFlagKey!;
  // Locked: a delete of the flag's last experiment that holds it finishes first, and its soft delete
  // then takes the flag out of this read (a new flag is made), instead of linking to a flag it deletes.
  const existing = await em.findOne(
    FeatureFlag,
    { project: access.project.id, key, deleted: false },
    { lockMode: LockMode.PESSIMISTIC_WRITE },
  );
  if (existing) {
    const variants = variantsOf(existing);
    if (variants.length < 2) throw experimentErrors.flagNotEligible();
    if (variants[0].key !== 'control') throw experimentErrors.controlNotFirst();
    if (changes.startDate && !existing.active) await updateFlag(em, access, existing, { active: true });
    return existing;
  }
  const parameters = changes.parameters ?? {};
  return createFlag(em, access, {
    key,
    name: `Feature Flag for Experiment ${changes.name}`,
    filters: {
      groups: [{ properties: [], rollout_percentage: 100 }],
      multivariate: { variants: flagVariants(parameters) },
      aggregation_group_type_index: parameters.aggregation_group_type_index ?? null,
    },
    active: Boolean(changes.startDate),
    ensureExperienceContinuity: false,
  });
}

/** A draft's variants and group index follow its parameters onto the flag (§4). */
function draftFlagChanges(flag: FeatureFlag, changes: ExperimentChanges): Record<string, unknown> {
  const parameters = changes.parameters;
  if (!parameters) return {};
  const carriesVariants = Object.prototype.hasOwnProperty.call(parameters, 'feature_flag_variants');
  const carriesIndex = Object.prototype.hasOwnProperty.call(parameters, 'aggregation_group_type_index');
  if (!carriesVariants && !carriesIndex) return {};
  const filters = { ...flag.filters };
  if (carriesVariants)
    filters.multivariate = { ...(isPlainObject(filters.multivariate) ? filters.multivariate : {}), variants: flagVariants(parameters) };
  if (carriesIndex) filters.aggregation_group_type_index = parameters.aggregation_group_type_index ?? null;
  if (!Object.prototype.hasOwnProperty.call(filters, 'groups')) filters.groups = [{ properties: [], rollout_percentage: 100 }];
  return { filters };
}

/**
 * A launched experiment keeps its flag's variants: the request may only restate the same keys,
 * each once (§4); changed percentages are stored in `parameters` only.
 */
function refuseVariantChange(flag: FeatureFlag, parameters: unknown): void {
  if (!isPlainObject(parameters) || !Object.prototype.hasOwnProperty.call(parameters, 'feature_flag_variants')) return;
  const sent = parameters.feature_flag_variants;
  const flagKeys = variantsOf(flag).map((variant) => variant.key);
  const sentKeys = Array.isArray(sent) ? sent.map((variant) => (isPlainObject(variant) ? variant.key : undefined)) : [];
  const sameKeys =
    sentKeys.length === flagKeys.length && new Set(sentKeys).size === sentKeys.length && sentKeys.every((key) => flagKeys.includes(key));
  if (!sameKeys) throw experimentErrors.variantsFixed();
}
