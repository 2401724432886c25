import { Arg, Ctx, Field, FieldResolver, ID, Int, ObjectType, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../../context';
import { PROJECT_ID_DESCRIPTION } from '../../graphql/arguments';
import { DateTimeScalar, JSONObjectScalar, JSONScalar } from '../../graphql/scalars';
import { ExperimentResultsService, exposureCount } from './experiment-results.service';
import { Experiment } from './experiment.entity';

@ObjectType({ description: "An experiment metric's computed result (docs/experiment-results.md)." })
export class ExperimentResults {
  @Field(() => JSONObjectScalar, {
    description: 'Funnel or trend counts with their statistics; for a secondary metric, a value per variant.',
  })
  result!: Record<string, unknown>;

  @Field(() => DateTimeScalar, { description: 'When the result was computed.' })
  lastRefresh!: Date;

  @Field(() => Boolean, { description: 'True when served from the stored result instead of being computed now.' })
  isCached!: boolean;
}

const REFRESH = 'Recompute now instead of serving the stored result (REST: `?refresh`).';

@Resolver(() => Experiment)
export class ExperimentResultsResolver {
  // Nullable (docs/graphql.md): a draft, or a metric that cannot be computed, is null with its reason in
  // `errors`, so a list of experiments is never nulled whole because one has no results.
  @FieldResolver(() => ExperimentResults, {
    nullable: true,
    description:
      'The primary metric per variant, with probabilities, significance and sample-ratio check; null when it cannot be computed (a draft: "Experiment has not started yet"), with the reason in `errors`.',
  })
  results(
    @Root() experiment: Experiment,
    @Ctx() ctx: AppContext,
    @Arg('refresh', () => Boolean, { defaultValue: false, description: REFRESH }) refresh: boolean,
  ) {
    return ExperimentResultsService.primary(ctx, experiment, refresh);
  }

  @FieldResolver(() => Int, {
    nullable: true,
    description:
      "Actors exposed to any of the flag's variants in the experiment's window (distinct actors with `$feature_flag_called`, summed over variants), without computing the metric; null for a draft.",
  })
  exposureCount(@Root() experiment: Experiment, @Ctx() ctx: AppContext) {
    return exposureCount(ctx, experiment);
  }

  @FieldResolver(() => ExperimentResults, {
    nullable: true,
    description:
      'A secondary metric (0-based `index` into secondaryMetrics) per variant; null, with the reason in `errors`, when it cannot be computed.',
  })
  secondaryResults(
    @Root() experiment: Experiment,
    @Ctx() ctx: AppContext,
    // An ID so the REST row can hand over `?id=` as sent; the service answers the API's 400s for bad values.
    @Arg('index', () => ID, { nullable: true, description: 'The 0-based position in `secondaryMetrics` (REST: `?id=`); required.' })
    index: string | null,
    @Arg('refresh', () => Boolean, { defaultValue: false, description: REFRESH }) refresh: boolean,
  ) {
    return ExperimentResultsService.secondary(ctx, experiment, index, refresh);
  }

  @Query(() => Boolean, {
    description:
      'False when an event the metric names, seen in the last 7 days, already carries a `$feature/…` property (needs `experiment:read`).',
  })
  experimentRequiresFlagImplementation(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Arg('events', () => JSONScalar, { nullable: true, description: "The metric's `events` entries (`[{id, type, order}]`)." })
    events: unknown,
  ) {
    return ExperimentResultsService.requiresFlagImplementation(ctx, projectId, events);
  }
}
