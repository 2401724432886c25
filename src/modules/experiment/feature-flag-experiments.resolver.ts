import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../../context';
import { FeatureFlag } from '../feature-flag/feature-flag.entity';
import type { FlagRoot } from '../feature-flag/feature-flag.rows';
import { Experiment } from './experiment.entity';
import { ExperimentService } from './experiment.service';

@Resolver(() => FeatureFlag)
export class FeatureFlagExperimentsResolver {
  @FieldResolver(() => [Experiment], { description: 'The experiments using this flag, ascending id (needs `experiment:read`).' })
  experiments(@Root() flag: FlagRoot, @Ctx() ctx: AppContext) {
    return ExperimentService.usingFlag(ctx, flag);
  }
}
