import { isPropertyOperator, parseRelativeOrAbsoluteDate } from './operators';
import { regexProblem, regexTest } from './regex';
import { matchSemver, type SemverOperator } from './semver';

/** A flag or cohort filter as stored: `{key, value, operator?, type, group_type_index?, negation?}`. */
export type PropertyFilter = Record<string, unknown>;
export type PropertyBag = Record<string, unknown>;

const hasOwn = (bag: PropertyBag, key: string) => Object.prototype.hasOwnProperty.call(bag, key);

/** docs/evaluation.md §4.2. */
export function str(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null');
}

/** A-Z to a-z, nothing else (icontains and friends fold ASCII only): one pass, whatever the text. */
function asciiLower(s: string): string {
  // eslint-disable-next-line no-control-regex -- ASCII only: there toLowerCase folds exactly A-Z
  if (!/[^\x00-\x7f]/.test(s)) return s.toLowerCase();
  const codes = new Uint16Array(s.length);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    codes[i] = c >= 65 && c <= 90 ? c + 32 : c;
  }
  let lowered = '';
  for (let i = 0; i < codes.length; i += 8192) lowered += String.fromCharCode(...codes.subarray(i, i + 8192));
  return lowered;
}

/** Longest text read as a number (docs/evaluation.md §4.5); a longer one is no number. */
export const MAX_NUMERIC_LENGTH = 1000;

const isDigit = (code: number) => code >= 48 && code <= 57;

/** Whether `s` is `[+-]?(digits[.digits?] | .digits)([eE][+-]?digits)?`: one scan, no backtracking. */
function isDecimalText(s: string): boolean {
  let i = s.charCodeAt(0) === 43 || s.charCodeAt(0) === 45 ? 1 : 0; // + or -
  const integerStart = i;
  while (i < s.length && isDigit(s.charCodeAt(i))) i++;
  let digits = i - integerStart;
  if (s.charCodeAt(i) === 46) {
    const fractionStart = ++i; // after the .
    while (i < s.length && isDigit(s.charCodeAt(i))) i++;
    digits += i - fractionStart;
  }
  if (digits === 0) return false;
  if (s.charCodeAt(i) === 101 || s.charCodeAt(i) === 69) {
    i++; // e or E
    if (s.charCodeAt(i) === 43 || s.charCodeAt(i) === 45) i++;
    const start = i;
    while (i < s.length && isDigit(s.charCodeAt(i))) i++;
    if (i === start) return false;
  }
  return i === s.length;
}

/** docs/evaluation.md §4.5: a finite JSON number, or a string in plain decimal/exponent form. */
export function numeric(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.length <= MAX_NUMERIC_LENGTH && isDecimalText(value)) {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

const isBooleanLikeScalar = (v: unknown) => typeof v === 'boolean' || (typeof v === 'string' && /^(true|false)$/i.test(v));

function truthy(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') return value.toLowerCase() === 'true';
  if (Array.isArray(value)) return value.every(truthy);
  return false;
}

/** docs/evaluation.md §4.4: `exact` when the key is present. */
function exact(expected: unknown, actual: unknown): boolean {
  if (isBooleanLikeScalar(expected) || (Array.isArray(expected) && expected.every(isBooleanLikeScalar))) {
    return truthy(expected) === truthy(actual);
  }
  const target = str(actual).toLowerCase();
  if (Array.isArray(expected)) return expected.some((item) => str(item).toLowerCase() === target);
  return str(expected).toLowerCase() === target;
}

/** docs/evaluation.md §4.6: the property side is unix seconds when numeric, else a parseable date string. */
function propertyDate(value: unknown, now: Date): Date | null {
  const seconds = numeric(value);
  if (seconds !== null) return new Date(seconds * 1000);
  return typeof value === 'string' ? parseRelativeOrAbsoluteDate(value, now) : null;
}

function matchDate(operator: string, actual: unknown, expected: unknown, now: Date): boolean {
  if (typeof expected !== 'string') return false;
  const v = parseRelativeOrAbsoluteDate(expected, now);
  const a = propertyDate(actual, now);
  if (!v || !a || Number.isNaN(a.getTime())) return false;
  if (operator === 'is_date_before') return a.getTime() < v.getTime();
  if (operator === 'is_date_after') return a.getTime() > v.getTime();
  return a.getTime() === v.getTime();
}

function matchNumber(operator: string, actual: unknown, expected: unknown): boolean {
  const a = numeric(actual);
  const v = numeric(expected);
  if (a === null || v === null) return false;
  switch (operator) {
    case 'gt':
      return a > v;
    case 'gte':
      return a >= v;
    case 'lt':
      return a < v;
    default:
      return a <= v;
  }
}

/** The positive form of each negated text operator; a negated operator is true when the key is absent. */
export const NEGATED: Record<string, string> = {
  is_not: 'exact',
  not_icontains: 'icontains',
  not_starts_with: 'starts_with',
  not_ends_with: 'ends_with',
};

function matchPresent(operator: string, actual: unknown, expected: unknown, now: Date): boolean {
  switch (operator) {
    case 'exact':
      return exact(expected, actual);
    case 'icontains':
      return asciiLower(str(actual)).includes(asciiLower(str(expected)));
    case 'starts_with':
      return asciiLower(str(actual)).startsWith(asciiLower(str(expected)));
    case 'ends_with':
      return asciiLower(str(actual)).endsWith(asciiLower(str(expected)));
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return matchNumber(operator, actual, expected);
    case 'is_date_before':
    case 'is_date_after':
    case 'is_date_exact':
      return matchDate(operator, actual, expected, now);
    default:
      return operator.startsWith('semver_') && matchSemver(operator as SemverOperator, str(actual), str(expected));
  }
}

/**
 * docs/evaluation.md §4.7: a pattern that cannot be evaluated, or a value too long to decide, is
 * false for both operators; an absent key is false for `regex`, true for `not_regex`.
 */
function matchRegex(operator: 'regex' | 'not_regex', actual: unknown, present: boolean, pattern: string): boolean {
  if (regexProblem(pattern) !== null) return false;
  if (!present) return operator === 'not_regex';
  const matched = regexTest(pattern, str(actual));
  if (matched === null) return false;
  return operator === 'regex' ? matched : !matched;
}

/**
 * docs/evaluation.md §4.3: one property filter against a complete property bag (an absent key is a
 * definite answer). `in`/`not_in` belong to cohort filters and are false here.
 */
export function matchProperty(filter: PropertyFilter, bag: PropertyBag, now: Date): boolean {
  const operator = filter.operator === undefined || filter.operator === null ? 'exact' : filter.operator;
  if (!isPropertyOperator(operator)) return false;
  const key = typeof filter.key === 'string' ? filter.key : str(filter.key);
  const present = hasOwn(bag, key);
  if (operator === 'is_set') return present;
  if (operator === 'is_not_set') return !present;
  const expected = filter.value;
  if (expected === undefined || expected === null) return false;
  if (operator === 'regex' || operator === 'not_regex') return matchRegex(operator, present ? bag[key] : undefined, present, str(expected));
  const positive = NEGATED[operator];
  if (positive) return !present || !matchPresent(positive, bag[key], expected, now);
  return present && matchPresent(operator, bag[key], expected, now);
}
