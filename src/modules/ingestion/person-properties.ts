/**
 * Person property updates (docs/ingestion.md §3.2) as values: an update is `(setOnce || P || set) - unset`,
 * and two updates in a row compose into one of the same form, so a request writes each person once.
 * Normalised form: `set` and `setOnce` hold no key of `unset`, and `setOnce` no key of `set`.
 */
export interface PropertyUpdate {
  setOnce: Record<string, unknown>;
  set: Record<string, unknown>;
  unset: string[];
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const has = (object: Json, key: string) => Object.prototype.hasOwnProperty.call(object, key);

/** Plain assignment would treat `__proto__` as the prototype; properties are data. */
function put(object: Json, key: string, value: unknown) {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

function normalise(setOnce: Json, set: Json, unset: Iterable<string>): PropertyUpdate {
  const removed = new Set(unset);
  const s: Json = {};
  const so: Json = {};
  for (const [key, value] of Object.entries(set)) if (!removed.has(key)) put(s, key, value);
  for (const [key, value] of Object.entries(setOnce)) if (!removed.has(key) && !has(s, key)) put(so, key, value);
  return { setOnce: so, set: s, unset: [...removed] };
}

export const isEmptyUpdate = (update: PropertyUpdate) =>
  update.unset.length === 0 && Object.keys(update.set).length === 0 && Object.keys(update.setOnce).length === 0;

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

/** `first` then `second`, as one update. */
export function composeUpdates(first: PropertyUpdate, second: PropertyUpdate): PropertyUpdate {
  const set: Json = { ...second.set };
  const setOnce: Json = {};
  const unset = new Set(second.unset);
  const decided = (key: string) => has(set, key) || unset.has(key);
  for (const key of first.unset) {
    if (decided(key)) continue;
    if (has(second.setOnce, key)) put(set, key, second.setOnce[key]);
    else unset.add(key);
  }
  for (const [key, value] of Object.entries(first.set)) if (!decided(key)) put(set, key, value);
  for (const [key, value] of Object.entries(first.setOnce)) if (!decided(key)) put(setOnce, key, value);
  for (const [key, value] of Object.entries(second.setOnce)) if (!decided(key) && !has(setOnce, key)) put(setOnce, key, value);
  return { setOnce, set, unset: [...unset] };
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
  const kept: Json = {};
  for (const key of keys.slice(0, MAX_PERSON_PROPERTIES)) put(kept, key, properties[key]);
  return kept;
}

/** `(setOnce || properties || set) - unset`. */
export function applyUpdate(properties: Json, update: PropertyUpdate): Json {
  const result: Json = {};
  for (const [key, value] of Object.entries(update.setOnce)) put(result, key, value);
  for (const [key, value] of Object.entries(properties)) put(result, key, value);
  for (const [key, value] of Object.entries(update.set)) put(result, key, value);
  for (const key of update.unset) delete result[key];
  return result;
}
