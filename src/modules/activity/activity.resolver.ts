import { Arg, Ctx, FieldResolver, ID, Int, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../../context';
import { PROJECT_ID_DESCRIPTION } from '../../graphql/arguments';
import { User } from '../user/user.entity';
import { ActivityService } from './activity.service';
import { ActivityEntry, ActivityPage, ActivityScopeName, LIMIT_DESCRIPTION, PAGE_DESCRIPTION } from './activity.types';

@Resolver(() => ActivityEntry)
export class ActivityResolver {
  @Query(() => ActivityPage, {
    description: "A project's activity, newest first: one scope, or every scope when none is given (needs `activity_log:read`).",
  })
  activity(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Arg('scope', () => ActivityScopeName, { nullable: true, description: 'Only entries about this kind of item; every kind when absent.' })
    scope?: ActivityScopeName | null,
    @Arg('page', () => Int, { nullable: true, description: PAGE_DESCRIPTION }) page?: number | null,
    @Arg('limit', () => Int, { nullable: true, description: LIMIT_DESCRIPTION }) limit?: number | null,
  ) {
    return ActivityService.list(ctx, projectId, scope ?? null, { page, limit });
  }

  @Query(() => ActivityPage, {
    description: "One flag's activity, newest first, soft-deleted flags included (needs `activity_log:read`).",
  })
  featureFlagActivity(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Arg('id', () => Int, { description: "The flag's id." }) id: number,
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
