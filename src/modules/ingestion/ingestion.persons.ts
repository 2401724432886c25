import { randomUUID } from 'node:crypto';
import { mapInSlices } from '../../event-loop-slices';
import { cut, MAX_DISTINCT_ID, type CapturedEvent } from './capture.event';
import { IngestionPersonStore, type DistinctIdOwner } from './ingestion-persons.store';
import { RetryableConflict, type Sql } from './ingestion.store';
import { mergeIntoDatabase } from './person-merge';
import {
  applyUpdate,
  composeUpdates,
  emptyUpdate,
  isEmptyUpdate,
  mergedUpdate,
  updateFromProperties,
  withinPropertyCap,
  type PropertyUpdate,
} from './person-properties';

/** A person as this request sees it, with the writes it still owes the database. */
export interface PersonRef {
  /** null until inserted. */
  id: number | null;
  uuid: string;
  isIdentified: boolean;
  createdAt: Date;
  /** Made by this request and not yet inserted. */
  isNew: boolean;
  /** New persons: everything since `{}`; existing ones: what is still to apply. */
  update: PropertyUpdate | null;
  /** An existing person that has become identified. */
  identify: boolean;
  distinctIds: string[];
  mergedInto: PersonRef | null;
}

const CASE_INSENSITIVE_ILLEGAL = new Set([
  'anonymous',
  'guest',
  'distinctid',
  'distinct_id',
  'id',
  'not_authenticated',
  'email',
  'undefined',
  'true',
  'false',
]);
const CASE_SENSITIVE_ILLEGAL = new Set(['[object Object]', 'NaN', 'None', 'none', 'null', '0']);

