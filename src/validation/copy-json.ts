/**
 * A deep copy of a JSON value (dates copied as dates), made without recursion: `structuredClone`
 * recurses and overflows the stack on objects nested a few thousand levels deep, which a value
 * stored before the depth limit may be. Keys are defined, never assigned, so a `__proto__` key
 * stays data.
 */
export function copyJson<T>(value: T): T {
  const root = shell(value);
  const pending: Array<[object, object]> = root === value ? [] : [[value as object, root as object]];
  while (pending.length > 0) {
    const [source, target] = pending.pop()!;
    for (const [key, item] of Object.entries(source)) {
      const copy = shell(item);
      Object.defineProperty(target, key, { value: copy, enumerable: true, writable: true, configurable: true });
      if (copy !== item && !(copy instanceof Date)) pending.push([item as object, copy as object]);
    }
  }
  return root;
}

/** An empty container of the same kind, a copied date, or the value itself when it is not an object. */
function shell<T>(value: T): T {
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (Array.isArray(value)) return [] as T;
  if (value !== null && typeof value === 'object') return {} as T;
  return value;
}
