import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../../context';
import { PROJECT_ID_DESCRIPTION } from '../../graphql/arguments';
import { PageOf } from '../../graphql/page';
import { User } from '../user/user.entity';
import { Cohort } from './cohort.entity';
import { CohortCreateInput, CohortListArgs, CohortMembersInput, CohortUpdateInput } from './cohort.inputs';
import type { CohortRoot } from './cohort.rows';
import { CohortService } from './cohort.service';

const CohortPage = PageOf(Cohort, 'CohortPage', 'cohorts');

@Resolver(() => Cohort)
export class CohortResolver {
  @Query(() => CohortPage, { description: "A project's non-deleted cohorts, newest first (needs `cohort:read`)." })
  cohorts(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Args() args: CohortListArgs,
  ) {
    return CohortService.list(ctx, projectId, args);
  }

  @Query(() => Cohort, { description: 'One cohort by id, deleted ones included (needs `cohort:read`).' })
  cohort(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Arg('id', () => Int, { description: "The cohort's id." }) id: number,
  ) {
    return CohortService.get(ctx, projectId, id);
  }

  @Mutation(() => Cohort, { description: 'Creates a static or dynamic cohort (needs `cohort:write`).' })
  createCohort(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Arg('input', () => CohortCreateInput, { description: 'The new cohort.' }) input: CohortCreateInput,
  ) {
    return CohortService.create(ctx, projectId, input);
  }

  @Mutation(() => Cohort, {
    description: 'Absent fields are unchanged; `deleted: true` soft-deletes (cohorts are never hard-deleted). Needs `cohort:write`.',
  })
  updateCohort(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Arg('id', () => Int, { description: "The cohort's id." }) id: number,
    @Arg('input', () => CohortUpdateInput, { description: 'The fields to change.' }) input: CohortUpdateInput,
  ) {
    return CohortService.update(ctx, projectId, id, input);
  }

  @Mutation(() => Cohort, { description: 'Adds persons to a static cohort by distinct id; there is no removal (needs `cohort:write`).' })
  addCohortMembers(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Arg('id', () => Int, { description: "The static cohort's id." }) id: number,
    @Arg('input', () => CohortMembersInput, { description: 'The distinct ids to add.' }) input: CohortMembersInput,
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

  @FieldResolver(() => User, { nullable: true, description: 'Who created the cohort; null once that user is gone.' })
  createdBy(@Root() cohort: CohortRoot, @Ctx() ctx: AppContext) {
    return cohort.createdBy ? ctx.loaders.user.load(cohort.createdBy.id) : null;
  }
}
