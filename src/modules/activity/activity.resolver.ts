import { Arg, Ctx, FieldResolver, ID, Int, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../../context';
import { Experiment } from '../experiment/experiment.entity';
import { FeatureFlag } from '../feature-flag/feature-flag.entity';
import type { FlagRoot } from '../feature-flag/feature-flag.rows';
import { User } from '../user/user.entity';
import { ActivityService } from './activity.service';
import { ActivityEntry, ActivityPage, ActivityScopeName } from './activity.types';

const PAGE_DESCRIPTION = '1-based; invalid or below 1 means 1.';
const LIMIT_DESCRIPTION = 'Entries per page: 10 by default, at most 1000; invalid or below 1 means 10.';

@Resolver(() => ActivityEntry)
export class ActivityResolver {
  @Query(() => ActivityPage, { description: "A project's activity, newest first: one scope, or every scope when none is given." })
  activity(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID) projectId: string,
    @Arg('scope', () => ActivityScopeName, { nullable: true }) scope?: ActivityScopeName | null,
    @Arg('page', () => Int, { nullable: true, description: PAGE_DESCRIPTION }) page?: number | null,
    @Arg('limit', () => Int, { nullable: true, description: LIMIT_DESCRIPTION }) limit?: number | null,
  ) {
    return ActivityService.list(ctx, projectId, scope ?? null, { page, limit });
  }

  @Query(() => ActivityPage, { description: "One flag's activity, newest first (soft-deleted flags included)." })
  featureFlagActivity(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID) projectId: string,
    @Arg('id', () => Int) id: number,
    @Arg('page', () => Int, { nullable: true, description: PAGE_DESCRIPTION }) page?: number | null,
    @Arg('limit', () => Int, { nullable: true, description: LIMIT_DESCRIPTION }) limit?: number | null,
  ) {
    return ActivityService.forFlag(ctx, projectId, id, { page, limit });
  }

  @FieldResolver(() => User, { nullable: true, description: 'Who made the change (null once that user is gone).' })
  user(@Root() entry: ActivityEntry, @Ctx() ctx: AppContext) {
    return entry.userId === null ? null : ctx.loaders.user.load(entry.userId);
  }
}

@Resolver(() => FeatureFlag)
export class FeatureFlagActivityResolver {
  @FieldResolver(() => ActivityPage, { description: "The flag's activity, newest first (needs activity_log:read)." })
  activity(
    @Root() flag: FlagRoot,
    @Ctx() ctx: AppContext,
    @Arg('page', () => Int, { nullable: true, description: PAGE_DESCRIPTION }) page?: number | null,
    @Arg('limit', () => Int, { nullable: true, description: LIMIT_DESCRIPTION }) limit?: number | null,
  ) {
    return ActivityService.forItem(ctx, flag.project.id, ActivityScopeName.FeatureFlag, flag.id, { page, limit });
  }
}

@Resolver(() => Experiment)
export class ExperimentActivityResolver {
  @FieldResolver(() => ActivityPage, { description: "The experiment's activity, newest first (needs activity_log:read)." })
  activity(
    @Root() experiment: Experiment,
    @Ctx() ctx: AppContext,
    @Arg('page', () => Int, { nullable: true, description: PAGE_DESCRIPTION }) page?: number | null,
    @Arg('limit', () => Int, { nullable: true, description: LIMIT_DESCRIPTION }) limit?: number | null,
  ) {
    return ActivityService.forItem(ctx, experiment.project.id, ActivityScopeName.Experiment, experiment.id, { page, limit });
  }
}
