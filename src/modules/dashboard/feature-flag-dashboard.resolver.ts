import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { accessProject } from '../../auth/access';
import type { AppContext } from '../../context';
import { FeatureFlag } from '../feature-flag/feature-flag.entity';
import type { FlagRoot } from '../feature-flag/feature-flag.rows';
import { Dashboard } from './dashboard.entity';

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
