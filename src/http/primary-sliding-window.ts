import type { Cluster, Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { MemorySlidingWindowStore, type BucketSpec, type HitResult, type SlidingWindowStore } from './sliding-window';

/**
 * Rate limits exact across N workers without Redis: the primary process holds the sliding windows
 * (one MemorySlidingWindowStore, so the check and the record stay one synchronous step) and each
 * worker asks it over the cluster's IPC channel. One round trip per limited request.
 */
const HIT = 'flagship:rate-limit:hit';
const RESULT = 'flagship:rate-limit:result';

interface HitMessage {
  type: typeof HIT;
  id: number;
  specs: BucketSpec[];
}

interface ResultMessage {
  type: typeof RESULT;
  id: number;
  result: HitResult;
}

/** How long a request waits for the primary before this worker's own logs answer instead (as for Redis). */
export const PRIMARY_TIMEOUT_MS = 500;
/** At most one "primary unavailable" warning per this many ms (with how many requests fell back). */
const WARN_EVERY_MS = 30_000;

const isHit = (message: unknown): message is HitMessage =>
  typeof message === 'object' && message !== null && (message as HitMessage).type === HIT && Array.isArray((message as HitMessage).specs);

const isResult = (message: unknown): message is ResultMessage =>
  typeof message === 'object' && message !== null && (message as ResultMessage).type === RESULT;

/** In the primary: answers every worker's checks from one set of windows, until closed. */
export function serveSlidingWindows(cluster: Cluster): { close(): Promise<void> } {
  const store = new MemorySlidingWindowStore();
  const onMessage = (worker: Worker, message: unknown) => {
    if (!isHit(message)) return;
    const reply: ResultMessage = { type: RESULT, id: message.id, result: store.hitNow(message.specs) };
    // A worker that died meanwhile no longer waits for the answer.
    if (worker.isConnected()) worker.send(reply, undefined, () => undefined);
  };
  cluster.on('message', onMessage);
  return {
    async close() {
      cluster.off('message', onMessage);
      await store.close();
    },
  };
}

interface Pending {
  resolve(result: HitResult): void;
  specs: BucketSpec[];
  timer: NodeJS.Timeout;
}

/**
 * In a worker: asks the primary. SPEC-GAP, as the Redis store: when the primary does not answer
 * within 500 ms (or the channel is gone), the request is checked against this worker's own
 * in-memory logs and a warning is logged at most every 30 s; limits stay on, each worker enforcing
 * them alone meanwhile. An unreachable primary never refuses requests by itself.
 */
export class PrimarySlidingWindowStore implements SlidingWindowStore {
  private readonly fallback: MemorySlidingWindowStore;
  private readonly timeoutMs: number;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private fallbacks = 0;
  private lastWarning = 0;
  private closed = false;
  private readonly onMessage = (message: unknown) => {
    if (!isResult(message)) return;
    const waiting = this.pending.get(message.id);
    if (!waiting) return; // answered by the fallback already
    this.pending.delete(message.id);
    clearTimeout(waiting.timer);
    waiting.resolve(message.result);
  };

  /** `now`: the monotonic time of the fallback's windows (the app's clock); the primary's own decides the shared ones. */
  constructor(
    private readonly logger: Logger,
    { timeoutMs = PRIMARY_TIMEOUT_MS, now }: { timeoutMs?: number; now?: () => number } = {},
  ) {
    this.timeoutMs = timeoutMs;
    this.fallback = new MemorySlidingWindowStore(now);
    process.on('message', this.onMessage);
  }

  hit(specs: BucketSpec[]): Promise<HitResult> {
    if (this.closed || !process.send || !process.connected) return Promise.resolve(this.fallBack(specs, 'no channel to the primary'));
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.abandon(id, `no answer within ${this.timeoutMs} ms`), this.timeoutMs);
      this.pending.set(id, { resolve, specs, timer });
      const message: HitMessage = { type: HIT, id, specs };
      process.send!(message, undefined, undefined, (error: Error | null) => {
        if (error) this.abandon(id, error.message);
      });
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    process.off('message', this.onMessage);
    for (const id of [...this.pending.keys()]) this.abandon(id, 'closing');
    await this.fallback.close();
  }

  private abandon(id: number, reason: string) {
    const waiting = this.pending.get(id);
    if (!waiting) return;
    this.pending.delete(id);
    clearTimeout(waiting.timer);
    waiting.resolve(this.fallBack(waiting.specs, reason));
  }

  private fallBack(specs: BucketSpec[], reason: string): HitResult {
    this.fallbacks += 1;
    const now = Date.now();
    if (!this.closed && now - this.lastWarning >= WARN_EVERY_MS) {
      this.lastWarning = now;
      this.logger.warn(
        { reason, fallback_requests: this.fallbacks },
        'rate limits: primary unavailable, counting in this worker until it answers',
      );
    }
    return this.fallback.hitNow(specs);
  }
}
