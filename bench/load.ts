import { cpuTicks, quiesce } from './proc';

/** One measured run, raw: what the rounds of a side add up. */
export interface Sample {
  /** Per operation (request, insert, id evaluated), in ms. */
  latencies: number[];
  /** Operations counted, in the row's unit (events for batches of events, evaluations for ids). */
  count: number;
  seconds: number;
  /** Unexpected statuses and socket errors. */
  errors: number;
  statuses: Record<string, number>;
  /** CPU the target process used from the run's start until it was idle again, in clock ticks (10 ms); null when unknown. */
  cpuTicks?: number | null;
}

/** One side of a row: throughput in the row's unit, latency percentiles in ms. */
export interface Side {
  throughput: number;
  p50: number;
  p99: number;
  count: number;
  seconds: number;
  errors: number;
  statuses: Record<string, number>;
  /**
   * CPU ms the target process spent per unit, or null when unknown: steadier than throughput on a
   * shared machine (a side slowed by others' load still spends about the same CPU per request).
   */
  cpuMsPerUnit: number | null;
}

/** Something a row loads: warmed up once, then measured in rounds that alternate with the other side's. */
export interface Runner {
  warm(seconds: number): Promise<void>;
  run(seconds: number): Promise<Sample>;
}

export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

/** The rounds of one side as one: total count over total time; percentiles over every sample (autocannon's own histogram rounds to whole ms). */
export function merge(samples: Sample[]): Side {
  const sorted = Float64Array.from(samples.flatMap((s) => s.latencies)).sort();
  const count = samples.reduce((sum, s) => sum + s.count, 0);
  const seconds = samples.reduce((sum, s) => sum + s.seconds, 0);
  const statuses: Record<string, number> = {};
  for (const s of samples) for (const [code, n] of Object.entries(s.statuses)) statuses[code] = (statuses[code] ?? 0) + n;
  return {
    throughput: count / seconds,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    count,
    seconds,
    errors: samples.reduce((sum, s) => sum + s.errors, 0),
    statuses,
    cpuMsPerUnit: samples.every((s) => typeof s.cpuTicks === 'number')
      ? (samples.reduce((sum, s) => sum + (s.cpuTicks ?? 0), 0) * 10) / count
      : null,
  };
}

export interface HttpLoad {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** A fresh body per request (unique keys, fresh event uuids); made in this process, outside the server's. */
  makeBody?: () => string | Buffer;
  expect: number;
  /** Units per request (100 for batches of 100 events). */
  perRequest?: number;
}

interface AutocannonRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  setupRequest?: (request: AutocannonRequest) => AutocannonRequest;
}

type AutocannonInstance = PromiseLike<{ duration: number; errors: number; timeouts: number }> & {
  on(event: 'response', listener: (client: unknown, statusCode: number, bytes: number, ms: number) => void): void;
};

// autocannon has no type declarations; this is the part of its API the bench uses.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- autocannon ships no type declarations to import
const autocannon = require('autocannon') as (options: {
  url: string;
  connections: number;
  duration: number;
  timeout: number;
  requests: AutocannonRequest[];
}) => AutocannonInstance;

async function cannon(url: string, load: HttpLoad, connections: number, seconds: number): Promise<Sample> {
  const request: AutocannonRequest = { method: load.method, path: load.path, headers: load.headers, body: load.body };
  const make = load.makeBody;
  if (make) request.setupRequest = (req) => ({ ...req, body: make() });
  const instance = autocannon({ url, connections, duration: seconds, timeout: 30, requests: [request] });
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  instance.on('response', (_client, statusCode, _bytes, ms) => {
    statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
    if (statusCode === load.expect) latencies.push(ms);
  });
  const result = await instance;
  const unexpected = Object.entries(statuses).reduce((sum, [code, n]) => sum + (Number(code) === load.expect ? 0 : n), 0);
  return {
    latencies,
    count: latencies.length * (load.perRequest ?? 1),
    seconds: result.duration,
    errors: unexpected + result.errors + result.timeouts,
    statuses,
  };
}

/**
 * autocannon against `url` over keep-alive connections. After each run it waits for the target
 * process (`pid`) to go idle: requests in flight when autocannon stops are still being served and
 * would otherwise run into the next measurement (the other side's included).
 */
export function httpRunner(url: string, load: HttpLoad, connections: number, pid: number): Runner {
  return quiescingRunner((seconds) => cannon(url, load, connections, seconds), pid);
}

/** A load generator as a runner: after each of its runs, the target process (`pid`) goes idle first. */
export function quiescingRunner(generate: (seconds: number) => Promise<Sample>, pid: number): Runner {
  return {
    async warm(seconds) {
      await generate(seconds);
      await quiesce(pid);
    },
    async run(seconds) {
      const before = cpuTicks(pid);
      const sample = await generate(seconds);
      await quiesce(pid);
      const after = cpuTicks(pid);
      return { ...sample, cpuTicks: before === null || after === null ? null : after - before };
    },
  };
}
