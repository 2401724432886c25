/**
 * Whether two JSON values are equal, ignoring the order of object keys: a `jsonb` column comes
 * back with its keys reordered, so comparing serialisations would log changes nobody made.
 * Iterative, so values nested any depth (one stored before the depth limit) compare without
 * overflowing the stack.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  const pending: Array<[unknown, unknown]> = [[a, b]];
  while (pending.length > 0) {
    const [left, right] = pending.pop()!;
    if (left === right) continue;
    if (left === null || right === null || left === undefined || right === undefined) {
      if ((left ?? null) !== (right ?? null)) return false;
    } else if (left instanceof Date || right instanceof Date) {
      if (!(left instanceof Date && right instanceof Date && left.getTime() === right.getTime())) return false;
    } else if (Array.isArray(left) || Array.isArray(right)) {
      if (!Array.isArray(left) || !Array.isArray(right) || left.length !== right.length) return false;
      left.forEach((item, i) => pending.push([item, right[i]]));
    } else if (typeof left === 'object' && typeof right === 'object') {
      const leftObject = left as Record<string, unknown>;
      const rightObject = right as Record<string, unknown>;
      const keys = Object.keys(leftObject);
      if (keys.length !== Object.keys(rightObject).length) return false;
      for (const key of keys) {
        if (!Object.prototype.hasOwnProperty.call(rightObject, key)) return false;
        pending.push([leftObject[key], rightObject[key]]);
      }
    } else return false;
  }
  return true;
}
