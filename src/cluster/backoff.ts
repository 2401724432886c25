/** The first restart waits this long; each further crash within a minute doubles it, up to the maximum. */
const FIRST_RESTART_DELAY_MS = 250;
const MAX_RESTART_DELAY_MS = 30_000;
/** Crashes older than this no longer lengthen the wait. */
export const CRASH_MEMORY_MS = 60_000;

/** Wait before replacing a worker, given how many crashed within the last minute (this one included). */
export const restartDelayMs = (recentCrashes: number) =>
  Math.min(MAX_RESTART_DELAY_MS, FIRST_RESTART_DELAY_MS * 2 ** Math.max(0, recentCrashes - 1));
