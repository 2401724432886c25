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
  readonly #now: () => number;
  readonly #monotonic: () => number;
  /** How far the test has moved the clock. */
  #moved = 0;

  constructor({ running = false }: { running?: boolean } = {}) {
    const started = Date.now();
    // Whole milliseconds, so that moves add up exactly (a window's end is exact, not a rounding apart).
    const startedMonotonic = Math.round(performance.now());
    this.#now = running ? () => Date.now() : () => started;
    this.#monotonic = running ? () => performance.now() : () => startedMonotonic;
  }

  now(): number {
    return this.#now() + this.#moved;
  }

  monotonic(): number {
    return this.#monotonic() + this.#moved;
  }

  advance(ms: number): void {
    this.#moved += ms;
  }
}
