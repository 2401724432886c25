import { performance } from 'node:perf_hooks';

/**
 * The app's one source of time for what expires (docs/operations.md, "Time and caches"): the
 * credential and token caches, when a key was last used, and the rate limiter's windows. An app is
 * given one (src/app.ts); tests hold a clock they move (test/helpers/clock.ts) instead of sleeping.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /**
   * Milliseconds on a clock that only moves forward, from an arbitrary origin: for windows, whose
   * length must not change when the wall clock is set (the rate limiter's sliding windows).
   */
  monotonic(): number;
}

export const systemClock: Clock = { now: () => Date.now(), monotonic: () => performance.now() };
