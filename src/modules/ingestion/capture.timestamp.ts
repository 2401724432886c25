const HOUR_MS = 3_600_000;
const MAX_FUTURE_MS = 23 * HOUR_MS;

// ISO 8601 date-time: `T`, `t` or a space between date and time; seconds, fraction and zone optional (no zone = UTC).
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?$/;

/** An ISO 8601 instant (no zone = UTC), or null. */
export function parseTimestamp(value: string): Date | null {
  const match = ISO.exec(value.trim());
  if (!match) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '', , sign, offsetH = '0', offsetM = '0'] = match;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59 || Number(offsetH) > 23 || Number(offsetM) > 59)
    return null;
  const ms = Number(fraction.slice(0, 3).padEnd(3, '0'));
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, ms);
  if (date.getUTCDate() !== day) return null;
  const offset = sign ? (sign === '-' ? -1 : 1) * (Number(offsetH) * 60 + Number(offsetM)) : 0;
  return new Date(date.getTime() - offset * 60_000);
}

function parseEventTime(value: unknown): Date | null {
  if (typeof value === 'number') return Number.isFinite(value) ? new Date(value) : null;
  if (typeof value !== 'string') return null;
  if (/^\d+$/.test(value.trim())) return new Date(Number(value));
  return parseTimestamp(value);
}

/**
 * docs/ingestion.md §2.2: the event's time, corrected for the client's clock skew with sent_at;
 * a numeric `offset` (ms before arrival) wins. Times over 23 h ahead or outside 1970–9999 become `now`.
 */
export function eventTimestamp(
  event: { timestamp?: unknown; offset?: unknown },
  ignoreSentAt: boolean,
  sentAt: Date | null,
  now: Date,
): Date {
  let time: Date | null;
  if (typeof event.offset === 'number' && Number.isFinite(event.offset)) {
    time = new Date(now.getTime() - event.offset);
  } else {
    time = parseEventTime(event.timestamp);
    if (time && sentAt && !ignoreSentAt) time = new Date(now.getTime() + (time.getTime() - sentAt.getTime()));
  }
  if (!time || Number.isNaN(time.getTime())) return now;
  const year = time.getUTCFullYear();
  if (time.getTime() - now.getTime() > MAX_FUTURE_MS || year < 1970 || year > 9999) return now;
  return time;
}
