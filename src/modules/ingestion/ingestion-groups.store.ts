import type { Sql } from './ingestion.store';

/** A group type to register at an index. */
export interface GroupTypeInsert {
  type: string;
  index: number;
}

/** A `$groupidentify`'s effect on one group: created with these properties, or merged into its stored ones. */
export interface GroupWrite {
  index: number;
  key: string;
  properties: Record<string, unknown>;
  createdAt: Date;
}

/** The capture path's queries on group types and groups, on the request's transaction. */
export const IngestionGroupStore = {
  /** Locks the project row FOR NO KEY UPDATE (serialises group type registration): one statement. */
  async lockProject(sql: Sql, projectId: number): Promise<void> {
    await sql('select 1 from project where id = $1 for no key update', [projectId]);
  },

  /** The project's group types, name → index: one statement. */
  async groupTypes(sql: Sql, projectId: number): Promise<Map<string, number>> {
    const rows = await sql<{ group_type: string; group_type_index: number }>(
      'select group_type, group_type_index from group_type_mapping where project_id = $1',
      [projectId],
    );
    return new Map(rows.map((row) => [row.group_type, row.group_type_index]));
  },

  /** Registers these group types at their indexes: one statement. */
  async insertGroupTypes(sql: Sql, projectId: number, added: GroupTypeInsert[]): Promise<void> {
    await sql(
      `insert into group_type_mapping (project_id, group_type, group_type_index)
       select $1, x.type, x.index from jsonb_to_recordset($2::jsonb) as x(type text, index smallint)`,
      [projectId, JSON.stringify(added)],
    );
  },

  /** Creates these groups, or merges the properties into stored ones shallowly (new keys win): one statement. */
  async upsertGroups(sql: Sql, projectId: number, writes: GroupWrite[]): Promise<void> {
    await sql(
      `insert into "group" (project_id, group_type_index, group_key, group_properties, created_at)
       select $1, x.index, x.key, x.properties, x.created_at
         from jsonb_to_recordset($2::jsonb) as x(index smallint, key text, properties jsonb, created_at timestamptz)
       on conflict (project_id, group_type_index, group_key)
       do update set group_properties = "group".group_properties || excluded.group_properties`,
      [projectId, JSON.stringify(writes.map((w) => ({ ...w, created_at: w.createdAt })))],
    );
  },
};
