/**
 * Reads that only render skip the ORM's unit of work: rows are mapped straight to plain objects of
 * the entity's shape. These are the column conversions the ORM would otherwise make.
 */

/** `2024-01-31 12:00:00[.ffffff]+00`: what PostgreSQL prints for a timestamptz in a UTC session. */
const UTC_TIMESTAMP = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?\+00$/;

/** A `timestamptz` as the driver returns it (`2024-01-31 12:00:00.123+00`), or a Date, as a Date. */
export function timestampOf(value: unknown): Date {
  if (value instanceof Date) return value;
  const text = String(value);
  // The service's sessions run in UTC: their timestamps are read field by field, as Date.UTC takes
  // them (the general parse below was a few percent of a 100-flag list). Fractions past
  // milliseconds are dropped, as the general parse drops them.
  const utc = UTC_TIMESTAMP.exec(text);
  // (Date.UTC reads years 0–99 as 1900–1999: those take the general parse.)
  if (utc && utc[1] >= '0100') {
    const [, year, month, day, hour, minute, second, fraction] = utc;
    const ms = fraction === undefined ? 0 : Number(fraction.slice(0, 3).padEnd(3, '0'));
    return new Date(Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second), ms));
  }
  // PostgreSQL prints `+00` or `+05:30`; ECMAScript wants `T` and `±hh:mm`.
  return new Date(text.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00'));
}

export function nullableTimestampOf(value: unknown): Date | null {
  return value === null || value === undefined ? null : timestampOf(value);
}

/** A many-to-one column as the reference stub field resolvers read (`flag.createdBy.id`). */
export function referenceOf<T>(id: unknown): T | null {
  return id === null || id === undefined ? null : ({ id: Number(id) } as T);
}
