import type { Logger } from 'pino';
import type { AppContext } from '../../context';
import { ofrepErrors } from './ofrep.errors';
import { ofrepSuccess, type OfrepFailure, type OfrepSuccess } from './ofrep.shapes';
import { evaluateRemotely } from './remote-evaluation.service';
import type { RemoteEvaluationSubject } from './remote-evaluation.request';
import type { FeatureFlag } from '../feature-flag/feature-flag.entity';

/**
 * OFREP over remote evaluation (docs/openfeature.md): the very evaluation `/flags` runs (the same
 * cached definitions, person and group statements, overlay and bounds), reshaped. Flags that are
 * off are answered DISABLED with `false`, as evaluation_reasons answers them, without evaluating.
 */
async function evaluateFlags(
  ctx: AppContext,
  logger: Logger,
  projectId: number,
  subject: RemoteEvaluationSubject,
  flags: FeatureFlag[],
): Promise<Array<OfrepSuccess | OfrepFailure>> {
  const active = flags.filter((flag) => flag.active);
  const evaluated = active.length === 0 ? null : await evaluateRemotely(ctx, logger, projectId, subject);
  const byKey = new Map((evaluated?.flags ?? []).map((item) => [item.flag.key, item]));
  return flags.map((flag) => {
    if (!flag.active) return ofrepSuccess({ flag, value: false, reason: 'disabled', conditionIndex: null });
    const item = byKey.get(flag.key);
    // Left out by remote evaluation: its evaluation failed, or the stored person or group could not be read (logged there).
    if (!item) return { key: flag.key, errorCode: 'GENERAL', errorDetails: 'The flag could not be evaluated' };
    return ofrepSuccess({ flag: item.flag, ...item.evaluation });
  });
}

/** The project's non-deleted flags by id; the definitions could not be read: 500 GENERAL. */
async function projectFlags(ctx: AppContext, logger: Logger, projectId: number): Promise<FeatureFlag[]> {
  try {
    return (await ctx.definitions.get(projectId)).project.flags;
  } catch (error) {
    logger.warn({ err: error, project_id: projectId }, 'OFREP: the flags could not be loaded');
    throw ofrepErrors.general('The flags could not be loaded');
  }
}

export const OfrepService = {
  /** `POST /ofrep/v1/evaluate/flags/{key}`: one flag; unknown or deleted: FLAG_NOT_FOUND; not evaluable: GENERAL. */
  async one(ctx: AppContext, logger: Logger, projectId: number, key: string, subject: RemoteEvaluationSubject): Promise<OfrepSuccess> {
    const flag = (await projectFlags(ctx, logger, projectId)).find((candidate) => candidate.key === key);
    if (!flag) throw ofrepErrors.flagNotFound(key);
    const [answer] = await evaluateFlags(ctx, logger, projectId, { ...subject, flagKeys: new Set([key]) }, [flag]);
    if ('errorCode' in answer) throw ofrepErrors.general(answer.errorDetails);
    return answer;
  },

  /** `POST /ofrep/v1/evaluate/flags`: every non-deleted flag by id, those that are off included (DISABLED). */
  async all(
    ctx: AppContext,
    logger: Logger,
    projectId: number,
    subject: RemoteEvaluationSubject,
  ): Promise<{ flags: Array<OfrepSuccess | OfrepFailure> }> {
    const flags = await projectFlags(ctx, logger, projectId);
    return { flags: await evaluateFlags(ctx, logger, projectId, { ...subject, flagKeys: null }, flags) };
  },
};
