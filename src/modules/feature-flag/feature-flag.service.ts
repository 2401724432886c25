import { flagErrors } from './feature-flag.errors';
import { refuseUniqueViolation } from '../../db/unique-violation';
import { cohortInfoLoader } from '../cohort/cohort.lookups';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { accessProject, parseId, type ProjectAccess, callerReference, projectReference } from '../../auth/access';
import type { AppContext } from '../../context';
import { authErrors, requestErrors } from '../../errors';
import { clampPage, type Page, type PageArgs } from '../../pagination';
import { Dashboard } from '../dashboard/dashboard.entity';
import { Experiment } from '../experiment/experiment.entity';
import { User } from '../user/user.entity';
import { FeatureFlag } from './feature-flag.entity';
import { FeatureFlagStore, type FlagListFilters, type FlagRead } from './feature-flag.store';
import { changingDefinitions } from '../flag-evaluation/definitions-changes';
import { validateFlagInput, type FlagChanges, type FlagValidationLookups, type WriteMode } from './feature-flag.validation';
import { canEditFlags } from './feature-flag.permissions';
import { insertUsageDashboard, rekeyUsageDashboard } from '../dashboard/usage-dashboard';
import { flagSnapshot, logFlagCreated, logFlagUpdated } from '../activity/activity.log';
import { flagStatus, needsLastCall, type FlagStatus } from './flag-status';

export type FlagListArgs = PageArgs & FlagListFilters;

/** The rules of the flag resource (docs/rest-api.md §3); both transports call these. */
export const FeatureFlagService = {
  /** Whether the caller may change the flag: access checked here, the rule decided for a whole page by the request's loader. */
  async canEdit(ctx: AppContext, flag: FeatureFlag): Promise<boolean> {
    const access = await accessProject(ctx, flag.project.id, 'feature_flag:read');
    return ctx.loaders.canEditFlag.load({ flag, access });
  },

  async list(ctx: AppContext, projectRef: unknown, args: FlagListArgs): Promise<Page<FeatureFlag>> {
    const { project } = await accessProject(ctx, projectRef, 'feature_flag:read');
    const { limit, offset } = clampPage(args);
    const page = await FeatureFlagStore.page(ctx.em, project.id, args, limit, offset, new Date(ctx.clock.now()));
    // `experiment_set` and the creator ride on the rows too, so a page costs no extra statement for them.
    return { ...page, results: page.results.map((read) => primed(ctx, read)) };
  },

  /** Who created the project's flags (a list's creator filter offers them), by id; users gone are left out. */
  async creators(ctx: AppContext, projectRef: unknown): Promise<User[]> {
    const { project } = await accessProject(ctx, projectRef, 'feature_flag:read');
    const users = await ctx.loaders.user.loadMany(await FeatureFlagStore.creatorIds(ctx.em, project.id));
    return users.filter((user): user is User => user !== null && !(user instanceof Error));
  },

  /** When the flag was last evaluated (its newest `$feature_flag_called`), null for never (docs/stale-flags.md). */
  lastCalledAt(ctx: AppContext, flag: Pick<FeatureFlag, 'project' | 'key'>): Promise<Date | null> {
    return ctx.loaders.flagLastCall.load({ projectId: flag.project.id, key: flag.key });
  },

  /** active, stale or deleted, and why (docs/stale-flags.md); the last evaluation is only read when the rule needs it. */
  async status(ctx: AppContext, flag: FeatureFlag): Promise<FlagStatus> {
    const now = new Date(ctx.clock.now());
    const lastCalledAt = needsLastCall(flag, now) ? await FeatureFlagService.lastCalledAt(ctx, flag) : null;
    return flagStatus(flag, lastCalledAt, now);
  },

  async get(ctx: AppContext, projectRef: unknown, id: unknown): Promise<FeatureFlag> {
    const { project } = await accessProject(ctx, projectRef, 'feature_flag:read');
    const flagId = parseId(id);
    if (!flagId) throw requestErrors.notFound();
    return found(ctx, await FeatureFlagStore.byId(ctx.reads, project.id, flagId));
  },

  async getByKey(ctx: AppContext, projectRef: unknown, key: string): Promise<FeatureFlag> {
    const { project } = await accessProject(ctx, projectRef, 'feature_flag:read');
    return found(ctx, await FeatureFlagStore.byKey(ctx.reads, project.id, key));
  },

  async create(ctx: AppContext, projectRef: unknown, input: unknown): Promise<FeatureFlag> {
    const access = await accessProject(ctx, projectRef, 'feature_flag:write');
    return changingDefinitions(ctx.em, access.project.id, () =>
      withUniqueKey(() => ctx.em.transactional((em) => createFlag(em, access, input))),
    );
  },

  /** PATCH (partial) and PUT (key required, conditions required). */
  async update(
    ctx: AppContext,
    projectRef: unknown,
    id: unknown,
    input: unknown,
    mode: Exclude<WriteMode, 'create'> = 'patch',
  ): Promise<FeatureFlag> {
    const access = await accessProject(ctx, projectRef, 'feature_flag:write');
    return changingDefinitions(ctx.em, access.project.id, () =>
      withUniqueKey(() =>
        ctx.em.transactional(async (em) => {
          // The row lock makes the version check and the write one step (§3.9).
          const flag = await findFlag(em, access.project.id, id, LockMode.PESSIMISTIC_WRITE);
          return updateFlag(em, access, flag, input, mode);
        }),
      ),
    );
  },
};

