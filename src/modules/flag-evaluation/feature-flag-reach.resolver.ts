import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../../context';
import { FeatureFlag } from '../feature-flag/feature-flag.entity';
import type { FlagRoot } from '../feature-flag/feature-flag.rows';
import { conditionReach } from './blast-radius.service';
import { BlastRadius } from './blast-radius.types';

@Resolver(() => FeatureFlag)
export class FeatureFlagReachResolver {
  /**
   * The console's overview needs each condition's reach with the flag, in one round trip: one blast
   * radius per condition set, computed one after the other as the request's work.
   */
  @FieldResolver(() => [BlastRadius], {
    nullable: 'items',
    description:
      "Each condition set's reach, in order: how many persons (or groups) its properties match, before rollout (as `featureFlagBlastRadius`); null, with the reason in `errors`, for a condition that cannot be sized (a cohort deleted since).",
  })
  conditionReach(@Root() flag: FlagRoot, @Ctx() ctx: AppContext) {
    return conditionReach(ctx, flag.project.id, flag.filters);
  }
}
