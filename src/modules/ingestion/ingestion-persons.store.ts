import type { Sql } from './ingestion.store';
import { MAX_PERSON_PROPERTIES } from './person-properties';

type Json = Record<string, unknown>;

/** A person to insert, by column. */
export interface PersonRow {
  uuid: string;
  properties: Json;
  is_identified: boolean;
  created_at: Date;
}

/** A distinct id to give a stored person. */
export interface DistinctIdGrant {
  distinctId: string;
  personId: number;
}

/** The stored person that owns a distinct id. */
export interface DistinctIdOwner {
  distinct_id: string;
  id: number;
  uuid: string;
  is_identified: boolean;
  created_at: Date;
}

/** A stored person's pending change: `(setOnce || properties || set) - unset`, and identified when `identify`. */
export interface PersonUpdateRow {
  id: number;
  setOnce: Json;
  set: Json;
  unset: string[];
  identify: boolean;
}

/** A person of a merge, as locked. */
export interface LockedPerson {
  id: number;
  properties: Json;
  is_identified: boolean;
  created_at: Date;
}

/** A stored person: its id and uuid. */
export interface StoredPerson {
  id: number;
  uuid: string;
}

/** The capture path's queries on persons and their distinct ids, on the request's transaction. */
export const IngestionPersonStore = {
  /** Inserts these persons, uuid → new id: one statement. */
  async insertPersons(sql: Sql, projectId: number, persons: PersonRow[]): Promise<Map<string, number>> {
    const rows = await sql<{ id: string; uuid: string }>(
      `insert into person (project_id, uuid, properties, is_identified, created_at)
         select $1, x.uuid, x.properties, x.is_identified, x.created_at
           from jsonb_to_recordset($2::jsonb) as x(uuid uuid, properties jsonb, is_identified boolean, created_at timestamptz)
         returning id, uuid`,
      [projectId, JSON.stringify(persons)],
    );
    return new Map(rows.map((row) => [row.uuid, Number(row.id)]));
  },

  /**
   * Gives these distinct ids, in order, added at `now`, skipping ids already taken (ON CONFLICT waits
   * for a transaction that took one meanwhile): the ids given, in one statement.
   */
  async insertDistinctIds(sql: Sql, projectId: number, grants: DistinctIdGrant[], now: Date): Promise<string[]> {
    const rows = grants.map((grant, n) => ({ d: grant.distinctId, p: grant.personId, n }));
    const inserted = await sql<{ distinct_id: string }>(
      `insert into person_distinct_id (project_id, distinct_id, person_id, added_at)
       select $1, x.d, x.p, $3 from jsonb_to_recordset($2::jsonb) as x(d text, p bigint, n int) order by x.n
       on conflict (project_id, distinct_id) do nothing
       returning distinct_id`,
      [projectId, JSON.stringify(rows), now],
    );
    return inserted.map((row) => row.distinct_id);
  },

  /** Deletes these persons: one statement. */
  async deletePersons(sql: Sql, ids: number[]): Promise<void> {
    await sql('delete from person where id = any($1::bigint[])', [ids]);
  },

  /** The stored owners of these distinct ids, their mappings locked FOR SHARE: one statement. */
  async ownersOf(sql: Sql, projectId: number, distinctIds: string[]): Promise<DistinctIdOwner[]> {
    const rows = await sql<{ distinct_id: string; id: string; uuid: string; is_identified: boolean; created_at: Date }>(
      `select d.distinct_id, p.id, p.uuid, p.is_identified, p.created_at
         from person_distinct_id d join person p on p.id = d.person_id
        where d.project_id = $1 and d.distinct_id = any($2::text[]) for share of d`,
      [projectId, distinctIds],
    );
    return rows.map((row) => ({ ...row, id: Number(row.id) }));
  },

  /**
   * Applies each stored person's pending change: one prepared statement. A change that would take a
   * person past MAX_PERSON_PROPERTIES keys changes only the keys it has (and removes `unset`); which
   * those are is a join of the two key sets, since `p.properties ? key` per key reads the whole
   * stored (TOASTed) bag each time: 100,000 keys against a full person took 18 s, the join 0.2 s.
   */
  async updatePersons(sql: Sql, updates: PersonUpdateRow[]): Promise<void> {
    const rows = updates.map((update) => ({ id: update.id, so: update.setOnce, s: update.set, u: update.unset, i: update.identify }));
    await sql.prepared(
      'update_persons',
      `update person p
          set properties = (
                select case when (select count(*) from jsonb_object_keys(n.changed)) <= ${MAX_PERSON_PROPERTIES} then n.changed
                            else (p.properties || (select coalesce(jsonb_object_agg(e.key, e.value), '{}'::jsonb)
                                                     from jsonb_each(x.s) e join jsonb_object_keys(p.properties) k(key) using (key))) - n.unset end
                  from (select (x.so || p.properties || x.s) - array(select jsonb_array_elements_text(x.u)) as changed,
                               array(select jsonb_array_elements_text(x.u)) as unset) n),
              is_identified = p.is_identified or x.i
         from jsonb_to_recordset($1::jsonb) as x(id bigint, so jsonb, s jsonb, u jsonb, i boolean)
        where p.id = x.id`,
      [JSON.stringify(rows)],
    );
  },

  /** Locks these persons FOR UPDATE in id order; a person deleted meanwhile is absent: one statement. */
  async lockPersonsForMerge(sql: Sql, ids: number[]): Promise<LockedPerson[]> {
    const rows = await sql<{ id: string; properties: Json; is_identified: boolean; created_at: Date }>(
      'select id, properties, is_identified, created_at from person where id = any($1::bigint[]) order by id for update',
      [ids],
    );
    return rows.map((row) => ({ ...row, id: Number(row.id) }));
  },

  /**
   * Merges `source` into `target` (both locked): the target takes these properties, is identified and
   * created at `createdAt`; the source's distinct ids, events and static cohort memberships move over;
   * the source is deleted. Five statements.
   */
  async mergePersons(
    sql: Sql,
    projectId: number,
    target: StoredPerson,
    source: StoredPerson,
    properties: Json,
    createdAt: Date,
  ): Promise<void> {
    await sql('update person set properties = $2, is_identified = true, created_at = $3 where id = $1', [
      target.id,
      JSON.stringify(properties),
      createdAt,
    ]);
    await sql('update person_distinct_id set person_id = $1 where person_id = $2', [target.id, source.id]);
    await sql('update event set person_id = $2 where project_id = $1 and person_id = $3', [projectId, target.uuid, source.uuid]);
    // Static cohort membership belongs to the person: the merged person keeps the source's.
    await sql(
      'insert into cohort_person (cohort_id, person_id) select cohort_id, $1 from cohort_person where person_id = $2 on conflict do nothing',
      [target.id, source.id],
    );
    await sql('delete from person where id = $1', [source.id]);
  },
};
