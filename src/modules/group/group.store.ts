import type { EntityManager } from '@mikro-orm/postgresql';
import { containsPattern } from '../../db/sql';
import { windowPage, type Page } from '../../pagination';
import { Group } from './group.entity';
import { runPrepared, type PreparedStatement } from '../../db/prepared';

/** The requested groups' properties: one prepared statement whatever their number (at most one per group type). */
const GROUPS_FOR_EVALUATION: PreparedStatement = {
  name: 'flagship_groups_for_evaluation',
  text: `select g.group_type_index, g.group_key, g.group_properties
           from "group" g join unnest($2::int[], $3::text[]) as w(type_index, key) on g.group_type_index = w.type_index and g.group_key = w.key
          where g.project_id = $1`,
};

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
    type Row = { group_type_index: number; group_key: string; group_properties: Record<string, unknown> };
    const rows: Row[] = em.isInTransaction()
      ? await em.execute(
          `select group_type_index, group_key, group_properties from "group"
            where project_id = ? and (group_type_index, group_key) in (${wanted.map(() => '(?, ?)').join(', ')})`,
          [projectId, ...wanted.flatMap(({ index, key }) => [index, key])],
        )
      : await runPrepared<Row>(em, GROUPS_FOR_EVALUATION, [projectId, wanted.map(({ index }) => index), wanted.map(({ key }) => key)]);
    return rows.map((row) => ({ index: Number(row.group_type_index), key: row.group_key, properties: row.group_properties }));
  },
};
