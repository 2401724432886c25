import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../../context';
import { PROJECT_ID_DESCRIPTION } from '../../graphql/arguments';
import { PageOf } from '../../graphql/page';
import { User } from '../user/user.entity';
import { ScheduledChange } from './scheduled-change.entity';
import { ScheduledChangeCreateInput, ScheduledChangeListArgsInput, ScheduledChangeUpdateInput } from './scheduled-change.inputs';
import { ScheduledChangeService } from './scheduled-change.service';

const ScheduledChangePage = PageOf(ScheduledChange, 'ScheduledChangePage', 'scheduled changes');

/** The twins of /api/projects/:project_id/scheduled_changes/ (docs/scheduled-changes.md). */
@Resolver(() => ScheduledChange)
export class ScheduledChangeResolver {
  @Query(() => ScheduledChangePage, { description: "A project's scheduled changes, soonest first (needs `feature_flag:read`)." })
  scheduledChanges(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Args() args: ScheduledChangeListArgsInput,
  ) {
    return ScheduledChangeService.list(ctx, projectId, args);
  }

  @Query(() => ScheduledChange, { description: 'One scheduled change (needs `feature_flag:read`).' })
  scheduledChange(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Arg('id', () => Int, { description: "The scheduled change's id." }) id: number,
  ) {
    return ScheduledChangeService.get(ctx, projectId, id);
  }

  @Mutation(() => ScheduledChange, {
    description: 'Schedules a change to a flag (needs `feature_flag:write` and the right to edit the flag; checked as its PATCH now).',
  })
  createScheduledChange(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Arg('input', () => ScheduledChangeCreateInput, { description: 'The change.' }) input: ScheduledChangeCreateInput,
  ) {
    return ScheduledChangeService.create(ctx, projectId, input);
  }

  @Mutation(() => ScheduledChange, { description: 'Edits a change not yet run (needs `feature_flag:write`).' })
  updateScheduledChange(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Arg('id', () => Int, { description: "The scheduled change's id." }) id: number,
    @Arg('input', () => ScheduledChangeUpdateInput, { description: 'The fields to change.' }) input: ScheduledChangeUpdateInput,
  ) {
    return ScheduledChangeService.update(ctx, projectId, id, input);
  }

  @Mutation(() => Int, { description: 'Removes a scheduled change and answers its id (needs `feature_flag:write`).' })
  async deleteScheduledChange(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Arg('id', () => Int, { description: "The scheduled change's id." }) id: number,
  ) {
    return (await ScheduledChangeService.delete(ctx, projectId, id)).id;
  }

  @FieldResolver(() => User, {
    nullable: true,
    description: 'Who scheduled the change (it is applied as them); null once that user is gone.',
  })
  createdBy(@Root() change: ScheduledChange, @Ctx() ctx: AppContext) {
    return change.createdBy ? ctx.loaders.user.load(change.createdBy.id) : null;
  }
}
