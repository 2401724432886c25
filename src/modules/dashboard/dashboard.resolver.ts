import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { accessProject } from '../../auth/access';
import type { AppContext } from '../../context';
import { PageOf } from '../../graphql/page';
import { FeatureFlag } from '../feature-flag/feature-flag.entity';
import type { FlagRoot } from '../feature-flag/feature-flag.rows';
import { User } from '../user/user.entity';
import { DashboardTile } from './dashboard-tile.entity';
import { Dashboard } from './dashboard.entity';
import type { DashboardRoot, TileRoot } from './dashboard.rows';
import { DashboardService } from './dashboard.service';
import { DashboardListArgs, Insight, InsightSeriesType } from './dashboard.types';

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

@Resolver(() => DashboardTile)
export class DashboardTileResolver {
  @FieldResolver(() => Insight)
  insight(@Root() tile: TileRoot) {
    return tile;
  }
}

@Resolver(() => Insight)
export class InsightResolver {
  @FieldResolver(() => [InsightSeriesType], {
    description: "Computed from the project's stored events on every read, over the dashboard's date range.",
  })
  result(@Root() tile: TileRoot, @Ctx() ctx: AppContext) {
    return ctx.loaders.tileResult.load(tile);
  }
}

@Resolver(() => FeatureFlag)
export class FeatureFlagDashboardResolver {
  /**
   * SPEC-GAP: `usageDashboard` stays the id, as REST's `usage_dashboard` (the parity of the two
   * transports is tested field by field); the dashboard itself is this field, with `dashboard:read`.
   */
  @FieldResolver(() => Dashboard, { nullable: true, description: 'The usage dashboard itself (needs `dashboard:read`).' })
  async usageDashboardDetails(@Root() flag: FlagRoot, @Ctx() ctx: AppContext) {
    if (flag.usageDashboardId === null) return null;
    await accessProject(ctx, flag.project.id, 'dashboard:read');
    const dashboard = await ctx.loaders.dashboard.load(flag.usageDashboardId);
    return dashboard && dashboard.project.id === flag.project.id ? dashboard : null;
  }
}
