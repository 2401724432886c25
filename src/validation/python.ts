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

function reprScalar(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'string') return quoteInner(value);
  return Number.isInteger(value) ? String(value) : pyFloat(value as number);
}

/** Text to print as it is, beside values still to print, on reprInner's stack. */
class Literal {
  constructor(readonly text: string) {}
}

/** Iterative, so a value nested any depth (an import's, or one stored long ago) prints instead of overflowing the stack. */
function reprInner(value: unknown): string {
  const parts: string[] = [];
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (item instanceof Literal) parts.push(item.text);
    else if (typeof item !== 'object' || item === null) parts.push(reprScalar(item));
    else {
      const isList = Array.isArray(item);
      const entries = isList ? item.map((element) => [null, element] as const) : Object.entries(item as Record<string, unknown>);
      pending.push(new Literal(isList ? ']' : '}'));
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, element] = entries[i];
        pending.push(element);
        if (key !== null) pending.push(new Literal(`${quoteInner(key)}: `));
        if (i > 0) pending.push(new Literal(', '));
      }
      pending.push(new Literal(isList ? '[' : '{'));
    }
  }
  return parts.join('');
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
