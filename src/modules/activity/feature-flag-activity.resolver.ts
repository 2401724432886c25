import { Arg, Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../../context';
import { FeatureFlag } from '../feature-flag/feature-flag.entity';
import type { FlagRoot } from '../feature-flag/feature-flag.rows';
import { ActivityService } from './activity.service';
import { ActivityPage, ActivityScopeName, LIMIT_DESCRIPTION, PAGE_DESCRIPTION } from './activity.types';

@Resolver(() => FeatureFlag)
export class FeatureFlagActivityResolver {
  @FieldResolver(() => ActivityPage, { description: "The flag's activity, newest first (needs `activity_log:read`)." })
  activity(
    @Root() flag: FlagRoot,
    @Ctx() ctx: AppContext,
    @Arg('page', () => Int, { nullable: true, description: PAGE_DESCRIPTION }) page?: number | null,
    @Arg('limit', () => Int, { nullable: true, description: LIMIT_DESCRIPTION }) limit?: number | null,
  ) {
    return ActivityService.forItem(ctx, flag.project.id, ActivityScopeName.FeatureFlag, flag.id, { page, limit });
  }
}
