import { Arg, Args, Ctx, ID, Query, Resolver } from 'type-graphql';
import type { AppContext } from '../../context';
import { PROJECT_ID_DESCRIPTION } from '../../graphql/arguments';
import { PageOf } from '../../graphql/page';
import { GroupTypeMapping } from './group-type-mapping.entity';
import { GroupListArgs } from './group.inputs';
import { Group } from './group.entity';
import { GroupService } from './group.service';

const GroupPage = PageOf(Group, 'GroupPage', 'groups');

@Resolver(() => Group)
export class GroupResolver {
  @Query(() => GroupPage, { description: "A project's groups of one type, newest first (needs `group:read`)." })
  groups(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Args() args: GroupListArgs,
  ) {
    return GroupService.list(ctx, projectId, args);
  }

  @Query(() => [GroupTypeMapping], { description: "A project's group types, by index (needs `group:read`)." })
  groupTypes(@Ctx() ctx: AppContext, @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string) {
    return GroupService.types(ctx, projectId);
  }
}
