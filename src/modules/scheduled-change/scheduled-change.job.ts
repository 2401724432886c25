import { LockMode } from '@mikro-orm/core';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { accessProject } from '../../auth/access';
import { operatorContext } from '../../cli/operator-context';
import { AppError } from '../../errors';
import type { JobHandler } from '../../jobs/job-engine';
import { SCHEDULED_CHANGES_QUEUE } from '../../jobs/job-queues';
import { FeatureFlag } from '../feature-flag/feature-flag.entity';
import { updateFlag } from '../feature-flag/feature-flag.service';
import { changingDefinitions } from '../flag-evaluation/definitions-changes';
import { User } from '../user/user.entity';
import { UserStore } from '../user/user.store';
import { ScheduledChange } from './scheduled-change.entity';
import { scheduledChangeErrors } from './scheduled-change.errors';
import { failureReasonOf, type ScheduledChangeJob } from './scheduled-change.service';
import { flagPatchFor } from './scheduled-change.validation';

/** A job enqueued for a time the change no longer has: the edit enqueued another. */
const SLACK_MS = 1000;

/**
 * Applies a due change once: the row is locked, and a change with `executed_at` or
 * `failure_reason` set is left alone, so a second delivery of the job (another process, a retry)
 * does nothing. The flag write is the PATCH's (updateFlag, as in FeatureFlagService.update), as the
 * change's creator: the same rights, validation, version bump and activity entry, and its
 * after-change path (where webhooks hook in). A refusal sets `failure_reason`; only unexpected errors are retried
 * (SCHEDULED_CHANGES_QUEUE's limit), and the last one sets `failure_reason` too.
 */
export function scheduledChangeJob(orm: MikroORM, logger: Logger): JobHandler<ScheduledChangeJob> {
  return {
    queue: SCHEDULED_CHANGES_QUEUE,
    async run(data, job) {
      const em = orm.em.fork();
      const change = await em.findOne(ScheduledChange, { id: data.id }, { fields: ['id', 'project'] });
      if (!change) return;
      const projectId = change.project.id;
      const lastTry = job.retryCount >= job.retryLimit;
      await changingDefinitions(em, projectId, () =>
        em.transactional(async (trx) => {
          const locked = await trx.findOne(ScheduledChange, { id: data.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
          if (!locked || locked.executedAt || locked.failureReason) return;
          if (locked.scheduledAt.getTime() > Date.now() + SLACK_MS) return;
          try {
            // A savepoint: a refused write rolls back alone and the failure is recorded.
            await trx.transactional((inner) => applyChange(inner, locked));
            locked.executedAt = new Date();
            logger.info({ scheduled_change: locked.id, record_id: locked.recordId }, 'scheduled change applied');
          } catch (error) {
            const refused = error instanceof AppError && error.status < 500;
            if (!refused && !lastTry) throw error;
            logger.warn({ err: error, scheduled_change: locked.id }, 'scheduled change failed');
            locked.failureReason = failureReasonOf(error);
          }
          await trx.flush();
        }),
      );
    },
  };
}

async function applyChange(em: EntityManager, change: ScheduledChange): Promise<void> {
  const projectId = change.project.id;
  const creator = change.createdBy ? await em.findOne(User, change.createdBy.id, { fields: ['email'] }) : null;
  // Still an active member of the project's organization: the write is checked as their PATCH would be.
  const user = creator ? await UserStore.memberOfProject(em, projectId, creator.email) : null;
  if (!user || !user.isActive) throw scheduledChangeErrors.schedulerGone();
  const ctx = operatorContext(em, {
    user,
    key: { id: 0, scopes: null, scopedTeams: null, scopedOrganizations: null, lastUsedAt: new Date() },
  });
  try {
    const access = await accessProject(ctx, projectId, 'feature_flag:write');
    // FeatureFlagService.update's steps inside this job's transaction (its own would signal the
    // definitions change before this one commits; the job signals after, see above).
    const flag = await em.findOne(
      FeatureFlag,
      { id: Number(change.recordId), project: projectId, deleted: false },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!flag) throw scheduledChangeErrors.flagGone();
    await updateFlag(em, access, flag, flagPatchFor(flag, change.payload as { operation: string; value: unknown }));
  } finally {
    // The operator context's definitions cache listens for changes process-wide until closed.
    ctx.definitions.close();
  }
}
