import { fieldErrors, requestErrors } from '../errors';
import { isPlainObject, pyTypeName } from './python';

/**
 * Field parsers with the upstream service's rules and messages (docs/rest-api.md §1.4). Each takes
 * the raw value a client sent (any JSON, or text from a form) and returns the parsed value or
 * throws a ValidationError naming `attr`. `null` is refused unless the field is nullable.
 */
/** Whether a request object carries a field at all (absent and null mean different things). */
export const hasField = (input: Record<string, unknown>, field: string) => Object.prototype.hasOwnProperty.call(input, field);

export interface FieldOptions {
  nullable?: boolean;
}

function refuseNull(value: unknown, attr: string, options: FieldOptions): value is null {
  if (value !== null) return false;
  if (!options.nullable) throw fieldErrors.null(attr);
  return true;
}

/** Strings accept numbers (converted to text) and are trimmed. */
export function parseString(
  value: unknown,
  attr: string,
  options: FieldOptions & { allowBlank?: boolean; maxLength?: number; trim?: boolean } = {},
): string | null {
  if (refuseNull(value, attr, options)) return null;
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number' && Number.isFinite(value)) text = String(value);
  else throw fieldErrors.notAString(attr);
  if (options.trim !== false) text = text.trim();
  if (!text && !options.allowBlank) throw fieldErrors.blank(attr);
  if (options.maxLength !== undefined && text.length > options.maxLength) throw fieldErrors.maxLength(attr, options.maxLength);
  refuseUnstorableText(text, attr);
  return text;
}

/** Only run on text that is not well formed, to name its first lone surrogate. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** What in `text` PostgreSQL cannot store: a NUL, or the first lone surrogate's code unit. */
function unstorableIn(text: string): 'nul' | number | null {
  if (text.includes('\u0000')) return 'nul';
  if (text.isWellFormed()) return null;
  const surrogate = LONE_SURROGATE.exec(text);
  return surrogate ? surrogate[0].charCodeAt(0) : null;
}

/**
 * SPEC-GAP: PostgreSQL's text and jsonb hold no NUL and no lone surrogate (UTF-16 half of a pair,
 * `"\ud800"` in JSON): NUL answers DRF's `null_characters_not_allowed`, a lone surrogate DRF's
 * `surrogate_characters_not_allowed` ("Surrogate characters are not allowed: U+D800."), before
 * any write is tried.
 */
export function refuseUnstorableText(text: string, attr: string): void {
  const found = unstorableIn(text);
  if (found === 'nul') throw fieldErrors.nullCharacters(attr);
  if (found !== null) throw fieldErrors.surrogateCharacters(attr, found);
}

/** Whether PostgreSQL can store `text` (no NUL, no lone surrogate). */
export const isStorableText = (text: string) => unstorableIn(text) === null;

/**
 * What a JSON field can hold, whoever writes it (REST, GraphQL, an import): nesting within
 * MAX_FIELD_JSON_DEPTH, then the text rule over every string, object keys included; the first
 * offender answers. Both walks are iterative, so a value of any depth is refused, never overflows.
 */
export function refuseUnstorableJson(value: unknown, attr: string): void {
  refuseDeepJson(value, attr);
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') {
      refuseUnstorableText(item, attr);
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) pending.push(item[i]);
    } else if (item !== null && typeof item === 'object') {
      for (const [key, element] of Object.entries(item).reverse()) {
        pending.push(element);
        pending.push(key);
      }
    }
  }
}

/**
 * JSON nested deeper than upstream's parser accepts (Python's recursion limit): such a value is
 * unparseable there, and here it would overflow the stack of whatever serialises it next.
 */
export const MAX_JSON_DEPTH = 1000;

/**
 * SPEC-GAP: how deep one field's JSON value may nest: the body's limit less the body's own level,
 * so a field REST could never receive is refused to every other writer too (flags:import), and
 * anything stored can be sent back in a REST body. The API document names no limit; over REST and
 * GraphQL the body limit refuses such values first, so this answers only writers without a body.
 */
export const MAX_FIELD_JSON_DEPTH = MAX_JSON_DEPTH - 1;

