import { performance } from 'node:perf_hooks';
import type { Configuration, EntityManager, MikroORM } from '@mikro-orm/core';

/**
 * The app's one source of time (docs/operations.md, "Time and caches"): what expires (the credential
 * and token caches, the rate limiter's windows), what is stamped on rows (created, changed, received,
 * last used) and "now" where a rule reads it (relative dates, the stale flags' 30 days, an
 * experiment's running window). An app is given one (src/app.ts); tests hold a clock they move
 * (test/helpers/clock.ts) instead of sleeping.
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

// By the ORM's configuration, which every EntityManager forked from it shares.
const clocks = new WeakMap<Configuration, Clock>();

/**
 * Gives the ORM the app's clock, so that what it stamps (`stampNow`, `nowFor`) reads it. An ORM's rows
 * are stamped by one clock: every app made on one ORM must be given the same.
 */
export function useClock(orm: MikroORM, clock: Clock): void {
  const given = clocks.get(orm.config);
  if (given !== undefined && given !== clock)
    throw new Error('This ORM already stamps rows with another clock: give every app on one ORM the same clock.');
  clocks.set(orm.config, clock);
}

/** The clock an EntityManager's ORM was given; the system's for an ORM no app owns (the CLI, migrations). */
export function clockOf(em: EntityManager): Clock {
  return clocks.get(em.config) ?? systemClock;
}

/** The time on an EntityManager's clock, for a row a store stamps itself. */
export function nowFor(em: EntityManager): Date {
  return new Date(clockOf(em).now());
}

/** An entity's `onCreate`/`onUpdate` stamp: the time on its ORM's clock, when the change is flushed. */
export const stampNow = (_entity: unknown, em: EntityManager): Date => nowFor(em);
