import { definitionsChanges } from '../flag-evaluation/definitions-changes';
import { eventLoopSlices, mapInSlices } from '../../event-loop-slices';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { CapturedEvent } from './capture.event';
import { GroupWrites, groupTypesNamed, registerGroupTypes, withGroupKeys } from './ingestion.groups';
import { isPersonless, mergeSource, PersonPlanner, type PersonRef } from './ingestion.persons';
import { inTransaction, IngestionStore, type CaptureLookups, type Sql } from './ingestion.store';

/**
 * Everything a request reads before it writes, in one statement: which uuids exist, who owns its
 * distinct ids (locked: a concurrent merge of those persons waits for this transaction), and the
 * project's group types when the events name any.
 * SPEC-GAP: the mappings are locked FOR SHARE, not FOR UPDATE (docs/ingestion.md §5 names only the merge's locks), so batches that
 * share distinct ids do not queue behind each other; a merge still waits, since it updates them.
 */
function lookUp(sql: Sql, projectId: number, events: CapturedEvent[], withGroupTypes: boolean): Promise<CaptureLookups> {
  const distinctIds = new Set<string>();
  for (const event of events) {
    distinctIds.add(event.distinctId);
    const other = isPersonless(event) ? null : mergeSource(event);
    if (other !== null) distinctIds.add(other);
  }
  return IngestionStore.lookUp(
    sql,
    projectId,
    events.map((event) => event.uuid),
    distinctIds,
    withGroupTypes,
  );
}

function uuidOf(ref: PersonRef | null): string | null {
  while (ref?.mergedInto) ref = ref.mergedInto;
  return ref?.uuid ?? null;
}

/**
 * docs/ingestion.md §2–§5: one request's validated events in one transaction (rerun on deadlock or a
 * lost race): skip known uuids, register group types, resolve and update persons in array order,
 * upsert groups, insert the events. When it returns, everything is committed.
 */
export async function ingestEvents(orm: MikroORM, projectId: number, events: CapturedEvent[], now: Date): Promise<void> {
  const wantedTypes = groupTypesNamed(events);
  let typesRegistered = false;
  await inTransaction(orm, async (sql) => {
    const found = await lookUp(sql, projectId, events, wantedTypes.length > 0);
    const fresh = events.filter((event) => !found.stored.has(event.uuid) && (found.stored.add(event.uuid), true));
    if (fresh.length === 0) return;
    const groupTypes = await registerGroupTypes(sql, projectId, groupTypesNamed(fresh), found.groupTypes);
    typesRegistered ||= groupTypes !== found.groupTypes;
    const persons = new PersonPlanner(sql, projectId, now);
    persons.load(found.owners);
    const groups = new GroupWrites();
    const owners: Array<PersonRef | null> = [];
    const slices = eventLoopSlices();
    for (const event of fresh) {
      if (event.event === '$groupidentify') groups.add(event, groupTypes);
      owners.push(await persons.process(event));
      const pause = slices.pause();
      if (pause) await pause;
    }
    await persons.flush();
    await groups.save(sql, projectId);
    const rows = await mapInSlices(fresh, (event, i) => ({
      uuid: event.uuid,
      event: event.event,
      distinct_id: event.distinctId,
      properties: withGroupKeys(event, groupTypes),
      timestamp: event.timestamp,
      person_id: uuidOf(owners[i]),
    }));
    await IngestionStore.insertEvents(sql, projectId, rows, now);
  });
  // A new group type changes the SDK definitions (their group_type_mapping).
  if (typesRegistered) {
    definitionsChanges.publish(projectId);
    await definitionsChanges.settle();
  }
}