/**
 * A read-only flag, no unit of work. What rode on its row (`experiment_set`, the creator, the last call) primes
 * their loaders, which stay the one way field resolvers reach them.
 */
function primed(ctx: AppContext, { flag, experimentIds, creator, lastCalledAt }: FlagRead): FeatureFlag {
  ctx.loaders.flagExperimentIds.prime(flag.id, experimentIds);
  ctx.loaders.flagLastCall.prime({ projectId: flag.project.id, key: flag.key }, lastCalledAt);
  if (creator) ctx.loaders.user.prime(flag.createdBy!.id, creator);
  return flag;
}

function found(ctx: AppContext, read: FlagRead | null): FeatureFlag {
  if (!read) throw requestErrors.notFound();
  return primed(ctx, read);
}

/**
 * A flag create inside the caller's transaction: every rule of the resource, whoever writes
 * (the flag routes, or an experiment creating its flag without a flag scope).
 */
export async function createFlag(em: EntityManager, access: ProjectAccess, input: unknown): Promise<FeatureFlag> {
  const keys = keyHolders(em, access.project.id, null);
  const changes = await validateFlagInput(input, 'create', lookups(em, access, keys.taken));
  await keys.releaseDeletedHolder(changes.key!);
  const flag = em.create(FeatureFlag, {
    project: projectReference(em, access),
    key: changes.key!,
    createdBy: callerReference(em, access.caller),
    lastModifiedBy: callerReference(em, access.caller),
  });
  applyChanges(flag, changes);
  // docs/README.md decision 12: every new flag gets its usage dashboard in the same transaction.
  flag.usageDashboardId = await insertUsageDashboard(em, access.project.id, access.caller.user.id, flag.key, false);
  await em.flush();
  await logFlagCreated(em, access, flag);
  return flag;
}

/** A flag update inside the caller's transaction: edit rights (403), validation (400), version (409). */
export async function updateFlag(
  em: EntityManager,
  access: ProjectAccess,
  flag: FeatureFlag,
  input: unknown,
  mode: Exclude<WriteMode, 'create'> = 'patch',
): Promise<FeatureFlag> {
  await requireFlagEditor(em, access, flag);
  const keys = keyHolders(em, access.project.id, flag.id);
  const changes = await validateFlagInput(input, mode, lookups(em, access, keys.taken));
  if (changes.version !== undefined && changes.version !== null && changes.version !== flag.version) {
    throw await staleVersion(em, flag);
  }
  if (changes.key !== undefined && changes.key !== flag.key) await keys.releaseDeletedHolder(changes.key);
  if (changes.key !== undefined && changes.key !== flag.key) await rekeyUsageDashboard(em, flag.usageDashboardId, changes.key);
  const before = flagSnapshot(flag);
  applyChanges(flag, changes);
  flag.version += 1;
  flag.lastModifiedBy = callerReference(em, access.caller);
  await em.flush();
  await logFlagUpdated(em, access, before, flag);
  // The after-change path every flag update takes (PATCH, PUT, GraphQL, scheduled changes:
  // docs/scheduled-changes.md): where webhooks announce the change.
  return flag;
}

