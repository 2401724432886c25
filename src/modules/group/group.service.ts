import { groupErrors } from './group.errors';
import { accessProject } from '../../auth/access';
import type { AppContext } from '../../context';
import { clampPage, type Page } from '../../pagination';
import type { GroupListArgs } from './group.inputs';
import { GroupTypeMapping, MAX_GROUP_TYPES } from './group-type-mapping.entity';
import type { Group } from './group.entity';
import { GroupStore } from './group.store';

/** Reads of groups and group types (docs/ingestion.md §6). */
export const GroupService = {
  async list(ctx: AppContext, projectRef: unknown, args: GroupListArgs): Promise<Page<Group>> {
    const { project } = await accessProject(ctx, projectRef, 'group:read');
    const index = args.groupTypeIndex;
    if (index === null || index === undefined || !Number.isInteger(index) || index < 0 || index >= MAX_GROUP_TYPES)
      throw groupErrors.typeIndexRequired();
    const { limit, offset } = clampPage(args);
    return GroupStore.page(ctx.em, project.id, index, args.search, limit, offset);
  },

  async types(ctx: AppContext, projectRef: unknown): Promise<GroupTypeMapping[]> {
    const { project } = await accessProject(ctx, projectRef, 'group:read');
    return ctx.em.find(GroupTypeMapping, { project: project.id }, { orderBy: { groupTypeIndex: 'asc' } });
  },
};
