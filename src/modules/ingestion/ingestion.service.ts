import { definitionsChanges } from '../flag-evaluation/definitions-changes';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { CapturedEvent } from './capture.event';
import { GroupWrites, groupTypesNamed, registerGroupTypes, withGroupKeys } from './ingestion.groups';
import { isPersonless, mergeSource, PersonPlanner, type PersonRef, type StoredOwner } from './ingestion.persons';
import { inTransaction, type Sql } from './ingestion.store';

const INSERT_CHUNK = 1000;

interface Lookups {
  /** uuids of the request already stored (docs/ingestion.md §2.1 idempotency). */
  stored: Set<string>;
  owners: StoredOwner[];
  groupTypes: Map<string, number>;
}

/**
 * Everything a request reads before it writes, in one statement: which uuids exist, who owns its
 * distinct ids (locked: a concurrent merge of those persons waits for this transaction), and the
 * project's group types when the events name any.
 * SPEC-GAP: the mappings are locked FOR SHARE, not FOR UPDATE (docs/ingestion.md §5 names only the merge's locks), so batches that
 * share distinct ids do not queue behind each other; a merge still waits, since it updates them.
 */
async function lookUp(sql: Sql, projectId: number, events: CapturedEvent[], withGroupTypes: boolean): Promise<Lookups> {
  const distinctIds = new Set<string>();
  for (const event of events) {
    distinctIds.add(event.distinctId);
    const other = isPersonless(event) ? null : mergeSource(event);
    if (other !== null) distinctIds.add(other);
  }
  const [row] = await sql.prepared<{ stored: string[]; owners: StoredOwner[]; types: Array<{ t: string; i: number }> }>(
    'lookup',
    // One index probe per value (LATERAL … LIMIT 1), whatever the statistics say: a plan that scans
    // the project's rows would grow with the project. Distinct ids are locked in sorted order.
    `with stored as (select x.uuid from unnest($2::uuid[]) as u(uuid)
                       cross join lateral (select e.uuid from event e where e.project_id = $1 and e.uuid = u.uuid limit 1) x),
          owners as (select d.distinct_id, p.id, p.uuid, p.is_identified, p.created_at
                       from unnest($3::text[]) as i(distinct_id)
                       cross join lateral (select d.distinct_id, d.person_id from person_distinct_id d
                                            where d.project_id = $1 and d.distinct_id = i.distinct_id limit 1 for share) d
                       cross join lateral (select p.id, p.uuid, p.is_identified, p.created_at from person p where p.id = d.person_id limit 1) p),
          types as (select group_type as t, group_type_index as i from group_type_mapping where project_id = $1 and $4)
     select (select coalesce(json_agg(uuid), '[]') from stored) as stored,
            (select coalesce(json_agg(owners), '[]') from owners) as owners,
            (select coalesce(json_agg(types), '[]') from types) as types`,
    [projectId, events.map((event) => event.uuid), [...distinctIds].sort(), withGroupTypes],
  );
  return { stored: new Set(row.stored), owners: row.owners, groupTypes: new Map(row.types.map(({ t, i }) => [t, i])) };
}

function uuidOf(ref: PersonRef | null): string | null {
  while (ref?.mergedInto) ref = ref.mergedInto;
  return ref?.uuid ?? null;
}

async function insertEvents(sql: Sql, projectId: number, rows: object[], now: Date) {
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    await sql.prepared(
      'insert_events',
      `insert into event (project_id, uuid, event, distinct_id, properties, timestamp, person_id, created_at)
       select $1, x.uuid, x.event, x.distinct_id, x.properties, x.timestamp, x.person_id, $3
         from jsonb_to_recordset($2::jsonb)
           as x(uuid uuid, event text, distinct_id text, properties jsonb, timestamp timestamptz, person_id uuid)
       on conflict (project_id, uuid) do nothing`,
      [projectId, JSON.stringify(rows.slice(start, start + INSERT_CHUNK)), now],
    );
  }
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
    for (const event of fresh) {
      if (event.event === '$groupidentify') groups.add(event, groupTypes);
      owners.push(await persons.process(event));
    }
    await persons.flush();
    await groups.save(sql, projectId);
    const rows = fresh.map((event, i) => ({
      uuid: event.uuid,
      event: event.event,
      distinct_id: event.distinctId,
      properties: withGroupKeys(event, groupTypes),
      timestamp: event.timestamp,
      person_id: uuidOf(owners[i]),
    }));
    await insertEvents(sql, projectId, rows, now);
  });
  // A new group type changes the SDK definitions (their group_type_mapping).
  if (typesRegistered) definitionsChanges.publish(projectId);
}
