import { groupErrors } from './group.errors';
import { accessProject } from '../../auth/access';
import type { AppContext } from '../../context';
import { clampPage, type Page } from '../../pagination';
import { containsPattern } from '../../db/sql';
import { windowPage } from '../event/window-page';
import type { GroupListArgs } from './group.inputs';
import { GroupTypeMapping, MAX_GROUP_TYPES } from './group-type-mapping.entity';
import { Group } from './group.entity';

/** Reads of groups and group types (docs/ingestion.md §6). */
export const GroupService = {
  async list(ctx: AppContext, projectRef: unknown, args: GroupListArgs): Promise<Page<Group>> {
    const { project } = await accessProject(ctx, projectRef, 'group:read');
    const index = args.groupTypeIndex;
    if (index === null || index === undefined || !Number.isInteger(index) || index < 0 || index >= MAX_GROUP_TYPES)
      throw groupErrors.typeIndexRequired();
    const { limit, offset } = clampPage(args);
    const qb = ctx.em.createQueryBuilder(Group, 'g').select(['g.*']).where({ project: project.id, groupTypeIndex: index });
    if (args.search) {
      const pattern = containsPattern(args.search);
      qb.andWhere('(g.group_key ilike ? or g.group_properties::text ilike ?)', [pattern, pattern]);
    }
    qb.orderBy({ createdAt: 'desc', id: 'desc' });
    return windowPage(ctx.em, Group, qb, limit, offset);
  },

  async types(ctx: AppContext, projectRef: unknown): Promise<GroupTypeMapping[]> {
    const { project } = await accessProject(ctx, projectRef, 'group:read');
    return ctx.em.find(GroupTypeMapping, { project: project.id }, { orderBy: { groupTypeIndex: 'asc' } });
  },
};
