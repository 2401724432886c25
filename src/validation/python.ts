/**
 * The API's messages name types and print values the way the upstream (Python) service does
 * (docs/rest-api.md §1.4): `str`, `int`, `float`, `bool`, `list`, `dict`, `NoneType`; values as
 * `True`/`False`/`None`, `['@posthog.com', 5]`, `{'k': 'v'}`, a top-level string as is.
 */
export function pyTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (typeof value === 'string') return 'str';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (Array.isArray(value)) return 'list';
  return 'dict';
}

function quoteInner(s: string): string {
  if (s.includes("'") && !s.includes('"')) return `"${s}"`;
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function reprInner(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'string') return quoteInner(value);
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : pyFloat(value);
  if (Array.isArray(value)) return `[${value.map(reprInner).join(', ')}]`;
  const entries = Object.entries(value as Record<string, unknown>);
  return `{${entries.map(([k, v]) => `${quoteInner(k)}: ${reprInner(v)}`).join(', ')}}`;
}

function pyFloat(n: number): string {
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : n < 0 ? '-inf' : 'nan';
  return String(n);
}

/** Prints a value as the upstream service would inside a message. */
export function pyRepr(value: unknown): string {
  if (typeof value === 'string') return value;
  return reprInner(value);
}

/** A plain JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
