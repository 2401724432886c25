import { performance } from 'node:perf_hooks';

/**
 * Sliding-window logs (docs/rest-api.md §1.6): a bucket admits a request while it holds fewer
 * admitted requests than its limit within the trailing window. A request checks all its buckets
 * at once and is recorded in all of them only when every one admits it, so refused requests
 * (429s) are never counted.
 *
 * SPEC-GAP: not rate-limiter-flexible: its limiters are fixed windows (twice the limit can pass
 * around a window's end) and count refused requests; docs/rest-api.md §1.6 allows neither.
 * The Redis store (REDIS_URL) is in redis-sliding-window.ts, loaded only when configured.
 */
export interface BucketSpec {
  /** The store key: already prefixed, unique per subject and bucket. */
  key: string;
  limit: number;
  windowMs: number;
}

export interface BucketState {
  /** Admitted requests in the window, this one included when admitted. */
  count: number;
  /** Milliseconds until the bucket admits one more request; 0 while it is not full. */
  waitMs: number;
}

export interface HitResult {
  admitted: boolean;
  /** One per spec, in order. */
  buckets: BucketState[];
}

export interface SlidingWindowStore {
  hit(specs: BucketSpec[]): Promise<HitResult>;
  close(): Promise<void>;
}

interface Log {
  windowMs: number;
  /** Admission times, ascending; entries before `head` have left the window. */
  times: number[];
  head: number;
}

/** One process's logs. The clock is monotonic (wall-clock jumps neither free nor freeze a bucket). */
export class MemorySlidingWindowStore implements SlidingWindowStore {
  private readonly logs = new Map<string, Log>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly now: () => number = () => performance.now()) {
    // Logs whose every entry has left the window are dropped once a minute, so idle keys cost nothing.
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  async hit(specs: BucketSpec[]): Promise<HitResult> {
    return this.hitNow(specs);
  }

  /** Synchronous: no other request can interleave between the check and the record. */
  hitNow(specs: BucketSpec[]): HitResult {
    const now = this.now();
    const logs = specs.map((spec) => this.prune(this.logFor(spec), now));
    const counts = logs.map((log) => log.times.length - log.head);
    const admitted = specs.every((spec, i) => counts[i] < spec.limit);
    const buckets = specs.map((spec, i): BucketState => {
      const log = logs[i];
      let count = counts[i];
      if (admitted) {
        log.times.push(now);
        count += 1;
      }
      // Full: one more fits when the entry `count - limit` places from the oldest leaves the window.
      const waitMs = count >= spec.limit ? Math.max(0, log.times[log.head + count - spec.limit] + spec.windowMs - now) : 0;
      return { count, waitMs };
    });
    return { admitted, buckets };
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.logs.clear();
  }

  /** How many logs are held (for tests). */
  get size(): number {
    return this.logs.size;
  }

  sweep(): void {
    const now = this.now();
    for (const [key, log] of this.logs) {
      this.prune(log, now);
      if (log.times.length === log.head) this.logs.delete(key);
    }
  }

  private logFor(spec: BucketSpec): Log {
    let log = this.logs.get(spec.key);
    if (!log) {
      log = { windowMs: spec.windowMs, times: [], head: 0 };
      this.logs.set(spec.key, log);
    }
    log.windowMs = spec.windowMs;
    return log;
  }

  private prune(log: Log, now: number): Log {
    const cutoff = now - log.windowMs;
    while (log.head < log.times.length && log.times[log.head] <= cutoff) log.head += 1;
    if (log.head > 0 && (log.head === log.times.length || log.head >= 1024)) {
      log.times = log.times.slice(log.head);
      log.head = 0;
    }
    return log;
  }
}
