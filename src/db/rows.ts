/**
 * Reads that only render skip the ORM's unit of work: rows are mapped straight to plain objects of
 * the entity's shape. These are the column conversions the ORM would otherwise make.
 */

/** A `timestamptz` as the driver returns it (`2024-01-31 12:00:00.123+00`), or a Date, as a Date. */
export function timestampOf(value: unknown): Date {
  if (value instanceof Date) return value;
  const text = String(value);
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