/** Refuses a field value nested deeper than MAX_FIELD_JSON_DEPTH, before anything walks it. */
export function refuseDeepJson(value: unknown, attr: string): void {
  if (exceedsJsonDepth(value, MAX_FIELD_JSON_DEPTH)) throw fieldErrors.tooDeep(attr, MAX_FIELD_JSON_DEPTH);
}

/**
 * How many distinct object shapes one JSON text may hold. V8 gives every new sequence of keys that
 * `JSON.parse` meets its own hidden class (a map, ~3 µs and ~1 KB each, kept while the objects
 * live), so 20 MB of objects whose keys never repeat cost seconds of one thread and gigabytes: a
 * public capture request could freeze the service, or end it. Bodies that SDKs send repeat a few
 * dozen shapes (a batch of 10,000 posthog-js events: 64), so the limit costs them nothing and bounds
 * the parse at ~50 ms and ~15 MB beyond what the text itself costs (Node 24, this machine).
 */
export const MAX_JSON_SHAPES = 50_000;

/**
 * How long one object key may be, as written. V8 hashes only a string's first 16,383 characters:
 * longer keys all hash alike, so each new one is compared with every other as JSON.parse stores it
 * (1,150 distinct keys of 16,384 characters, 25 KB gzipped, held the event loop for 2 s). No
 * property name needs this many; values may be as long as the body allows.
 */
export const MAX_JSON_KEY_LENGTH = 8192;

export type JsonTextRefusal = 'depth' | 'shapes' | 'key';

interface JsonTextLimits {
  depth?: number;
  shapes?: number;
  keyLength?: number;
}

const isJsonSpace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;

/** Whether text[start, end) is an array index (0 to 2^32 − 2, no leading zero): V8 keeps those among an object's elements. */
function isArrayIndex(text: string, start: number, end: number): boolean {
  const length = end - start;
  if (length < 1 || length > 10 || (length > 1 && text.charCodeAt(start) === 48)) return false;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return length < 10 || Number(text.slice(start, end)) < 4294967295;
}

/**
 * Why parsing JSON text would cost more than it may, read from the text itself (one pass, no
 * recursion, little built): objects and arrays nested deeper than `depth`; objects with more than
 * `shapes` distinct shapes, counted as the nodes of the tree of their key sequences (the tree of
 * hidden classes V8 builds from an empty object; a key that is an array index adds none, as V8 keeps
 * it among the object's elements); or a key longer than `keyLength`. Brackets and colons inside
 * strings do not count; a key is read as written (escapes not decoded). Null when the text is safe to
 * parse. On text that is not JSON the answer still bounds what a parser would build before failing.
 */
export function jsonTextRefusal(text: string, limits: JsonTextLimits = {}): JsonTextRefusal | null {
  const { depth: maxDepth = MAX_JSON_DEPTH, shapes: maxShapes = MAX_JSON_SHAPES, keyLength = MAX_JSON_KEY_LENGTH } = limits;
  // A key takes at least three characters (`"":`), so shorter text cannot hold more shapes than
  // allowed, nor a longer key: most bodies (every `/flags` one) get only the depth count.
  const countShapes = text.length >= 3 * (maxShapes + 1);
  const readKeys = countShapes || text.length > keyLength;
  type Shape = Map<string, Shape>;
  const empty: Shape = new Map();
  // Per open container: an object's shape so far, or null for an array.
  const open: Array<Shape | null> = [];
  let shapes = 0;
  let stringStart = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (stringStart >= 0) {
      if (c === 92) i++;
      else if (c === 34 && !readKeys) stringStart = -1;
      else if (c === 34) {
        const shape = open.length > 0 ? open[open.length - 1] : null;
        let next = i + 1;
        while (isJsonSpace(text.charCodeAt(next))) next++;
        if (shape !== null && text.charCodeAt(next) === 58) {
          if (i - stringStart > keyLength) return 'key';
          if (countShapes && !isArrayIndex(text, stringStart, i)) {
            const key = text.slice(stringStart, i);
            let grown = shape.get(key);
            if (grown === undefined) {
              if (++shapes > maxShapes) return 'shapes';
              grown = new Map();
              shape.set(key, grown);
            }
            open[open.length - 1] = grown;
          }
        }
        stringStart = -1;
      }
    } else if (c === 34) stringStart = i + 1;
    else if (c === 123 || c === 91) {
      if (open.length >= maxDepth) return 'depth';
      open.push(c === 123 ? empty : null);
    } else if (c === 93 || c === 125) open.pop();
  }
  return null;
}

