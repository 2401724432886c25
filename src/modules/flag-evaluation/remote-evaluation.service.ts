import type { Logger } from 'pino';
import type { AppContext } from '../../context';
import { SubjectDataUnavailable, type FlagEvaluation } from '../../evaluation/evaluate-flag';
import type { FeatureFlag } from '../feature-flag/feature-flag.entity';
import { evaluateForSubject, type SubjectEvaluation } from './flag-evaluation.service';
import type { RemoteEvaluationSubject } from './remote-evaluation.request';

/** One evaluated flag as remote evaluation answers it: its outcome is one evaluateFlag made once for the flag. */
export interface RemoteFlag {
  flag: FeatureFlag;
  evaluation: FlagEvaluation;
}

export interface RemoteEvaluation {
  flags: RemoteFlag[];
  errorsWhileComputingFlags: boolean;
}

/**
 * docs/remote-evaluation.md ("The answers"): every active flag (or those `flag_keys` names), by id, for one subject,
 * from the cached definitions: the only statements are the person's and the groups'. A flag that
 * cannot be evaluated is left out and reported (docs/remote-evaluation.md, "When something cannot be
 * read"): its evaluation threw, or it needs stored data whose statement failed. Nothing is written.
 */
export async function evaluateRemotely(
  ctx: AppContext,
  logger: Logger,
  projectId: number,
  subject: RemoteEvaluationSubject,
): Promise<RemoteEvaluation> {
  if (subject.disableFlags) return { flags: [], errorsWhileComputingFlags: false };
  let errors = false;
  let evaluated: SubjectEvaluation[];
  try {
    const { project, cohorts } = await ctx.definitions.get(projectId);
    const wanted = project.flags.filter((flag) => flag.active && (subject.flagKeys === null || subject.flagKeys.has(flag.key)));
    if (wanted.length === 0) return { flags: [], errorsWhileComputingFlags: false };
    const now = new Date(ctx.clock.now());
    evaluated = await evaluateForSubject(ctx.reads, projectId, { ...project, flags: wanted }, subject.distinctId, subject.groups, now, {
      overlay: subject.overlay,
      cohorts,
      unread: (what, error) => {
        logger.warn({ err: error, project_id: projectId }, `remote evaluation: the stored ${what} could not be read`);
      },
      failed: (flag, error) => {
        errors = true;
        if (error instanceof SubjectDataUnavailable) return; // its cause is logged once, by `unread`
        logger.warn({ err: error, project_id: projectId, flag_id: flag.id }, 'remote evaluation: flag could not be evaluated');
      },
    });
  } catch (error) {
    // SPEC-GAP: the flag definitions themselves could not be read (the cache was cold and the database
    // failed): there is no flag to answer one by one, so the answer is empty and says so, instead of a
    // 5xx for a valid token and body. The person's and the groups' statements never end up here.
    logger.warn({ err: error, project_id: projectId }, 'remote evaluation: the flags could not be loaded');
    return { flags: [], errorsWhileComputingFlags: true };
  }
  // Only active flags were evaluated: none is `disabled`.
  return { flags: evaluated as RemoteFlag[], errorsWhileComputingFlags: errors };
}
