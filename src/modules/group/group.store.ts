import type { EntityManager } from '@mikro-orm/postgresql';
import { containsPattern } from '../../db/sql';
import { windowPage, type Page } from '../../pagination';
import { Group } from './group.entity';

/** The group tables' queries for reads and evaluation. */
export const GroupStore = {
  /**
   * A project's groups of one type, newest first, narrowed by a case-insensitive substring of the key or
   * of the properties' JSON text: one statement, a second for a page past the end.
   */
  async page(
    em: EntityManager,
    projectId: number,
    groupTypeIndex: number,
    search: string | null | undefined,
    limit: number,
    offset: number,
  ): Promise<Page<Group>> {
    const qb = em.createQueryBuilder(Group, 'g').select(['g.*']).where({ project: projectId, groupTypeIndex });
    if (search) {
      const pattern = containsPattern(search);
      qb.andWhere('(g.group_key ilike ? or g.group_properties::text ilike ?)', [pattern, pattern]);
    }
    qb.orderBy({ createdAt: 'desc', id: 'desc' });
    return windowPage(qb, limit, offset, (row) => em.map(Group, row));
  },

  /** The project's group types, index → name. */
  async typeNames(em: EntityManager, projectId: number): Promise<Map<number, string>> {
    const rows: Array<{ group_type_index: number; group_type: string }> = await em
      .getConnection()
      .execute('select group_type_index, group_type from group_type_mapping where project_id = ? order by group_type_index', [projectId]);
    return new Map(rows.map((row) => [Number(row.group_type_index), row.group_type]));
  },

  /** The stored properties of these groups (type index and key), in one statement; unknown ones are left out. */
  async propertiesOf(
    em: EntityManager,
    projectId: number,
    wanted: Array<{ index: number; key: string }>,
  ): Promise<Array<{ index: number; key: string; properties: Record<string, unknown> }>> {
    const rows: Array<{ group_type_index: number; group_key: string; group_properties: Record<string, unknown> }> = await em.execute(
      `select group_type_index, group_key, group_properties from "group"
        where project_id = ? and (group_type_index, group_key) in (${wanted.map(() => '(?, ?)').join(', ')})`,
      [projectId, ...wanted.flatMap(({ index, key }) => [index, key])],
    );
    return rows.map((row) => ({ index: Number(row.group_type_index), key: row.group_key, properties: row.group_properties }));
  },
};
