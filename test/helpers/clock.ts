import { performance } from 'node:perf_hooks';
import type { Clock } from '../../src/clock';

/**
 * A clock that stands still until a test moves it (docs/operations.md, "Time and caches"): what the
 * app remembers stays remembered and a rate-limit window stays full, so statement counts and budgets
 * do not depend on timing, and a test that needs something to expire advances past it instead of
 * sleeping. Both of the app's clocks move together.
 */
export class TestClock implements Clock {
  #now = Date.now();
  // Whole milliseconds, so that moves add up exactly (a window's end is exact, not a rounding apart).
  #monotonic = Math.round(performance.now());

  now(): number {
    return this.#now;
  }

  monotonic(): number {
    return this.#monotonic;
  }

  advance(ms: number): void {
    this.#now += ms;
    this.#monotonic += ms;
  }
}
