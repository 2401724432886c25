import { evaluationErrors } from './flag-evaluation.errors';
import type { EntityManager } from '@mikro-orm/postgresql';
import { accessProject } from '../../auth/access';
import type { AppContext } from '../../context';
import { evaluateFlag, type EvaluationReason, type FlagValue } from '../../evaluation/evaluate-flag';
import { MatchBudgetSpent, withinMatchBudget } from '../../evaluation/regex';
import type { CohortDefinitions } from '../../evaluation/cohort-match';
import type { FeatureFlag } from '../feature-flag/feature-flag.entity';
import { groupKeys } from './groups-param';
import { loadFlagsAndGroupTypes, loadSubject, type ProjectFlags, type PropertyOverlay, type UnreadSubject } from './evaluation-subject';

export interface FlagEvaluationResult {
  key: string;
  value: FlagValue;
  reason: EvaluationReason | 'disabled';
  conditionIndex: number | null;
}

export interface MyFlag {
  featureFlag: FeatureFlag;
  value: FlagValue;
}

export interface SubjectEvaluation {
  flag: FeatureFlag;
  evaluation: { value: FlagValue; reason: EvaluationReason | 'disabled'; conditionIndex: number | null };
}

/**
 * `flags` evaluated for one subject: the stored person and groups (one statement each), overlaid
 * by what a remote-evaluation request sent; `cohorts` (cached) spares reading the project's cohorts. Shared by evaluation_reasons, my_flags and remote
 * evaluation, so all three answer alike. A flag whose evaluation throws is passed to `failed`
 * (remote evaluation answers without it); without `failed` the error propagates. With `unread`
 * (and `cohorts`), a person or groups statement that fails is reported there, and only the flags
 * that need what it would have read fail (loadSubject).
 */
export async function evaluateForSubject(
  em: EntityManager,
  projectId: number,
  { flags, groupTypes }: ProjectFlags,
  distinctId: string,
  requested: Record<string, string>,
  now: Date,
  options: {
    overlay?: PropertyOverlay;
    cohorts?: CohortDefinitions;
    failed?: (flag: FeatureFlag, error: unknown) => void;
    unread?: UnreadSubject;
  } = {},
): Promise<SubjectEvaluation[]> {
  const subject = await loadSubject(
    em,
    projectId,
    distinctId,
    requested,
    groupTypes,
    now,
    options.overlay,
    options.cohorts,
    options.unread,
  );
  // One budget of pattern-matching time for all the subject's flags and the cohorts they name (docs/evaluation.md §4.7).
  return withinMatchBudget(() => {
    const evaluated: SubjectEvaluation[] = [];
    for (const flag of flags) {
      if (!flag.active) {
        evaluated.push({ flag, evaluation: { value: false, reason: 'disabled', conditionIndex: null } });
        continue;
      }
      try {
        evaluated.push({ flag, evaluation: evaluateFlag(flag, subject, groupTypes, now) });
      } catch (error) {
        if (!options.failed) throw error instanceof MatchBudgetSpent ? evaluationErrors.matchBudgetSpent() : error;
        options.failed(flag, error);
      }
    }
    return evaluated;
  });
}

/** Evaluates every non-deleted flag of a project for one distinct id, over stored persons and groups (docs/evaluation.md §9). */
async function evaluateAll(ctx: AppContext, projectId: number, distinctId: string, groups: Record<string, unknown> | null | undefined) {
  const requested = groupKeys(groups);
  const flags = await loadFlagsAndGroupTypes(ctx.em, projectId);
  return evaluateForSubject(ctx.em, projectId, flags, distinctId, requested, new Date(ctx.clock.now()));
}

export const FlagEvaluationService = {
  requireDistinctId(value: unknown): string {
    const text = Array.isArray(value) ? value[0] : value;
    if (typeof text !== 'string' || text === '') throw evaluationErrors.distinctIdRequired();
    return text;
  },

  /** Active flags by id, then inactive ones (`disabled`) by id. */
  async reasons(
    ctx: AppContext,
    projectRef: unknown,
    distinctId: string,
    groups?: Record<string, unknown> | null,
  ): Promise<FlagEvaluationResult[]> {
    const { project } = await accessProject(ctx, projectRef, 'feature_flag:read');
    FlagEvaluationService.requireDistinctId(distinctId);
    const evaluated = await evaluateAll(ctx, project.id, distinctId, groups);
    return evaluated
      .sort((a, b) => Number(b.flag.active) - Number(a.flag.active)) // stable: each part stays by id
      .map(({ flag, evaluation }) => ({ key: flag.key, ...evaluation }));
  },

  /** The caller's own distinct id; newest flags first. */
  async mine(ctx: AppContext, projectRef: unknown, groups?: Record<string, unknown> | null): Promise<MyFlag[]> {
    const { project, caller } = await accessProject(ctx, projectRef, 'feature_flag:read');
    const evaluated = await evaluateAll(ctx, project.id, caller.user.distinctId, groups);
    return evaluated
      .sort((a, b) => b.flag.createdAt.getTime() - a.flag.createdAt.getTime() || b.flag.id - a.flag.id)
      .map(({ flag, evaluation }) => ({ featureFlag: flag, value: evaluation.value }));
  },
};
