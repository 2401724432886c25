import { dateOperand, isPropertyOperator, parseRelativeOrAbsoluteDate } from './operators';
import { regexProblem, regexTest } from './regex';
import { semverTest, type SemverOperator } from './semver';

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

/** A property filter decided against a complete property bag at `now` (propertyMatcher). */
export type PropertyMatcher = (bag: PropertyBag, now: Date) => boolean;

/** A test of a present property's value, the filter side read once. */
type ValueTest = (actual: unknown, now: Date) => boolean;

const never = () => false;

/** docs/evaluation.md §4.4: `exact` when the key is present. */
function exactTest(expected: unknown): ValueTest {
  if (isBooleanLikeScalar(expected) || (Array.isArray(expected) && expected.every(isBooleanLikeScalar))) {
    const wanted = truthy(expected);
    return (actual) => truthy(actual) === wanted;
  }
  if (Array.isArray(expected)) {
    const wanted = expected.map((item) => str(item).toLowerCase());
    return (actual) => wanted.includes(str(actual).toLowerCase());
  }
  const wanted = str(expected).toLowerCase();
  return (actual) => str(actual).toLowerCase() === wanted;
}

/** The date text read last, with its `now`: every flag's filter on one property reads the same text. */
let lastDate: { text: string; now: number; date: Date | null } = { text: '', now: NaN, date: null };

/** docs/evaluation.md §4.6: the property side is unix seconds when numeric, else a parseable date string. */
function propertyDate(value: unknown, now: Date): Date | null {
  const seconds = numeric(value);
  if (seconds !== null) return new Date(seconds * 1000);
  if (typeof value !== 'string') return null;
  if (value !== lastDate.text || now.getTime() !== lastDate.now) {
    lastDate = { text: value, now: now.getTime(), date: parseRelativeOrAbsoluteDate(value, now) };
  }
  return lastDate.date;
}

function dateTest(operator: string, expected: unknown): ValueTest {
  if (typeof expected !== 'string') return never;
  const operand = dateOperand(expected);
  const compare =
    operator === 'is_date_before'
      ? (a: number, v: number) => a < v
      : operator === 'is_date_after'
        ? (a: number, v: number) => a > v
        : (a: number, v: number) => a === v;
  return (actual, now) => {
    const v = operand(now);
    const a = propertyDate(actual, now);
    if (!v || !a || Number.isNaN(a.getTime())) return false;
    return compare(a.getTime(), v.getTime());
  };
}

function numberTest(operator: string, expected: unknown): ValueTest {
  const v = numeric(expected);
  if (v === null) return never;
  const compare =
    operator === 'gt'
      ? (a: number) => a > v
      : operator === 'gte'
        ? (a: number) => a >= v
        : operator === 'lt'
          ? (a: number) => a < v
          : (a: number) => a <= v;
  return (actual) => {
    const a = numeric(actual);
    return a !== null && compare(a);
  };
}

/** The positive form of each negated text operator; a negated operator is true when the key is absent. */
export const NEGATED: Record<string, string> = {
  is_not: 'exact',
  not_icontains: 'icontains',
  not_starts_with: 'starts_with',
  not_ends_with: 'ends_with',
};

function presentTest(operator: string, expected: unknown): ValueTest {
  switch (operator) {
    case 'exact':
      return exactTest(expected);
    case 'icontains': {
      const wanted = asciiLower(str(expected));
      return (actual) => asciiLower(str(actual)).includes(wanted);
    }
    case 'starts_with': {
      const wanted = asciiLower(str(expected));
      return (actual) => asciiLower(str(actual)).startsWith(wanted);
    }
    case 'ends_with': {
      const wanted = asciiLower(str(expected));
      return (actual) => asciiLower(str(actual)).endsWith(wanted);
    }
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return numberTest(operator, expected);
    case 'is_date_before':
    case 'is_date_after':
    case 'is_date_exact':
      return dateTest(operator, expected);
    default: {
      if (!operator.startsWith('semver_')) return never;
      const test = semverTest(operator as SemverOperator, str(expected));
      return (actual) => test(str(actual));
    }
  }
}

/**
 * docs/evaluation.md §4.7: a pattern that cannot be evaluated, or a value too long to decide, is
 * false for both operators; an absent key is false for `regex`, true for `not_regex`.
 */
function regexMatcher(operator: 'regex' | 'not_regex', key: string, pattern: string): PropertyMatcher {
  if (regexProblem(pattern) !== null) return never;
  return (bag) => {
    if (!hasOwn(bag, key)) return operator === 'not_regex';
    const matched = regexTest(pattern, str(bag[key]));
    if (matched === null) return false;
    return operator === 'regex' ? matched : !matched;
  };
}

/**
 * docs/evaluation.md §4.3: one property filter, its own side (operator, key, value) read once, as a
 * test of complete property bags (an absent key is a definite answer). `in`/`not_in` belong to
 * cohort filters and are false here.
 */
export function propertyMatcher(filter: PropertyFilter): PropertyMatcher {
  const operator = filter.operator === undefined || filter.operator === null ? 'exact' : filter.operator;
  if (!isPropertyOperator(operator)) return never;
  const key = typeof filter.key === 'string' ? filter.key : str(filter.key);
  if (operator === 'is_set') return (bag) => hasOwn(bag, key);
  if (operator === 'is_not_set') return (bag) => !hasOwn(bag, key);
  const expected = filter.value;
  if (expected === undefined || expected === null) return never;
  if (operator === 'regex' || operator === 'not_regex') return regexMatcher(operator, key, str(expected));
  const positive = NEGATED[operator];
  if (positive) {
    const test = presentTest(positive, expected);
    return (bag, now) => !hasOwn(bag, key) || !test(bag[key], now);
  }
  const test = presentTest(operator, expected);
  return (bag, now) => hasOwn(bag, key) && test(bag[key], now);
}

const storedMatchers = new WeakMap<PropertyFilter, PropertyMatcher>();

/**
 * propertyMatcher for a filter of stored cohort definitions, which never change in place
 * (a change loads new ones): built once per filter object, kept while it lives.
 */
export function storedMatcher(filter: PropertyFilter): PropertyMatcher {
  let matcher = storedMatchers.get(filter);
  if (matcher === undefined) storedMatchers.set(filter, (matcher = propertyMatcher(filter)));
  return matcher;
}

/** docs/evaluation.md §4.3: one property filter against a complete property bag (propertyMatcher, once). */
export function matchProperty(filter: PropertyFilter, bag: PropertyBag, now: Date): boolean {
  return propertyMatcher(filter)(bag, now);
}
