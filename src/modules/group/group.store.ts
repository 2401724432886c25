import type { EntityManager } from '@mikro-orm/postgresql';

/** The group tables' queries for evaluation. */
export const GroupStore = {
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
