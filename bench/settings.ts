/** Knobs of one run, from the environment; the defaults keep a full run under 10 minutes on 2 cores. */
const seconds = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0 || value > 600) throw new Error(`${name} must be a number of seconds in (0, 600]`);
  return value;
};

const peerChoice = (value: string | undefined) => {
  if (value === undefined || value === '' || value === 'unleash') return 'unleash' as const;
  if (value === 'none') return 'none' as const;
  throw new Error('BENCH_PEER must be unleash (the default) or none');
};

export const settings = {
  connections: 10,
  warmupSeconds: seconds('BENCH_WARMUP', 3),
  /** Measured time per side, split into alternating rounds. */
  durationSeconds: seconds('BENCH_DURATION', 8),
  rounds: Math.max(1, Math.round(Number(process.env.BENCH_ROUNDS ?? 2))),
  /** Comma-separated scenario ids to run (e.g. `definitions,ingestion`); all when unset. */
  only: (process.env.BENCH_ONLY ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean),
  /** `BENCH_PEER=none` skips the peer's rows (Unleash, installed on demand into a cache outside the repository). */
  peer: peerChoice(process.env.BENCH_PEER),
  smallProjectFlags: 100,
  largeProjectFlags: 1000,
  engineIds: 1000,
  ingestionBatch: 100,
  ingestionUsers: 1000,
};

export type Settings = typeof settings;
