import { fieldErrors } from '../errors';
import { pyTypeName } from './python';

/**
 * Field parsers with the upstream service's rules and messages (rest-flags.md §1.4). Each takes
 * the raw value a client sent (any JSON, or text from a form) and returns the parsed value or
 * throws a ValidationError naming `attr`. `null` is refused unless the field is nullable.
 */
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
  return text;
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

const ISO_DATETIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** Any ISO-8601 date-time; no offset means UTC. */
export function parseDateTime(value: unknown, attr: string, options: FieldOptions = {}): Date | null {
  if (refuseNull(value, attr, options)) return null;
  if (value instanceof Date) return value;
  const match = typeof value === 'string' ? ISO_DATETIME.exec(value.trim()) : null;
  if (!match) throw fieldErrors.notADateTime(attr);
  const [, y, mo, d, h, mi, s = '00', frac = '0', zone = 'Z'] = match;
  const offset = zone.toUpperCase() === 'Z' ? 'Z' : zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone;
  const ms = frac.padEnd(3, '0').slice(0, 3);
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}${offset}`);
  if (Number.isNaN(date.getTime()) || date.getUTCDate() !== Number(d) && offset === 'Z') throw fieldErrors.notADateTime(attr);
  return date;
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
