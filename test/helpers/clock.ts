import { performance } from 'node:perf_hooks';
import type { Clock } from '../../src/clock';

/**
 * A clock that stands still until a test moves it (docs/operations.md, "Time and caches"): what the
 * app remembers stays remembered and a rate-limit window stays full, so statement counts and budgets
 * do not depend on timing, and a test that needs something to expire advances past it instead of
 * sleeping. Both of the app's clocks move together.
 *
 * A `running` clock also moves with the system's time: for tests whose clients stamp times of their
 * own (a browser launching an experiment, a worked example's `date`, posthog-node's timestamps), which
 * a clock standing still at the app's start would place in the future.
 */
export class TestClock implements Clock {
  // Standing still: the times themselves. Running: how far the test has moved them.
  #now: number;
  #monotonic: number;
  readonly #running: boolean;

  constructor({ running = false }: { running?: boolean } = {}) {
    this.#running = running;
    this.#now = running ? 0 : Date.now();
    // Whole milliseconds, so that moves add up exactly (a window's end is exact, not a rounding apart).
    this.#monotonic = running ? 0 : Math.round(performance.now());
  }

  now(): number {
    return this.#running ? Date.now() + this.#now : this.#now;
  }

  monotonic(): number {
    return this.#running ? performance.now() + this.#monotonic : this.#monotonic;
  }

  advance(ms: number): void {
    this.#now += ms;
    this.#monotonic += ms;
  }
}
