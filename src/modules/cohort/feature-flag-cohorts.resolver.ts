import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../../context';
import { FeatureFlag } from '../feature-flag/feature-flag.entity';
import type { FlagRoot } from '../feature-flag/feature-flag.rows';
import { Cohort } from './cohort.entity';
import { CohortService } from './cohort.service';

@Resolver(() => FeatureFlag)
export class FeatureFlagCohortsResolver {
  @FieldResolver(() => [Cohort], {
    description: "The cohorts the flag's conditions name, by id (missing ones left out; needs `cohort:read`); batched per request.",
  })
  cohorts(@Root() flag: FlagRoot, @Ctx() ctx: AppContext) {
    return CohortService.namedBy(ctx, flag);
  }
}
