import { accessProject } from '../../auth/access';
import type { AppContext } from '../../context';
import { fieldErrors } from '../../errors';
import { evaluateFlag, type EvaluationReason, type FlagValue } from '../../evaluation/evaluate-flag';
import type { FeatureFlag } from '../feature-flag/feature-flag.entity';
import { groupKeys } from './groups-param';
import { loadFlagsAndGroupTypes, loadSubject } from './evaluation-subject';

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

export const evaluationErrors = {
  distinctIdRequired: () => fieldErrors.invalidInput('distinct_id is required'),
};

/** Evaluates every non-deleted flag of a project for one distinct id, over stored persons and groups (evaluation.md §9). */
async function evaluateAll(ctx: AppContext, projectId: number, distinctId: string, groups: Record<string, unknown> | null | undefined) {
  const requested = groupKeys(groups);
  const { flags, groupTypes } = await loadFlagsAndGroupTypes(ctx.em, projectId);
  const subject = await loadSubject(ctx.em, projectId, distinctId, requested, groupTypes);
  const now = new Date();
  return flags.map((flag) => ({
    flag,
    evaluation: flag.active
      ? evaluateFlag(flag, subject, groupTypes, now)
      : { value: false as FlagValue, reason: 'disabled' as const, conditionIndex: null },
  }));
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
