import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../../context';
import { FeatureFlag } from '../feature-flag/feature-flag.entity';
import type { FlagRoot } from '../feature-flag/feature-flag.rows';
import { Dashboard } from './dashboard.entity';
import { DashboardService } from './dashboard.service';

@Resolver(() => FeatureFlag)
export class FeatureFlagDashboardResolver {
  @FieldResolver(() => Dashboard, { nullable: true, description: 'The usage dashboard itself (needs `dashboard:read`).' })
  usageDashboard(@Root() flag: FlagRoot, @Ctx() ctx: AppContext) {
    return DashboardService.usageDashboardOf(ctx, flag);
  }
}
