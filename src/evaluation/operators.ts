/**
 * Property operators and the filter-value date parser (docs/evaluation.md §4.3, §4.6). Pure: no I/O,
 * no clock (callers pass `now`).
 */

/** Every operator docs/evaluation.md §4.3 lists; `exact` is the default when a filter has none. */
export const PROPERTY_OPERATORS = [
  'exact',
  'is_not',
  'is_set',
  'is_not_set',
  'icontains',
  'not_icontains',
  'starts_with',
  'not_starts_with',
  'ends_with',
  'not_ends_with',
  'regex',
  'not_regex',
  'gt',
  'gte',
  'lt',
  'lte',
  'is_date_before',
  'is_date_after',
  'is_date_exact',
  'semver_eq',
  'semver_neq',
  'semver_gt',
  'semver_gte',
  'semver_lt',
  'semver_lte',
  'semver_tilde',
  'semver_caret',
  'semver_wildcard',
  // Meaningful on cohort filters only (docs/cohorts.md §3); listed so that they pass flag validation.
  'in',
  'not_in',
] as const;

export type PropertyOperator = (typeof PROPERTY_OPERATORS)[number];

const OPERATOR_SET: ReadonlySet<string> = new Set(PROPERTY_OPERATORS);

export function isPropertyOperator(value: unknown): value is PropertyOperator {
  return typeof value === 'string' && OPERATOR_SET.has(value);
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Longest date text read (the longest form above with nanoseconds is 35 characters); a longer one is no date. */
export const MAX_DATE_LENGTH = 64;

const RELATIVE = /^-?(\d+)([hdwmy])$/;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
// RFC 3339 date-time: seconds required, an offset required (`T`, `t` or a space as separator).
const WITH_OFFSET = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?([Zz]|[+-]\d{2}:\d{2})$/;
// Local date-time without offset, read as UTC; seconds and fraction optional.
const WITHOUT_OFFSET = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?$/;

/**
 * docs/evaluation.md §4.6 `parseDate`: a relative date (`-30d`, `6h`, `2m`, `1y`; sign ignored,
 * N < 10000) counted back from `now`, an RFC 3339 instant with offset, `YYYY-MM-DD` (UTC
 * midnight), or `YYYY-MM-DDTHH:MM[:SS[.fff]]` / with a space, no offset (UTC). Else null.
 * Fractions beyond milliseconds are truncated.
 */
export function parseRelativeOrAbsoluteDate(value: string, now: Date): Date | null {
  if (typeof value !== 'string' || value.length > MAX_DATE_LENGTH) return null;

  const relative = RELATIVE.exec(value);
  if (relative) {
    const n = Number(relative[1]);
    if (n >= 10000) return null;
    return subtract(now, n, relative[2] as 'h' | 'd' | 'w' | 'm' | 'y');
  }

  const dateOnly = DATE_ONLY.exec(value);
  if (dateOnly) return utcDate(dateOnly[1], dateOnly[2], dateOnly[3], '0', '0', '0', undefined, 0);

  const withOffset = WITH_OFFSET.exec(value);
  if (withOffset) {
    const [, y, mo, d, h, mi, s, frac, offset] = withOffset;
    const offsetMinutes = parseOffset(offset);
    if (offsetMinutes === null) return null;
    return utcDate(y, mo, d, h, mi, s, frac, offsetMinutes);
  }

  const withoutOffset = WITHOUT_OFFSET.exec(value);
  if (withoutOffset) {
    const [, y, mo, d, h, mi, s, frac] = withoutOffset;
    return utcDate(y, mo, d, h, mi, s ?? '0', frac, 0);
  }

  return null;
}

/**
 * A filter's date, parsed once: an absolute one does not depend on `now`, so only a relative one is
 * counted back again at each evaluation's `now`. The same answers as parseRelativeOrAbsoluteDate.
 */
export function dateOperand(value: string): (now: Date) => Date | null {
  if (value.length <= MAX_DATE_LENGTH && RELATIVE.test(value)) return (now) => parseRelativeOrAbsoluteDate(value, now);
  const fixed = parseRelativeOrAbsoluteDate(value, new Date(0));
  return () => fixed;
}

function subtract(now: Date, n: number, unit: 'h' | 'd' | 'w' | 'm' | 'y'): Date {
  switch (unit) {
    case 'h':
      return new Date(now.getTime() - n * HOUR_MS);
    case 'd':
      return new Date(now.getTime() - n * DAY_MS);
    case 'w':
      return new Date(now.getTime() - 7 * n * DAY_MS);
    case 'm':
      return subtractMonths(now, n);
    case 'y':
      return subtractMonths(now, 12 * n);
  }
}

/** Calendar subtraction in UTC, clamping once to the target month's last day (31 Mar − 1m = 28/29 Feb). */
function subtractMonths(now: Date, months: number): Date {
  const total = now.getUTCFullYear() * 12 + now.getUTCMonth() - months;
  const year = Math.floor(total / 12);
  const month = total - year * 12;
  const day = Math.min(now.getUTCDate(), daysInMonth(year, month));
  const result = new Date(now.getTime());
  result.setUTCFullYear(year, month, day);
  return result;
}

/** `month` is 0-based. */
function daysInMonth(year: number, month: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month + 1, 0);
  return d.getUTCDate();
}

function parseOffset(offset: string): number | null {
  if (offset === 'Z' || offset === 'z') return 0;
  const hours = Number(offset.slice(1, 3));
  const minutes = Number(offset.slice(4, 6));
  if (hours > 23 || minutes > 59) return null;
  const total = hours * 60 + minutes;
  return offset[0] === '-' ? -total : total;
}

/** Builds a UTC instant from validated calendar fields; null when a field is out of range. */
function utcDate(
  y: string,
  mo: string,
  d: string,
  h: string,
  mi: string,
  s: string,
  fraction: string | undefined,
  offsetMinutes: number,
): Date | null {
  const year = Number(y);
  const month = Number(mo) - 1;
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 0 || month > 11 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const ms = fraction === undefined ? 0 : Number(fraction.slice(0, 3).padEnd(3, '0'));
  const result = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not map years 0–99 to 1900–1999.
  result.setUTCFullYear(year, month, day);
  result.setUTCHours(hour, minute, second, ms);
  return new Date(result.getTime() - offsetMinutes * 60_000);
}
