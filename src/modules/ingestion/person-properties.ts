import { dataRecord } from '../../data-record';

/**
 * Person property updates (docs/ingestion.md §3.2) as values: an update is `(setOnce || P || set) - unset`,
 * and two updates in a row compose into one of the same form, so a request writes each person once.
 * Normalised form: `set` and `setOnce` hold no key of `unset`, and `setOnce` no key of `set`.
 */
export interface PropertyUpdate {
  setOnce: Record<string, unknown>;
  set: Record<string, unknown>;
  unset: Set<string>;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const has = (object: Json, key: string) => Object.prototype.hasOwnProperty.call(object, key);

/**
 * A bag of properties (src/data-record.ts): `__proto__` is data, and plain assignment stays fast on
 * the dictionaries a large update makes (defining each property instead cost more than the rest of
 * a 100,000-key batch).
 */
const bag = (): Json => dataRecord();

function normalise(setOnce: Json, set: Json, unset: Iterable<string>): PropertyUpdate {
  const removed = new Set(unset);
  const s = bag();
  const so = bag();
  for (const [key, value] of Object.entries(set)) if (!removed.has(key)) s[key] = value;
  for (const [key, value] of Object.entries(setOnce)) if (!removed.has(key) && !has(s, key)) so[key] = value;
  return { setOnce: so, set: s, unset: removed };
}

export const emptyUpdate = (): PropertyUpdate => ({ setOnce: bag(), set: bag(), unset: new Set() });

const isEmptyObject = (object: Json) => {
  for (const _key in object) return false;
  return true;
};

export const isEmptyUpdate = (update: PropertyUpdate) =>
  update.unset.size === 0 && isEmptyObject(update.set) && isEmptyObject(update.setOnce);

/** The update an event asks for: `$set`, `$set_once` (objects) and `$unset` (a list of keys, or an object's keys); wrong types are ignored. */
export function updateFromProperties(properties: Json): PropertyUpdate {
  const { $set: set, $set_once: setOnce, $unset: unset } = properties;
  const unsetKeys = Array.isArray(unset)
    ? unset.filter((key): key is string => typeof key === 'string')
    : isObject(unset)
      ? Object.keys(unset)
      : [];
  return normalise(isObject(setOnce) ? setOnce : {}, isObject(set) ? set : {}, unsetKeys);
}

/**
 * `first` then `second`, as one update: `first` is changed in place and returned (the caller's
 * running update of a person, never shared). Each event of a request costs what its own keys do,
 * whatever the person has gathered before it: copying the gathered update per event made a batch
 * of one person's events quadratic (200 events of 1,000 new keys held the event loop 32 s).
 */
export function composeUpdates(first: PropertyUpdate, second: PropertyUpdate): PropertyUpdate {
  const { set, setOnce, unset } = first;
  let grown = 0;
  for (const [key, value] of Object.entries(second.set)) {
    if (!has(set, key)) grown += 1;
    set[key] = value;
    delete setOnce[key];
    unset.delete(key);
  }
  for (const key of second.unset) {
    if (has(set, key)) grown -= 1;
    delete set[key];
    delete setOnce[key];
    unset.add(key);
  }
  // Normalised: no key of second.setOnce is in second.set or second.unset.
  for (const [key, value] of Object.entries(second.setOnce)) {
    if (has(set, key) || has(setOnce, key)) continue;
    if (unset.delete(key)) {
      set[key] = value;
      grown += 1;
    } else setOnce[key] = value;
  }
  resized(set, grown);
  return first;
}

/**
 * How many keys a bag holds, once counted, kept as it grows: counting a bag of thousands of keys on
 * every merge (`Object.keys`) made a chain of merges quadratic again (1,000 merges, 3.7 s).
 */
const bagSizes = new WeakMap<Json, number>();

function sizeOf(bag: Json): number {
  let size = bagSizes.get(bag);
  if (size === undefined) bagSizes.set(bag, (size = Object.keys(bag).length));
  return size;
}

/** A counted bag that gained (or, negative, lost) keys. */
function resized(bag: Json, grown: number): void {
  const size = bagSizes.get(bag);
  if (size !== undefined && grown !== 0) bagSizes.set(bag, size + grown);
}

/**
 * The properties a person not stored yet ends with (`update` applied to nothing), built in the
 * update's own `set` where it can be: the update is spent.
 */
function bagOf(update: PropertyUpdate): Json {
  const bag = update.set;
  let grown = 0;
  for (const [key, value] of Object.entries(update.setOnce)) {
    if (has(bag, key)) continue;
    bag[key] = value;
    grown += 1;
  }
  resized(bag, grown);
  return bag;
}

/**
 * Two persons not stored yet, merged in memory (docs/ingestion.md §3.3): the target's properties
 * over the source's. The smaller bag is poured into the larger, so a chain of merges costs what the
 * merged keys do, not what the growing person holds each time. Which keys come first (what
 * MAX_PERSON_PROPERTIES keeps) follows the larger bag.
 */
export function mergedUpdate(target: PropertyUpdate, source: PropertyUpdate): PropertyUpdate {
  const [into, from] = [bagOf(target), bagOf(source)];
  const [intoSize, fromSize] = [sizeOf(into), sizeOf(from)];
  let merged: Json;
  let grown = 0;
  if (intoSize >= fromSize) {
    for (const [key, value] of Object.entries(from)) {
      if (has(into, key)) continue;
      into[key] = value;
      grown += 1;
    }
    merged = into;
  } else {
    for (const [key, value] of Object.entries(into)) {
      if (!has(from, key)) grown += 1;
      from[key] = value;
    }
    merged = from;
  }
  resized(merged, grown);
  return { setOnce: bag(), set: merged, unset: new Set() };
}

/**
 * SPEC-GAP: a person holds at most this many properties (docs/ingestion.md §3.2): past it, keys it
 * does not have yet are dropped (the ones it has still change), so evaluation never reads an
 * unbounded bag. An event's `$set`, `$set_once`, `$unset` and `$group_set` carry at most
 * MAX_PROPERTY_UPDATE keys each, else it is refused.
 */
export const MAX_PERSON_PROPERTIES = 10_000;
export const MAX_PROPERTY_UPDATE = 1000;

/** `properties` with at most MAX_PERSON_PROPERTIES keys: the first ones, in order. */
export function withinPropertyCap(properties: Json): Json {
  const keys = Object.keys(properties);
  if (keys.length <= MAX_PERSON_PROPERTIES) return properties;
  const kept = bag();
  for (const key of keys.slice(0, MAX_PERSON_PROPERTIES)) kept[key] = properties[key];
  return kept;
}

/** `(setOnce || properties || set) - unset`. */
export function applyUpdate(properties: Json, update: PropertyUpdate): Json {
  const result = bag();
  for (const [key, value] of Object.entries(update.setOnce)) result[key] = value;
  for (const [key, value] of Object.entries(properties)) result[key] = value;
  for (const [key, value] of Object.entries(update.set)) result[key] = value;
  for (const key of update.unset) delete result[key];
  return result;
}
