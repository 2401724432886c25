import { jsonTextRefusal, MAX_JSON_DEPTH, MAX_JSON_KEY_LENGTH, MAX_JSON_SHAPES } from '../../validation/fields';
import { parseTimestamp } from './capture.timestamp';
import { captureErrors } from './ingestion.errors';

export interface CapturePayload {
  /** The events as sent (not yet validated). */
  items: unknown[];
  /** The request's one token (docs/ingestion.md §1.2 step 5), or null. */
  token: string | null;
  sentAt: Date | null;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const firstText = (...values: unknown[]) => values.find((v): v is string => typeof v === 'string' && v !== '') ?? null;
const firstOf = (value: unknown) => (Array.isArray(value) ? value[0] : value);

const UNSTORABLE_ESCAPE = /\\u(0000|[dD][89a-fA-F][0-9a-fA-F]{2})/;
// eslint-disable-next-line no-control-regex -- NUL is exactly what PostgreSQL cannot store
const NUL = /\u0000/g;
/** toWellFormed turns each lone surrogate into U+FFFD; NUL gets the same. */
const storable = (text: string) => text.toWellFormed().replace(NUL, '\ufffd');

// SPEC-GAP: PostgreSQL stores no NUL and no lone surrogate in text or jsonb; like upstream's
// ingestion, such characters become U+FFFD instead of failing the batch.
function sanitize(value: unknown): unknown {
  if (typeof value === 'string') return storable(value);
  if (Array.isArray(value)) return value.map(sanitize);
  if (!isObject(value)) return value;
  const clean: Json = {};
  for (const [key, item] of Object.entries(value)) {
    Object.defineProperty(clean, storable(key), {
      value: sanitize(item),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return clean;
}

/** A capture-protocol body's JSON text, with capture's refusals (also for remote evaluation's bodies). */
export function parseCaptureJson(text: string): unknown {
  // Read on the text first: parsing 20 MB of `[` would build ten million nested arrays before any
  // check, and 20 MB of never-repeating or overlong keys would take seconds (MAX_JSON_SHAPES, MAX_JSON_KEY_LENGTH).
  const refusal = jsonTextRefusal(text);
  if (refusal === 'depth') throw captureErrors.jsonTooDeep(MAX_JSON_DEPTH);
  if (refusal === 'shapes') throw captureErrors.tooManyShapes(MAX_JSON_SHAPES);
  if (refusal === 'key') throw captureErrors.keyTooLong(MAX_JSON_KEY_LENGTH);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw captureErrors.invalidJson((error as Error).message);
  }
}

/** docs/ingestion.md §1.2 steps 4–6: the JSON, its events, token and sent_at. */
export function parseCapturePayload(text: string, query: Record<string, unknown>): CapturePayload {
  if (text.trim() === '') throw captureErrors.noData();
  let value = parseCaptureJson(text);
  if (UNSTORABLE_ESCAPE.test(text)) value = sanitize(value);

  let items: unknown[];
  let envelope: Json = {};
  if (value === null) throw captureErrors.noData();
  if (Array.isArray(value)) {
    items = value;
  } else if (isObject(value) && 'batch' in value) {
    if (!Array.isArray(value.batch)) throw captureErrors.batchNotList();
    envelope = value;
    items = value.batch;
  } else if (isObject(value)) {
    items = Object.keys(value).length === 0 ? [] : [value];
  } else {
    // SPEC-GAP: a bare string, number or boolean is malformed; `null` is no data.
    throw captureErrors.notEventsJson();
  }
  if (items.length === 0) throw captureErrors.noData();

  const head = isObject(items[0]) ? items[0] : {};
  const token = firstText(
    envelope.api_key,
    envelope.token,
    head.api_key,
    head.token,
    head.$token,
    isObject(head.properties) ? head.properties.token : undefined,
    firstOf(query.token),
    firstOf(query.api_key),
  );
  const sentAt = [envelope.sent_at, envelope.sentAt, firstOf(query._)].map(parseSentAt).find((date) => date !== null) ?? null;
  return { items, token, sentAt };
}

/** ISO 8601, or a number (more than 11 digits: epoch milliseconds, else seconds). */
function parseSentAt(value: unknown): Date | null {
  if (typeof value === 'number' || (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value))) {
    const n = Number(value);
    const digits = String(Math.trunc(n)).length;
    const date = new Date(digits > 11 ? n : n * 1000);
    return Number.isFinite(n) && !Number.isNaN(date.getTime()) ? date : null;
  }
  return typeof value === 'string' ? parseTimestamp(value) : null;
}
