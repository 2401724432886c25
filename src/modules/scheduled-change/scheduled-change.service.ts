import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { accessProject, callerReference, parseId, type ProjectAccess, projectReference } from '../../auth/access';
import type { AppContext } from '../../context';
import { AppError, fieldErrors, requestErrors, ValidationError } from '../../errors';
import { enqueueJob } from '../../jobs/job-engine';
import { SCHEDULED_CHANGES_QUEUE } from '../../jobs/job-queues';
import { findPage, type Page, type PageArgs } from '../../pagination';
import { pyRepr } from '../../validation/python';
import { FeatureFlag } from '../feature-flag/feature-flag.entity';
import { requireFlagEditor, updateFlag } from '../feature-flag/feature-flag.service';
import { ScheduledChange } from './scheduled-change.entity';
import { scheduledChangeErrors } from './scheduled-change.errors';
import { flagPatchFor, parseScheduledChangeInput, type ScheduledChangeFields } from './scheduled-change.validation';

export interface ScheduledChangeListArgs extends PageArgs {
  modelName?: string | null;
  recordId?: string | null;
}

/** What the job carries: the change, and the time it was enqueued for (an edit enqueues anew). */
export interface ScheduledChangeJob {
  id: number;
  scheduledAt: string;
}

/** Thrown inside a dry run's transaction to roll it back. */
class DryRunDone extends Error {}

async function findChange(em: EntityManager, projectId: number, id: unknown, lockMode?: LockMode): Promise<ScheduledChange> {
  const changeId = parseId(id);
  const change = changeId ? await em.findOne(ScheduledChange, { id: changeId, project: projectId }, lockMode ? { lockMode } : {}) : null;
  if (!change) throw requestErrors.notFound();
  return change;
}

/** The flag a change names, in the project and not deleted; else 400 at `record_id`. */
async function targetFlag(em: EntityManager, projectId: number, recordId: string): Promise<FeatureFlag> {
  const flagId = parseId(recordId);
  const flag = flagId ? await em.findOne(FeatureFlag, { id: flagId, project: projectId, deleted: false }) : null;
  if (!flag) throw fieldErrors.doesNotExist('record_id', pyRepr(recordId));
  return flag;
}

/** Editing or removing a change needs the right to edit its flag, while the flag exists (403 before 400, docs/rest-api.md §1.3). */
async function requireEditorOfTarget(em: EntityManager, access: ProjectAccess, change: ScheduledChange): Promise<void> {
  const flagId = parseId(change.recordId);
  const flag = flagId ? await em.findOne(FeatureFlag, { id: flagId, project: access.project.id }) : null;
  if (flag) await requireFlagEditor(em, access, flag);
}

/**
 * Applies the change's flag PATCH in a transaction that is always rolled back: the flag rules
 * (edit rights, validation) refuse now what could not apply later. A refusal of the flag's fields
 * is a 400 at `payload`.
 */
async function dryRun(em: EntityManager, access: ProjectAccess, recordId: string, payload: ScheduledChangeFields['payload']) {
  try {
    await em.transactional(async (trx) => {
      const flag = await targetFlag(trx, access.project.id, recordId);
      await updateFlag(trx, access, flag, flagPatchFor(flag, payload!));
      throw new DryRunDone();
    });
  } catch (error) {
    if (error instanceof DryRunDone) return;
    if (error instanceof ValidationError && error.attr !== 'record_id') throw new ValidationError(error.code, error.detail, 'payload');
    throw error;
  }
}

