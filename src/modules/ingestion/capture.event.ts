import { randomBytes } from 'node:crypto';
import { eventTimestamp } from './capture.timestamp';
import { captureErrors } from './ingestion.errors';
import { isUuid } from '../../validation/fields';
import { MAX_PROPERTY_UPDATE } from './person-properties';

/** A validated event, ready for docs/ingestion.md §3–§4 (group keys are added later). */
export interface CapturedEvent {
  uuid: string;
  event: string;
  distinctId: string;
  properties: Record<string, unknown>;
  timestamp: Date;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const MAX_EVENT_NAME = 400;
export const MAX_DISTINCT_ID = 200;

/** JSON type names as upstream's messages print them. */
export function jsonTypeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? 'object' : typeof value;
}

/** At most `n` characters, never splitting a surrogate pair. */
export function cut(text: string, n: number): string {
  return text.length <= n ? text : Array.from(text).slice(0, n).join('');
}

const characters = (text: string) => (text.length <= MAX_EVENT_NAME ? text.length : Array.from(text).length);

/** Lower case, hyphenated: the form PostgreSQL answers with, so uuids compare as text. */
function canonicalUuid(text: string): string {
  const hex = text.replace(/-/g, '').toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A UUIDv7: 48 bits of Unix milliseconds, then random bits. */
export function uuidv7(now = Date.now()): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = (bytes[6] & 0x0f) | 0x70;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function distinctIdOf(item: Json, properties: Json | null): string {
  const value = [item.distinct_id, item.$distinct_id, properties?.distinct_id].find((v) => v !== undefined && v !== null);
  if (value === undefined) throw captureErrors.distinctIdMissing();
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || text.trim() === '') throw captureErrors.distinctIdBlank();
  return cut(text, MAX_DISTINCT_ID);
}

/** Top-level `$set`/`$set_once` (posthog-python) join the properties' own; the top level wins per key. */
function mergeTopLevelSets(item: Json, properties: Json): Json {
  let merged = properties;
  for (const key of ['$set', '$set_once'] as const) {
    if (!isObject(item[key])) continue;
    if (merged === properties) merged = { ...properties };
    merged[key] = { ...(isObject(properties[key]) ? properties[key] : {}), ...item[key] };
  }
  return merged;
}

/** `$set`, `$set_once`, `$unset` and `$group_set` carry at most MAX_PROPERTY_UPDATE keys each (person-properties.ts). */
function refuseLargePropertyUpdates(properties: Json): void {
  for (const field of ['$set', '$set_once', '$unset', '$group_set']) {
    const value = properties[field];
    const size = Array.isArray(value) ? value.length : isObject(value) ? Object.keys(value).length : 0;
    if (size > MAX_PROPERTY_UPDATE) throw captureErrors.tooManyPropertyUpdates(field, MAX_PROPERTY_UPDATE);
  }
}

/**
 * docs/ingestion.md §2.1: one event checked and normalised; the first failure throws its 400.
 * SPEC-GAP: within an event the checks run event name, distinct id, uuid, properties.
 */
export function validateEvent(item: unknown, sentAt: Date | null, now: Date): CapturedEvent {
  if (!isObject(item)) throw captureErrors.eventNotObject(jsonTypeName(item));
  const { event } = item;
  if (event === undefined || event === null || event === '') throw captureErrors.eventNameMissing();
  if (typeof event !== 'string') throw captureErrors.eventNameNotString();
  if (characters(event) > MAX_EVENT_NAME) throw captureErrors.eventNameTooLong(MAX_EVENT_NAME);
  const rawProperties = item.properties;
  const distinctId = distinctIdOf(item, isObject(rawProperties) ? rawProperties : null);
  if (item.uuid !== undefined && item.uuid !== null && !isUuid(item.uuid)) {
    throw captureErrors.uuidInvalid();
  }
  if (rawProperties !== undefined && rawProperties !== null && !isObject(rawProperties)) {
    throw captureErrors.propertiesNotObject(jsonTypeName(rawProperties));
  }
  const properties = mergeTopLevelSets(item, rawProperties ?? {});
  refuseLargePropertyUpdates(properties);
  return {
    uuid: typeof item.uuid === 'string' ? canonicalUuid(item.uuid) : uuidv7(now.getTime()),
    event,
    distinctId,
    properties,
    timestamp: eventTimestamp(item, properties.$ignore_sent_at === true, sentAt, now),
  };
}
