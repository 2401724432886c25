/**
 * The app's one source of time for what expires (docs/operations.md, "Time and caches"): the
 * credential and token caches, and when a key was last used. An app is given one (src/app.ts); tests
 * hold a clock they move (test/helpers/test-app.ts) instead of sleeping.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
