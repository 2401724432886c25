import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../../context';
import { PROJECT_ID_DESCRIPTION } from '../../graphql/arguments';
import { PageOf } from '../../graphql/page';
import { FeatureFlag } from '../feature-flag/feature-flag.entity';
import { User } from '../user/user.entity';
import { DashboardTile } from './dashboard-tile.entity';
import { Dashboard } from './dashboard.entity';
import type { DashboardRoot } from './dashboard.rows';
import { DashboardService } from './dashboard.service';
import { DashboardListArgs } from './dashboard.types';

const DashboardPage = PageOf(Dashboard, 'DashboardPage', 'dashboards');

@Resolver(() => Dashboard)
export class DashboardResolver {
  @Query(() => DashboardPage, {
    description: "A project's dashboards, newest first, each tile with its result (needs `dashboard:read`).",
  })
  dashboards(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Args() args: DashboardListArgs,
  ) {
    return DashboardService.list(ctx, projectId, args);
  }

  @Query(() => Dashboard, { description: 'One dashboard by id, each tile with its result (needs `dashboard:read`).' })
  dashboard(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Arg('id', () => Int, { description: "The dashboard's id." }) id: number,
  ) {
    return DashboardService.get(ctx, projectId, id);
  }

  @Mutation(() => FeatureFlag, {
    description:
      "Makes a new usage dashboard for the flag's current key and points `usageDashboard` at it; the old one stays. " +
      'Needs `feature_flag:write` and the right to edit the flag.',
  })
  generateFeatureFlagUsageDashboard(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Arg('id', () => Int, { description: "The flag's id." }) id: number,
  ) {
    return DashboardService.generateForFlag(ctx, projectId, id);
  }

  @Mutation(() => FeatureFlag, {
    description:
      "Adds the feature view and interaction tiles to the flag's usage dashboard (needs `hasEnrichedAnalytics`). " +
      'Needs `feature_flag:write` and the right to edit the flag.',
  })
  enrichFeatureFlagUsageDashboard(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Arg('id', () => Int, { description: "The flag's id." }) id: number,
  ) {
    return DashboardService.enrichForFlag(ctx, projectId, id);
  }

  @FieldResolver(() => User, { nullable: true, description: 'Who created the dashboard; null once that user is gone.' })
  createdBy(@Root() dashboard: DashboardRoot, @Ctx() ctx: AppContext) {
    return dashboard.createdBy ? ctx.loaders.user.load(dashboard.createdBy.id) : null;
  }

  @FieldResolver(() => [DashboardTile], { description: "The dashboard's tiles, in creation order." })
  tiles(
    @Root() dashboard: DashboardRoot,
    @Arg('dateFrom', () => String, {
      nullable: true,
      description:
        "This read's range instead of the dashboard's `date_from` (which is not changed): `-7d`, `-2w`, … (a longer range " +
        'reads 365 days, as a stored one does); any other form is refused.',
    })
    dateFrom?: string | null,
  ) {
    return DashboardService.tilesOf(dashboard, dateFrom ?? null);
  }
}