/** Scheduled changes to flags (docs/scheduled-changes.md); both transports call these. */
export const ScheduledChangeService = {
  async list(ctx: AppContext, projectRef: unknown, args: ScheduledChangeListArgs): Promise<Page<ScheduledChange>> {
    const { project } = await accessProject(ctx, projectRef, 'feature_flag:read');
    const where: Record<string, unknown> = { project: project.id };
    if (args.modelName) where.modelName = args.modelName;
    if (args.recordId) where.recordId = args.recordId;
    return findPage(ctx.em, ScheduledChange, where, { scheduledAt: 'asc', id: 'asc' }, args);
  },

  async get(ctx: AppContext, projectRef: unknown, id: unknown): Promise<ScheduledChange> {
    const { project } = await accessProject(ctx, projectRef, 'feature_flag:read');
    return findChange(ctx.em, project.id, id);
  },

  async create(ctx: AppContext, projectRef: unknown, input: unknown): Promise<ScheduledChange> {
    const access = await accessProject(ctx, projectRef, 'feature_flag:write');
    const fields = parseScheduledChangeInput(input, 'create');
    await dryRun(ctx.em, access, fields.recordId!, fields.payload);
    return ctx.em.transactional(async (em) => {
      const change = em.create(ScheduledChange, {
        project: projectReference(em, access),
        recordId: fields.recordId!,
        modelName: fields.modelName ?? 'FeatureFlag',
        payload: fields.payload!,
        scheduledAt: fields.scheduledAt!,
        createdBy: callerReference(em, access.caller),
      });
      await em.flush();
      await enqueue(em, change);
      return change;
    });
  },

  /**
   * A partial update of a change not yet run; a new `scheduled_at` enqueues the change anew (the job
   * for the old time finds it rescheduled and does nothing).
   */
  async update(
    ctx: AppContext,
    projectRef: unknown,
    id: unknown,
    input: unknown,
    mode: 'patch' | 'put' = 'patch',
  ): Promise<ScheduledChange> {
    const access = await accessProject(ctx, projectRef, 'feature_flag:write');
    const current = await findChange(ctx.em, access.project.id, id);
    await requireEditorOfTarget(ctx.em, access, current);
    // PUT (DRF's full update) needs what a create needs.
    const fields = parseScheduledChangeInput(input, mode === 'put' ? 'create' : 'update');
    if (current.executedAt || current.failureReason) throw scheduledChangeErrors.alreadyRun();
    await dryRun(
      ctx.em,
      access,
      fields.recordId ?? current.recordId,
      fields.payload ?? (current.payload as ScheduledChangeFields['payload']),
    );
    return ctx.em.transactional(async (em) => {
      const change = await findChange(em, access.project.id, id, LockMode.PESSIMISTIC_WRITE);
      if (change.executedAt || change.failureReason) throw scheduledChangeErrors.alreadyRun();
      const moved = fields.scheduledAt !== undefined && fields.scheduledAt.getTime() !== change.scheduledAt.getTime();
      if (fields.recordId !== undefined) change.recordId = fields.recordId;
      if (fields.modelName !== undefined) change.modelName = fields.modelName;
      if (fields.payload !== undefined) change.payload = fields.payload;
      if (fields.scheduledAt !== undefined) change.scheduledAt = fields.scheduledAt;
      await em.flush();
      if (moved) await enqueue(em, change);
      return change;
    });
  },

  /** Removes a change; its pending job finds nothing and does nothing. */
  async delete(ctx: AppContext, projectRef: unknown, id: unknown): Promise<ScheduledChange> {
    const access = await accessProject(ctx, projectRef, 'feature_flag:write');
    const change = await findChange(ctx.em, access.project.id, id);
    await requireEditorOfTarget(ctx.em, access, change);
    await ctx.em.nativeDelete(ScheduledChange, { id: change.id });
    return change;
  },
};

function enqueue(em: EntityManager, change: ScheduledChange): Promise<string> {
  const job: ScheduledChangeJob = { id: change.id, scheduledAt: change.scheduledAt.toISOString() };
  return enqueueJob(em, SCHEDULED_CHANGES_QUEUE, job, change.scheduledAt);
}

/** A refusal's text for `failure_reason`: the API's message, never internals. */
export function failureReasonOf(error: unknown): string {
  if (error instanceof AppError) return error.attr ? `${error.attr}: ${error.detail}` : error.detail;
  return 'The change could not be applied.';
}
