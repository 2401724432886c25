import type { PersonRef } from './ingestion.persons';
import { RetryableConflict, type Sql } from './ingestion.store';

/**
 * docs/ingestion.md §3.3 "merge" of two stored persons, in the request's transaction: both rows locked
 * in id order; the target keeps id and uuid; properties are the source's overlaid by the target's;
 * the earlier created_at; the source's distinct ids (with their added_at) and events move over;
 * the source is deleted. The source's `is_identified` is read again under the lock, and a merge
 * into an identified person is refused unless `dangerous`.
 *
 * Person-keyed flag data (hash-key overrides, static-cohort memberships) must move here too once
 * those tables exist, the target's rows winning conflicts.
 */
export async function mergeIntoDatabase(sql: Sql, projectId: number, target: PersonRef, source: PersonRef, dangerous: boolean) {
  const rows = await sql<{ id: string; properties: Record<string, unknown>; is_identified: boolean; created_at: Date }>(
    'select id, properties, is_identified, created_at from person where id = any($1::bigint[]) order by id for update',
    [[target.id, source.id]],
  );
  const [to, from] = [target.id, source.id].map((id) => rows.find((row) => Number(row.id) === id));
  if (!to || !from) throw new RetryableConflict('person merged meanwhile');
  if (from.is_identified && !dangerous) return;
  const properties = { ...from.properties, ...to.properties };
  const createdAt = from.created_at < to.created_at ? from.created_at : to.created_at;
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
  Object.assign(target, { isIdentified: true, createdAt });
  source.mergedInto = target;
}
