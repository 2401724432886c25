import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { accessProject } from '../../auth/access';
import type { AppContext } from '../../context';
import { PageOf } from '../../graphql/page';
import { FeatureFlag } from '../feature-flag/feature-flag.entity';
import { User } from '../user/user.entity';
import { Experiment } from './experiment.entity';
import { ExperimentCreateInput, ExperimentListArgs, ExperimentUpdateInput } from './experiment.inputs';
import { ExperimentService, type ExperimentStatus } from './experiment.service';
import type { FlagRoot } from '../feature-flag/feature-flag.rows';

const ExperimentPage = PageOf(Experiment, 'ExperimentPage');

@Resolver(() => Experiment)
export class ExperimentResolver {
  @Query(() => ExperimentPage, { description: "A project's experiments, newest first." })
  experiments(@Ctx() ctx: AppContext, @Arg('projectId', () => ID) projectId: string, @Args() args: ExperimentListArgs) {
    const status = args.status === 'all' ? null : (args.status as ExperimentStatus | null | undefined);
    return ExperimentService.list(ctx, projectId, { ...args, status });
  }

  @Query(() => Experiment)
  experiment(@Ctx() ctx: AppContext, @Arg('projectId', () => ID) projectId: string, @Arg('id', () => Int) id: number) {
    return ExperimentService.get(ctx, projectId, id);
  }

  @Mutation(() => Experiment, { description: 'Creates the experiment and creates (or reuses) its multivariate flag.' })
  createExperiment(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID) projectId: string,
    @Arg('input', () => ExperimentCreateInput) input: ExperimentCreateInput,
  ) {
    return ExperimentService.create(ctx, projectId, input);
  }

  @Mutation(() => Experiment, { description: 'Setting `startDate` on a draft launches it and activates its flag.' })
  updateExperiment(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID) projectId: string,
    @Arg('id', () => Int) id: number,
    @Arg('input', () => ExperimentUpdateInput) input: ExperimentUpdateInput,
  ) {
    return ExperimentService.update(ctx, projectId, id, input);
  }

  @Mutation(() => Int, { description: 'Deletes the experiment for good and soft-deletes its flag. Answers the id.' })
  async deleteExperiment(@Ctx() ctx: AppContext, @Arg('projectId', () => ID) projectId: string, @Arg('id', () => Int) id: number) {
    return (await ExperimentService.delete(ctx, projectId, id)).id;
  }

  @FieldResolver(() => String)
  featureFlagKey(@Root() experiment: Experiment, @Ctx() ctx: AppContext) {
    return ctx.loaders.flag.load(experiment.featureFlag.id).then((flag) => flag!.key);
  }

  @FieldResolver(() => FeatureFlag)
  featureFlag(@Root() experiment: Experiment, @Ctx() ctx: AppContext) {
    return ctx.loaders.flag.load(experiment.featureFlag.id);
  }

  @FieldResolver(() => User, { nullable: true })
  createdBy(@Root() experiment: Experiment, @Ctx() ctx: AppContext) {
    return experiment.createdBy ? ctx.loaders.user.load(experiment.createdBy.id) : null;
  }
}

@Resolver(() => FeatureFlag)
export class FeatureFlagExperimentsResolver {
  @FieldResolver(() => [Experiment], { description: 'The experiments using this flag, ascending id (needs `experiment:read`).' })
  async experiments(@Root() flag: FlagRoot, @Ctx() ctx: AppContext) {
    // Reached through a flag (feature_flag:read), but it reads experiments: the scope of their REST twin.
    await accessProject(ctx, flag.project.id, 'experiment:read');
    return ctx.loaders.flagExperiments.load(flag.id);
  }
}
