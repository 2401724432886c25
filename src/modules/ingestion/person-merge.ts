import type { PersonRef } from './ingestion.persons';
import { IngestionPersonStore } from './ingestion-persons.store';
import { withinPropertyCap } from './person-properties';
import { RetryableConflict, type Sql } from './ingestion.store';

/**
 * docs/ingestion.md §3.3 "merge" of two stored persons, in the request's transaction: both rows locked
 * in id order; the target keeps id and uuid; properties are the source's overlaid by the target's;
 * the earlier created_at; the source's distinct ids (with their added_at) and events move over;
 * the source is deleted. The source's `is_identified` is read again under the lock, and a merge
 * into an identified person is refused unless `dangerous`.
 *
 * Person-keyed flag data (hash-key overrides, static-cohort memberships) must move too
 * (IngestionPersonStore.mergePersons) once those tables exist, the target's rows winning conflicts.
 */
export async function mergeIntoDatabase(sql: Sql, projectId: number, target: PersonRef, source: PersonRef, dangerous: boolean) {
  const rows = await IngestionPersonStore.lockPersonsForMerge(sql, [target.id!, source.id!]);
  const [to, from] = [target.id, source.id].map((id) => rows.find((row) => row.id === id));
  if (!to || !from) throw new RetryableConflict('person merged meanwhile');
  if (from.is_identified && !dangerous) return;
  // The target's keys first, so that the property cap keeps them.
  const properties = withinPropertyCap({ ...to.properties, ...from.properties, ...to.properties });
  const createdAt = from.created_at < to.created_at ? from.created_at : to.created_at;
  await IngestionPersonStore.mergePersons(
    sql,
    projectId,
    { id: target.id!, uuid: target.uuid },
    { id: source.id!, uuid: source.uuid },
    properties,
    createdAt,
  );
  Object.assign(target, { isIdentified: true, createdAt });
  source.mergedInto = target;
}
