import { Arg, Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../../context';
import { Experiment } from '../experiment/experiment.entity';
import { ActivityService } from './activity.service';
import { ActivityPage, ActivityScopeName, LIMIT_DESCRIPTION, PAGE_DESCRIPTION } from './activity.types';

@Resolver(() => Experiment)
export class ExperimentActivityResolver {
  @FieldResolver(() => ActivityPage, { description: "The experiment's activity, newest first (needs `activity_log:read`)." })
  activity(
    @Root() experiment: Experiment,
    @Ctx() ctx: AppContext,
    @Arg('page', () => Int, { nullable: true, description: PAGE_DESCRIPTION }) page?: number | null,
    @Arg('limit', () => Int, { nullable: true, description: LIMIT_DESCRIPTION }) limit?: number | null,
  ) {
    return ActivityService.forItem(ctx, experiment.project.id, ActivityScopeName.Experiment, experiment.id, { page, limit });
  }
}
