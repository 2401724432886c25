import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../../context';
import { PROJECT_ID_DESCRIPTION } from '../../graphql/arguments';
import { PageOf } from '../../graphql/page';
import { FeatureFlag } from '../feature-flag/feature-flag.entity';
import { User } from '../user/user.entity';
import { Experiment } from './experiment.entity';
import { ExperimentCreateInput, ExperimentListArgs, ExperimentUpdateInput } from './experiment.inputs';
import { ExperimentService, type ExperimentStatus } from './experiment.service';

const ExperimentPage = PageOf(Experiment, 'ExperimentPage', 'experiments');

@Resolver(() => Experiment)
export class ExperimentResolver {
  @Query(() => ExperimentPage, { description: "A project's experiments, newest first (needs `experiment:read`)." })
  experiments(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Args() args: ExperimentListArgs,
  ) {
    const status = args.status === 'all' ? null : (args.status as ExperimentStatus | null | undefined);
    return ExperimentService.list(ctx, projectId, { ...args, status });
  }

  @Query(() => Experiment, { description: 'One experiment by id (needs `experiment:read`).' })
  experiment(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Arg('id', () => Int, { description: "The experiment's id." }) id: number,
  ) {
    return ExperimentService.get(ctx, projectId, id);
  }

  @Mutation(() => Experiment, {
    description: 'Creates the experiment and creates (or reuses) its multivariate flag (needs `experiment:write`).',
  })
  createExperiment(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Arg('input', () => ExperimentCreateInput, { description: 'The new experiment.' }) input: ExperimentCreateInput,
  ) {
    return ExperimentService.create(ctx, projectId, input);
  }

  @Mutation(() => Experiment, {
    description: 'Partial update; setting `startDate` on a draft launches it and activates its flag (needs `experiment:write`).',
  })
  updateExperiment(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Arg('id', () => Int, { description: "The experiment's id." }) id: number,
    @Arg('input', () => ExperimentUpdateInput, { description: 'The fields to change; absent ones stay as they are.' })
    input: ExperimentUpdateInput,
  ) {
    return ExperimentService.update(ctx, projectId, id, input);
  }

  @Mutation(() => Int, {
    description:
      'Deletes the experiment for good and soft-deletes its flag unless another experiment uses it (needs `experiment:write`). Answers the id.',
  })
  async deleteExperiment(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Arg('id', () => Int, { description: "The experiment's id." }) id: number,
  ) {
    return (await ExperimentService.delete(ctx, projectId, id)).id;
  }

  @FieldResolver(() => String, { description: "The linked flag's key; fixed once the experiment is created." })
  featureFlagKey(@Root() experiment: Experiment, @Ctx() ctx: AppContext) {
    return ctx.loaders.flag.load(experiment.featureFlag.id).then((flag) => flag!.key);
  }

  @FieldResolver(() => FeatureFlag, { description: 'The linked flag, which splits persons (or groups) into variants.' })
  featureFlag(@Root() experiment: Experiment, @Ctx() ctx: AppContext) {
    return ctx.loaders.flag.load(experiment.featureFlag.id);
  }

  @FieldResolver(() => User, { nullable: true, description: 'Who created the experiment; null once that user is gone.' })
  createdBy(@Root() experiment: Experiment, @Ctx() ctx: AppContext) {
    return experiment.createdBy ? ctx.loaders.user.load(experiment.createdBy.id) : null;
  }
}