/** Whether a parsed JSON value nests objects and lists more than `limit` levels deep. */
export function exceedsJsonDepth(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  const pending: Array<[unknown, number]> = [[value, 1]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth > limit) return true;
    for (const element of Array.isArray(item) ? item : Object.values(item)) pending.push([element, depth + 1]);
  }
  return false;
}

const TRUE_TEXT = new Set(['true', '1']);
const FALSE_TEXT = new Set(['false', '0']);

/** Booleans accept true/false, "true"/"false" (any case), "1"/"0", 1/0. */
export function parseBoolean(value: unknown, attr: string, options: FieldOptions = {}): boolean | null {
  if (refuseNull(value, attr, options)) return null;
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value === 'string') {
    const text = value.trim().toLowerCase();
    if (TRUE_TEXT.has(text)) return true;
    if (FALSE_TEXT.has(text)) return false;
  }
  throw fieldErrors.notABoolean(attr);
}

/** Integers accept whole JSON numbers and whole-number text. */
export function parseInteger(value: unknown, attr: string, options: FieldOptions = {}): number | null {
  if (refuseNull(value, attr, options)) return null;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  if (typeof value === 'string' && /^\s*[-+]?\d{1,15}\s*$/.test(value)) return Number(value);
  throw fieldErrors.notAnInteger(attr);
}

const ISO_DATETIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** Any ISO-8601 date-time; no offset means UTC. */
export function parseDateTime(value: unknown, attr: string, options: FieldOptions = {}): Date | null {
  if (refuseNull(value, attr, options)) return null;
  if (value instanceof Date) {
    if (!hasStorableYear(value)) throw fieldErrors.notADateTime(attr);
    return value;
  }
  const match = typeof value === 'string' ? ISO_DATETIME.exec(value.trim()) : null;
  if (!match) throw fieldErrors.notADateTime(attr);
  const [, y, mo, d, h, mi, s = '00', frac = '0', zone = 'Z'] = match;
  const offset = zone.toUpperCase() === 'Z' ? 'Z' : zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone;
  const ms = frac.padEnd(3, '0').slice(0, 3);
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}${offset}`);
  if (Number.isNaN(date.getTime()) || !isCalendarDate(Number(y), Number(mo), Number(d)) || Number(h) > 23) {
    throw fieldErrors.notADateTime(attr);
  }
  if (!hasStorableYear(date)) throw fieldErrors.notADateTime(attr);
  return date;
}

/** Years 1–9999 in UTC, as upstream's (Python) datetimes; the database refuses year 0. */
const hasStorableYear = (date: Date) => date.getUTCFullYear() >= 1 && date.getUTCFullYear() <= 9999;

/** JavaScript rolls 02-30 over into March (and 24:00 into the next day); Python refuses them. */
function isCalendarDate(year: number, month: number, day: number): boolean {
  const calendar = new Date(0);
  calendar.setUTCFullYear(year, month - 1, day);
  return calendar.getUTCFullYear() === year && calendar.getUTCMonth() === month - 1 && calendar.getUTCDate() === day;
}

export function parseList(value: unknown, attr: string, options: FieldOptions = {}): unknown[] | null {
  if (refuseNull(value, attr, options)) return null;
  if (!Array.isArray(value)) throw fieldErrors.notAList(attr, pyTypeName(value));
  return value;
}

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

export function parseUuid(value: unknown, attr: string, options: FieldOptions = {}): string | null {
  if (refuseNull(value, attr, options)) return null;
  if (!isUuid(value)) throw fieldErrors.notAUuid(attr);
  return value.toLowerCase();
}

/** A request body must be a JSON object (docs/rest-api.md §1.2); checked after lookups and permissions. */
export function requireObject(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (!isPlainObject(body)) throw requestErrors.notADictionary(pyTypeName(body));
  return body;
}
