/**
 * For loops that run the matcher over many rows or values (blast radius, cohort counts, experiment
 * metric filters): `pause()` returns undefined while the current slice is shorter than `sliceMs`,
 * and otherwise a promise that resolves after every other waiting callback had its turn. Each match
 * is bounded (docs/evaluation.md §4.7), but thousands of them must not hold the event loop either.
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