/** docs/ingestion.md §3.3: ids that never take part in a merge. */
export function isIllegalDistinctId(id: string): boolean {
  const trimmed = id.trim();
  if (trimmed === '') return true;
  const unquoted = /^(['"])(.*)\1$/.exec(trimmed)?.[2] ?? trimmed;
  return [trimmed, unquoted].some((text) => CASE_INSENSITIVE_ILLEGAL.has(text.toLowerCase()) || CASE_SENSITIVE_ILLEGAL.has(text));
}

function stringified(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'object') return Array.isArray(value) ? String(value) : '[object Object]';
  return cut(String(value), MAX_DISTINCT_ID);
}

/** The other id O of `$identify`, `$create_alias` or `$merge_dangerously`, or null. */
export function mergeSource(event: CapturedEvent): string | null {
  if (event.event === '$identify') return stringified(event.properties.$anon_distinct_id);
  if (event.event === '$create_alias' || event.event === '$merge_dangerously') return stringified(event.properties.alias);
  return null;
}

export const isPersonless = (event: CapturedEvent) =>
  event.event === '$groupidentify' || event.properties.$process_person_profile === false;

/**
 * docs/ingestion.md §3: persons for a request's events, in array order. Lookups happen once up front
 * (mappings read FOR SHARE, so a concurrent merge waits for this transaction); creations and
 * property updates are planned in memory and written in a few multi-row statements by `flush`,
 * which also runs before any merge of two stored persons.
 */
export class PersonPlanner {
  private readonly owners = new Map<string, PersonRef>();
  private readonly refs = new Set<PersonRef>();
  private created: PersonRef[] = [];
  /** Distinct ids given to persons by this request, in the order they were given. */
  private added: string[] = [];

  constructor(
    private readonly sql: Sql,
    private readonly projectId: number,
    private readonly now: Date,
  ) {}

  /** The stored owners of the request's distinct ids (read FOR SHARE by the caller). */
  load(rows: DistinctIdOwner[]) {
    const byId = new Map<number, PersonRef>();
    for (const row of rows) {
      let ref = byId.get(row.id);
      if (!ref) {
        ref = { ...this.blank(row.uuid, row.created_at), id: row.id, isIdentified: row.is_identified, isNew: false };
        byId.set(row.id, ref);
        this.refs.add(ref);
      }
      ref.distinctIds.push(row.distinct_id);
      this.owners.set(row.distinct_id, ref);
    }
  }

  ownerOf(distinctId: string): PersonRef | null {
    let ref = this.owners.get(distinctId) ?? null;
    while (ref?.mergedInto) ref = ref.mergedInto;
    return ref;
  }

  /**
   * The person the event is stored with (null: personless and unowned). SPEC-GAP: a personless event
   * or `$groupidentify` takes its distinct id's owner at that point of the request.
   */
  async process(event: CapturedEvent): Promise<PersonRef | null> {
    const d = event.distinctId;
    if (isPersonless(event)) return this.ownerOf(d);
    const o = mergeSource(event);
    if (o !== null && o !== d && !isIllegalDistinctId(o) && !isIllegalDistinctId(d)) await this.merge(d, o, event);
    const person = this.ownerOf(d) ?? this.create(d, event.timestamp);
    const update = updateFromProperties(event.properties);
    if (!isEmptyUpdate(update)) person.update = person.update ? composeUpdates(person.update, update) : update;
    return person;
  }

  private blank(uuid: string, createdAt: Date): PersonRef {
    return {
      id: null,
      uuid,
      isIdentified: false,
      createdAt,
      isNew: true,
      update: null,
      identify: false,
      distinctIds: [],
      mergedInto: null,
    };
  }

  private create(distinctId: string, createdAt: Date): PersonRef {
    const ref = this.blank(randomUUID(), createdAt);
    this.created.push(ref);
    this.refs.add(ref);
    this.give(ref, distinctId);
    return ref;
  }

  private give(ref: PersonRef, distinctId: string) {
    ref.distinctIds.push(distinctId);
    this.owners.set(distinctId, ref);
    this.added.push(distinctId);
  }

  private identify(ref: PersonRef) {
    if (ref.isIdentified) return;
    ref.isIdentified = true;
    if (!ref.isNew) ref.identify = true;
  }

  /** docs/ingestion.md §3.3's table. */
  private async merge(d: string, o: string, event: CapturedEvent) {
    const [target, source] = [this.ownerOf(d), this.ownerOf(o)];
    if (!target && !source) {
      const ref = this.create(d, event.timestamp);
      this.give(ref, o);
      return this.identify(ref);
    }
    if (!target || !source || target === source) {
      const ref = (target ?? source)!;
      if (!target) this.give(ref, d);
      if (!source) this.give(ref, o);
      return this.identify(ref);
    }
    // SPEC-GAP: a refused merge still marks the surviving person identified.
    this.identify(target);
    if (source.isIdentified && event.event !== '$merge_dangerously') return;
    if (target.isNew && source.isNew) {
      // Neither is stored yet: the merge happens in memory.
      target.update = mergedUpdate(target.update ?? emptyUpdate(), source.update ?? emptyUpdate());
      source.update = null;
      target.distinctIds.push(...source.distinctIds);
      if (source.createdAt < target.createdAt) target.createdAt = source.createdAt;
      source.mergedInto = target;
      return;
    }
    await this.flush();
    await mergeIntoDatabase(this.sql, this.projectId, target, source, event.event === '$merge_dangerously');
  }

  /** Writes what is planned: new persons, their distinct ids, then property updates. */
  async flush() {
    const created = this.created.filter((ref) => !ref.mergedInto);
    this.created = [];
    const creations = new Map(created.map((ref) => [ref, ref.update]));
    if (created.length > 0) {
      const ids = await IngestionPersonStore.insertPersons(
        this.sql,
        this.projectId,
        await mapInSlices(created, (ref) => ({
          uuid: ref.uuid,
          properties: withinPropertyCap(applyUpdate({}, ref.update ?? emptyUpdate())),
          is_identified: ref.isIdentified,
          created_at: ref.createdAt,
        })),
      );
      for (const ref of created) Object.assign(ref, { id: ids.get(ref.uuid)!, isNew: false, update: null });
    }
    await this.saveDistinctIds(creations);
    await this.saveUpdates();
  }

  /**
   * SPEC-GAP: new persons are inserted together (docs/ingestion.md §5), not under a savepoint each: one multi-row insert skips ids
   * another transaction took meanwhile (ON CONFLICT waits for it to commit). A new
   * person that lost its only id becomes the winner (its creating update then applies to the
   * winner, as if the winner had been seen first); any other loss reruns the request.
   */
  private async saveDistinctIds(creations: Map<PersonRef, PropertyUpdate | null>) {
    const added = this.added;
    this.added = [];
    if (added.length === 0) return;
    const inserted = await IngestionPersonStore.insertDistinctIds(
      this.sql,
      this.projectId,
      added.map((distinctId) => ({ distinctId, personId: this.ownerOf(distinctId)!.id! })),
      this.now,
    );
    if (inserted.length === added.length) return;
    const won = new Set(inserted);
    const lost = added.filter((id) => !won.has(id));
    const losers = lost.map((id) => this.ownerOf(id)!);
    if (losers.some((ref) => !creations.has(ref) || ref.distinctIds.length !== 1)) throw new RetryableConflict('distinct id taken');
    await IngestionPersonStore.deletePersons(
      this.sql,
      losers.map((ref) => ref.id!),
    );
    const winners = await IngestionPersonStore.ownersOf(this.sql, this.projectId, lost);
    if (winners.length !== lost.length || new Set(winners.map((w) => w.id)).size !== winners.length)
      throw new RetryableConflict('distinct id moved');
    for (const winner of winners) {
      const ref = this.ownerOf(winner.distinct_id)!;
      Object.assign(ref, {
        id: winner.id,
        uuid: winner.uuid,
        createdAt: winner.created_at,
        update: creations.get(ref) ?? null,
        identify: ref.isIdentified && !winner.is_identified,
        isIdentified: ref.isIdentified || winner.is_identified,
      });
    }
  }

  /** One statement for every stored person with pending changes: `(set_once || properties || set) - unset`. */
  private async saveUpdates() {
    const pending = [...this.refs].filter(
      (ref) => !ref.isNew && !ref.mergedInto && (ref.identify || (ref.update !== null && !isEmptyUpdate(ref.update))),
    );
    if (pending.length === 0) return;
    await IngestionPersonStore.updatePersons(
      this.sql,
      pending.map((ref) => ({
        id: ref.id!,
        setOnce: ref.update?.setOnce ?? {},
        set: ref.update?.set ?? {},
        unset: [...(ref.update?.unset ?? [])],
        identify: ref.identify,
      })),
    );
    for (const ref of pending) Object.assign(ref, { update: null, identify: false });
  }
}