export async function requireFlagEditor(em: EntityManager, access: ProjectAccess, flag: FeatureFlag): Promise<void> {
  const [canEdit] = await canEditFlags(() => em, access, [flag]);
  if (!canEdit) throw authErrors.cannotEditFlag();
}

export async function findFlag(em: EntityManager, projectId: number, id: unknown, lockMode?: LockMode): Promise<FeatureFlag> {
  const flagId = parseId(id);
  if (!flagId) throw requestErrors.notFound();
  const flag = await em.findOne(FeatureFlag, { id: flagId, project: projectId }, lockMode ? { lockMode } : {});
  if (!flag) throw requestErrors.notFound();
  return flag;
}

/**
 * Keys are unique per project among non-deleted flags; a soft-deleted flag holding the key is
 * hard-deleted by the write that takes it (§3.4), so at most one row per (project, key) exists.
 */
function keyHolders(em: EntityManager, projectId: number, selfId: number | null) {
  let deletedHolder: number | null = null;
  return {
    async taken(key: string): Promise<boolean> {
      const holder = await em.findOne(
        FeatureFlag,
        { project: projectId, key, ...(selfId ? { id: { $ne: selfId } } : {}) },
        { fields: ['id', 'deleted'] },
      );
      deletedHolder = holder?.deleted ? holder.id : null;
      return Boolean(holder && !holder.deleted);
    },
    async releaseDeletedHolder(key: string): Promise<void> {
      if (deletedHolder === null) return;
      if (await em.count(Experiment, { featureFlag: deletedHolder })) {
        throw flagErrors.keyHeldByExperiment();
      }
      await em.nativeDelete(FeatureFlag, { id: deletedHolder, project: projectId, key, deleted: true });
      em.getUnitOfWork().unsetIdentity(em.getReference(FeatureFlag, deletedHolder));
    },
  };
}

function lookups(em: EntityManager, access: ProjectAccess, keyTaken: (key: string) => Promise<boolean>): FlagValidationLookups {
  return {
    keyTaken,
    async existingDashboards(ids) {
      if (ids.length === 0) return [];
      const found = await em.find(Dashboard, { id: { $in: ids }, project: access.project.id }, { fields: ['id'] });
      return found.map((d) => d.id);
    },
    loadCohorts: cohortInfoLoader(em, access.project.id),
  };
}

function applyChanges(flag: FeatureFlag, changes: FlagChanges): void {
  const { version: _precondition, analyticsDashboards, ...fields } = changes;
  Object.assign(flag, fields);
  // Links are only ever added by a write (§3.1).
  if (analyticsDashboards)
    flag.analyticsDashboards = [...new Set([...flag.analyticsDashboards, ...analyticsDashboards])].sort((a, b) => a - b);
  if (changes.active === true) flag.performedRollback = false;
}

async function staleVersion(em: EntityManager, flag: FeatureFlag) {
  const writer = flag.lastModifiedBy ? await em.findOne(User, flag.lastModifiedBy.id, { fields: ['email'] }) : null;
  return flagErrors.updatedSince(writer?.email ?? null);
}

/** Two writers racing for one key: the unique index decides, and the loser gets the usual 400. */
export function withUniqueKey<T>(write: () => Promise<T>): Promise<T> {
  return refuseUniqueViolation(write, flagErrors.keyTaken);
}
