import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../../context';
import { PageOf } from '../../graphql/page';
import { FeatureFlag } from '../feature-flag/feature-flag.entity';
import { User } from '../user/user.entity';
import { DashboardTile } from './dashboard-tile.entity';
import { Dashboard } from './dashboard.entity';
import type { DashboardRoot } from './dashboard.rows';
import { DashboardService } from './dashboard.service';
import { DashboardListArgs } from './dashboard.types';

const DashboardPage = PageOf(Dashboard, 'DashboardPage');

@Resolver(() => Dashboard)
export class DashboardResolver {
  @Query(() => DashboardPage, { description: "A project's dashboards, newest first, each tile with its result." })
  dashboards(@Ctx() ctx: AppContext, @Arg('projectId', () => ID) projectId: string, @Args() args: DashboardListArgs) {
    return DashboardService.list(ctx, projectId, args);
  }

  @Query(() => Dashboard)
  dashboard(@Ctx() ctx: AppContext, @Arg('projectId', () => ID) projectId: string, @Arg('id', () => Int) id: number) {
    return DashboardService.get(ctx, projectId, id);
  }

  @Mutation(() => FeatureFlag, {
    description: "Makes a new usage dashboard for the flag's current key and points `usageDashboard` at it; the old one stays.",
  })
  generateFeatureFlagUsageDashboard(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID) projectId: string,
    @Arg('id', () => Int) id: number,
  ) {
    return DashboardService.generateForFlag(ctx, projectId, id);
  }

  @Mutation(() => FeatureFlag, {
    description: "Adds the feature view and interaction tiles to the flag's usage dashboard (needs `hasEnrichedAnalytics`).",
  })
  enrichFeatureFlagUsageDashboard(@Ctx() ctx: AppContext, @Arg('projectId', () => ID) projectId: string, @Arg('id', () => Int) id: number) {
    return DashboardService.enrichForFlag(ctx, projectId, id);
  }

  @FieldResolver(() => User, { nullable: true })
  createdBy(@Root() dashboard: DashboardRoot, @Ctx() ctx: AppContext) {
    return dashboard.createdBy ? ctx.loaders.user.load(dashboard.createdBy.id) : null;
  }

  @FieldResolver(() => [DashboardTile], { description: 'In creation order.' })
  tiles(@Root() dashboard: DashboardRoot) {
    return dashboard.tiles;
  }
}
