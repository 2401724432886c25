/**
 * An object keyed by names a caller chooses (group types, flag keys, property keys). Without a
 * prototype, `__proto__` or `constructor` is a key like any other and never reaches
 * Object.prototype, and plain assignment stays fast on large ones.
 */
export const dataRecord = <T = unknown>(): Record<string, T> => Object.create(null) as Record<string, T>;
