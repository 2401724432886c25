import { Arg, Ctx, ID, Query, Resolver } from 'type-graphql';
import type { AppContext } from '../../context';
import { PROJECT_ID_DESCRIPTION } from '../../graphql/arguments';
import { JSONObjectScalar } from '../../graphql/scalars';
import { blastRadius } from './blast-radius.service';
import { BlastRadius, BlastRadiusInput } from './blast-radius.types';
import { FlagEvaluationService } from './flag-evaluation.service';
import { FlagEvaluation, MyFeatureFlag } from './flag-evaluation.types';

const GROUPS_DESCRIPTION = 'Group type name → group key; names that are not group types are ignored.';

/**
 * Each field reads a whole project (every flag, or every person or group) and computes over it: one
 * task of the request's work at a time, none once the request has ended (src/http/request-work.ts).
 */
@Resolver()
export class FlagEvaluationResolver {
  @Query(() => [FlagEvaluation], {
    description:
      'Every non-deleted flag evaluated for a distinct id over stored persons and groups: active flags by id, then inactive ones ' +
      '(needs `feature_flag:read`).',
  })
  featureFlagEvaluations(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Arg('distinctId', () => String, { description: 'The distinct id to evaluate the flags for; not empty.' }) distinctId: string,
    @Arg('groups', () => JSONObjectScalar, { nullable: true, description: GROUPS_DESCRIPTION }) groups?: Record<string, unknown> | null,
  ) {
    return ctx.work.run(() => FlagEvaluationService.reasons(ctx, projectId, distinctId, groups));
  }

  @Query(() => [MyFeatureFlag], {
    description: "Every non-deleted flag's value for the caller's own distinct id, newest flags first (needs `feature_flag:read`).",
  })
  myFeatureFlags(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Arg('groups', () => JSONObjectScalar, { nullable: true, description: GROUPS_DESCRIPTION }) groups?: Record<string, unknown> | null,
  ) {
    return ctx.work.run(() => FlagEvaluationService.mine(ctx, projectId, groups));
  }

  @Query(() => BlastRadius, {
    description:
      'How many persons (or groups of one type) a release condition matches now; its rollout is ignored (needs `feature_flag:read`).',
  })
  featureFlagBlastRadius(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Arg('input', () => BlastRadiusInput, { description: 'The condition to measure.' }) input: BlastRadiusInput,
  ) {
    return ctx.work.run(() => blastRadius(ctx, projectId, input));
  }
}
