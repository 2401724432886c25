import type { Clock } from '../../src/clock';

/**
 * A clock that stands still until a test moves it (docs/operations.md, "Time and caches"): what the
 * app remembers stays remembered, so statement counts do not depend on timing, and a test that needs
 * a cache entry to expire advances past it instead of sleeping.
 */
export class TestClock implements Clock {
  #now = Date.now();

  now(): number {
    return this.#now;
  }

  advance(ms: number): void {
    this.#now += ms;
  }
}
