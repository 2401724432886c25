import { MAX_GROUP_TYPES } from '../group/group-type-mapping.entity';
import type { CapturedEvent } from './capture.event';
import { IngestionGroupStore, type GroupTypeInsert, type GroupWrite } from './ingestion-groups.store';
import type { Sql } from './ingestion.store';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const MAX_GROUP_TEXT = 400;

// SPEC-GAP: a group type name is a non-empty string of at most 400 characters, like a key.
const groupType = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' && value.length <= MAX_GROUP_TEXT ? value : null;

/** A group key: a string or number (as text), 1–400 characters (docs/ingestion.md §4). */
export function groupKey(value: unknown): string | null {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  return typeof text === 'string' && text !== '' && text.length <= MAX_GROUP_TEXT ? text : null;
}

/** The (type, key) pairs an event names: its `$groups`, then a `$groupidentify`'s own group. */
function groupsNamed(event: CapturedEvent): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  const { $groups: groups, $group_type: type, $group_key: key } = event.properties;
  if (isObject(groups)) {
    for (const [name, value] of Object.entries(groups)) {
      const [t, k] = [groupType(name), groupKey(value)];
      if (t !== null && k !== null) pairs.push([t, k]);
    }
  }
  if (event.event === '$groupidentify' && groupType(type) !== null && groupKey(key) !== null) pairs.push([type as string, groupKey(key)!]);
  return pairs;
}

/** The group types a request's events name, in order of first appearance. */
export function groupTypesNamed(events: CapturedEvent[]): string[] {
  return [...new Set(events.flatMap((event) => groupsNamed(event).map(([type]) => type)))];
}

/**
 * The project's group types (`known`: as read with the request's other lookups), registering new
 * ones at the next free index in order of first appearance. Registration locks the project row and
 * reads the mapping again, so indexes stay dense and unique. A sixth type is ignored.
 * SPEC-GAP: the lock is FOR NO KEY UPDATE, not FOR UPDATE, so inserts referencing the project go on.
 */
export async function registerGroupTypes(
  sql: Sql,
  projectId: number,
  wanted: string[],
  known: Map<string, number>,
): Promise<Map<string, number>> {
  if (wanted.every((type) => known.has(type)) || known.size >= MAX_GROUP_TYPES) return known;
  await IngestionGroupStore.lockProject(sql, projectId);
  const mapping = await IngestionGroupStore.groupTypes(sql, projectId);
  const taken = new Set(mapping.values());
  const added: GroupTypeInsert[] = [];
  for (const type of wanted) {
    if (mapping.has(type)) continue;
    let index = 0;
    while (taken.has(index)) index++;
    if (index >= MAX_GROUP_TYPES) break;
    taken.add(index);
    mapping.set(type, index);
    added.push({ type, index });
  }
  if (added.length > 0) await IngestionGroupStore.insertGroupTypes(sql, projectId, added);
  return mapping;
}

/** The properties to store: `$group_<index>` added for each registered type in `$groups`. */
export function withGroupKeys(event: CapturedEvent, mapping: Map<string, number>): Json {
  const groups = event.properties.$groups;
  if (mapping.size === 0 || !isObject(groups)) return event.properties;
  const properties: Json = { ...event.properties };
  for (const [name, value] of Object.entries(groups)) {
    const [index, key] = [mapping.get(name), groupKey(value)];
    if (index !== undefined && key !== null) properties[`$group_${index}`] = key;
  }
  return properties;
}

/** `$groupidentify` effects of a request, merged per group in order (the first event's time creates). */
export class GroupWrites {
  private readonly writes = new Map<string, GroupWrite>();

  add(event: CapturedEvent, mapping: Map<string, number>) {
    const { $group_type: type, $group_key: rawKey, $group_set: set } = event.properties;
    const index = typeof type === 'string' ? mapping.get(type) : undefined;
    const key = groupKey(rawKey);
    if (index === undefined || key === null) return;
    const id = `${index}:${key}`;
    const properties = isObject(set) ? set : {};
    const write = this.writes.get(id);
    if (write) write.properties = { ...write.properties, ...properties };
    else this.writes.set(id, { index, key, properties, createdAt: event.timestamp });
  }

  /** One upsert: new groups take the properties, existing ones merge them shallowly (new wins). */
  async save(sql: Sql, projectId: number) {
    if (this.writes.size === 0) return;
    await IngestionGroupStore.upsertGroups(sql, projectId, [...this.writes.values()]);
  }
}
