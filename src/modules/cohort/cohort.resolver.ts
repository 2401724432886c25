import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../../context';
import { flagCohortIds } from '../../evaluation/cohort-match';
import { PageOf } from '../../graphql/page';
import { FeatureFlag } from '../feature-flag/feature-flag.entity';
import type { FlagRoot } from '../feature-flag/feature-flag.rows';
import { User } from '../user/user.entity';
import { Cohort } from './cohort.entity';
import { CohortInput, CohortListArgs, CohortMembersInput } from './cohort.inputs';
import type { CohortRoot } from './cohort.rows';
import { CohortService } from './cohort.service';

const CohortPage = PageOf(Cohort, 'CohortPage');

@Resolver(() => Cohort)
export class CohortResolver {
  @Query(() => CohortPage, { description: "A project's non-deleted cohorts, newest first." })
  cohorts(@Ctx() ctx: AppContext, @Arg('projectId', () => ID) projectId: string, @Args() args: CohortListArgs) {
    return CohortService.list(ctx, projectId, args);
  }

  @Query(() => Cohort, { description: 'One cohort, deleted ones included.' })
  cohort(@Ctx() ctx: AppContext, @Arg('projectId', () => ID) projectId: string, @Arg('id', () => Int) id: number) {
    return CohortService.get(ctx, projectId, id);
  }

  @Mutation(() => Cohort)
  createCohort(@Ctx() ctx: AppContext, @Arg('projectId', () => ID) projectId: string, @Arg('input', () => CohortInput) input: CohortInput) {
    return CohortService.create(ctx, projectId, input);
  }

  @Mutation(() => Cohort, { description: 'Absent fields are unchanged; `deleted: true` soft-deletes (cohorts are never hard-deleted).' })
  updateCohort(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID) projectId: string,
    @Arg('id', () => Int) id: number,
    @Arg('input', () => CohortInput) input: CohortInput,
  ) {
    return CohortService.update(ctx, projectId, id, input);
  }

  @Mutation(() => Cohort, { description: 'Adds persons to a static cohort by distinct id; there is no removal.' })
  addCohortMembers(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID) projectId: string,
    @Arg('id', () => Int) id: number,
    @Arg('input', () => CohortMembersInput) input: CohortMembersInput,
  ) {
    return CohortService.addPersons(ctx, projectId, id, input);
  }

  @FieldResolver(() => Int, {
    nullable: true,
    description: 'Persons in the cohort now; null when it (or a cohort it references) filters on events.',
  })
  count(@Root() cohort: CohortRoot, @Ctx() ctx: AppContext) {
    return ctx.loaders.cohortCount.load(cohort as Cohort);
  }

  @FieldResolver(() => User, { nullable: true })
  createdBy(@Root() cohort: CohortRoot, @Ctx() ctx: AppContext) {
    return cohort.createdBy ? ctx.loaders.user.load(cohort.createdBy.id) : null;
  }
}

@Resolver(() => FeatureFlag)
export class FeatureFlagCohortsResolver {
  @FieldResolver(() => [Cohort], {
    description: "The cohorts the flag's conditions name, by id (missing ones left out); batched per request.",
  })
  async cohorts(@Root() flag: FlagRoot, @Ctx() ctx: AppContext) {
    const ids = [...new Set(flagCohortIds(flag.filters))].sort((a, b) => a - b);
    const found = await ctx.loaders.cohort.loadMany(ids);
    return found.filter(
      (cohort): cohort is Cohort => cohort !== null && !(cohort instanceof Error) && cohort.project.id === flag.project.id,
    );
  }
}
