import { remoteEvaluationErrors } from './flag-evaluation.errors';
import { parseCaptureJson } from '../ingestion/capture.payload';
import type { PropertyOverlay } from './evaluation-subject';
import { dataRecord } from '../../data-record';

/** What one `/flags` or `/decide` request asks (docs/remote-evaluation.md ("The request")), read from its decoded body. */
export interface RemoteEvaluationRequest {
  /** The public token from the body (`token`, else `api_key`), else `?token=`; null when none. */
  token: string | null;
  /** The raw body, so the token is checked (401) before the fields (400). */
  body: Json;
}

export interface RemoteEvaluationSubject {
  distinctId: string;
  /** Group type name → group key. */
  groups: Record<string, string>;
  overlay: PropertyOverlay;
  /** null: every flag. */
  flagKeys: Set<string> | null;
  disableFlags: boolean;
}

type Json = Record<string, unknown>;

/**
 * SPEC-GAP: bounds of one request (docs/remote-evaluation.md, "The request"), so that reading and
 * overlaying its properties stays cheap: posthog-js sends a few dozen at most. Past them: 413, 400.
 */
export const MAX_EVALUATION_BODY_BYTES = 1024 * 1024;
export const MAX_REQUEST_PROPERTIES = 1000;
export const MAX_REQUEST_GROUPS = 100;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const firstOf = (value: unknown) => (Array.isArray(value) ? value[0] : value);
const nonEmptyText = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** The decoded body text (capture's decoding, docs/ingestion.md §1.2) as JSON: empty means `{}`. */
export function parseRemoteEvaluationBody(text: string, query: Record<string, unknown>): RemoteEvaluationRequest {
  // Text length counts UTF-16 units: never more than the UTF-8 bytes, so this refuses nothing the cap allows.
  if (text.length > MAX_EVALUATION_BODY_BYTES && Buffer.byteLength(text) > MAX_EVALUATION_BODY_BYTES) {
    throw remoteEvaluationErrors.bodyTooLarge(MAX_EVALUATION_BODY_BYTES);
  }
  let body: Json = {};
  if (text.trim() !== '') {
    const value = parseCaptureJson(text);
    // SPEC-GAP: a body that is JSON but not an object (a list, a string) is malformed; `null` is an empty body.
    if (value !== null && !isObject(value)) throw remoteEvaluationErrors.notAnObject();
    body = (value as Json | null) ?? {};
  }
  const token = [body.token, body.api_key, firstOf(query.token)].find(nonEmptyText) ?? null;
  return { token, body };
}

/** Counts an object's own keys, stopping past `max`. */
function keysOver(value: Json, max: number): number {
  let count = 0;
  for (const key in value) if (Object.prototype.hasOwnProperty.call(value, key) && ++count > max) break;
  return count;
}

const absent = (value: unknown) => value === undefined || value === null;

/** An object of objects (absent: none); at most MAX_REQUEST_PROPERTIES properties in all. */
function groupPropertiesOf(value: unknown): Record<string, Json> {
  if (absent(value)) return {};
  if (!isObject(value)) throw remoteEvaluationErrors.propertiesNotAnObject('group_properties');
  if (keysOver(value, MAX_REQUEST_GROUPS) > MAX_REQUEST_GROUPS) throw remoteEvaluationErrors.tooManyGroups(MAX_REQUEST_GROUPS);
  const groups = Object.entries(value).filter((entry): entry is [string, Json] => !absent(entry[1]));
  for (const [name, properties] of groups) {
    if (!isObject(properties))
      throw remoteEvaluationErrors.propertiesNotAnObject('group_properties', `group_properties.${name.slice(0, 200)}`);
  }
  let total = 0;
  for (const [, properties] of groups) {
    total += keysOver(properties, MAX_REQUEST_PROPERTIES);
    if (total > MAX_REQUEST_PROPERTIES) throw remoteEvaluationErrors.tooManyProperties('group_properties', MAX_REQUEST_PROPERTIES);
  }
  return Object.fromEntries(groups);
}

/**
 * The fields of docs/remote-evaluation.md ("The request"). Refused: a missing or unusable `distinct_id`; `groups`,
 * `person_properties`, `group_properties` or one of its entries that is present but not an object. Read leniently (SPEC-GAP): a group key that is neither text nor a number is
 * ignored; a `flag_keys` that is not a list means every flag, and non-text items in it name nothing.
 */
export function readSubject(body: Json): RemoteEvaluationSubject {
  const raw = body.distinct_id;
  // SPEC-GAP: the id is used as sent (not cut to 200 characters as capture does), so the answer equals
  // evaluation_reasons and posthog-node's local evaluation for the same id.
  const distinctId = typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : raw;
  if (typeof distinctId !== 'string' || distinctId === '') throw remoteEvaluationErrors.distinctIdRequired();

  if (body.groups !== undefined && body.groups !== null && !isObject(body.groups)) throw remoteEvaluationErrors.groupsNotAnObject();
  if (isObject(body.groups) && keysOver(body.groups, MAX_REQUEST_GROUPS) > MAX_REQUEST_GROUPS) {
    throw remoteEvaluationErrors.tooManyGroups(MAX_REQUEST_GROUPS);
  }
  if (!absent(body.person_properties) && !isObject(body.person_properties)) {
    throw remoteEvaluationErrors.propertiesNotAnObject('person_properties');
  }
  const personProperties = isObject(body.person_properties) ? body.person_properties : {};
  if (keysOver(personProperties, MAX_REQUEST_PROPERTIES) > MAX_REQUEST_PROPERTIES) {
    throw remoteEvaluationErrors.tooManyProperties('person_properties', MAX_REQUEST_PROPERTIES);
  }
  const groups = dataRecord<string>();
  for (const [name, key] of Object.entries(body.groups ?? {})) {
    if (typeof key === 'string' && key !== '') groups[name] = key;
    else if (typeof key === 'number' && Number.isFinite(key)) groups[name] = String(key);
  }

  const keys = Array.isArray(body.flag_keys)
    ? body.flag_keys
    : Array.isArray(body.flag_keys_to_evaluate)
      ? body.flag_keys_to_evaluate
      : null;
  return {
    distinctId,
    groups,
    overlay: { personProperties, groupProperties: groupPropertiesOf(body.group_properties) },
    flagKeys: keys ? new Set(keys.filter((key): key is string => typeof key === 'string')) : null,
    disableFlags: body.disable_flags === true,
  };
}
