/**
 * For loops that run the matcher over many rows or values (blast radius, cohort counts, experiment
 * metric filters) or over a capture batch's events: `pause()` returns undefined while the current
 * slice is shorter than `sliceMs`, and otherwise a promise that resolves after every other waiting
 * callback had its turn. Each match is bounded (docs/evaluation.md §4.7), but thousands of them must
 * not hold the event loop either.
 */
export function eventLoopSlices(sliceMs = 10): { pause(): Promise<void> | undefined } {
  let started = performance.now();
  return {
    pause() {
      if (performance.now() - started < sliceMs) return undefined;
      return new Promise<void>((resolve) =>
        setImmediate(() => {
          started = performance.now();
          resolve();
        }),
      );
    },
  };
}

/**
 * `items.map(fn)` that gives the event loop back whenever a slice of `sliceMs` is used up: for maps
 * over what a request sent (a capture batch's events and persons), each item cheap but 10,000 of them not.
 */
export async function mapInSlices<T, R>(items: readonly T[], fn: (item: T, index: number) => R, sliceMs = 10): Promise<R[]> {
  const slices = eventLoopSlices(sliceMs);
  const out: R[] = new Array<R>(items.length);
  for (let i = 0; i < items.length; i++) {
    out[i] = fn(items[i], i);
    const pause = slices.pause();
    if (pause) await pause;
  }
  return out;
}
