import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import type { Logger } from 'pino';
import { MemorySlidingWindowStore, type BucketSpec, type HitResult, type SlidingWindowStore } from './sliding-window';

/**
 * The same check in one Lua script, atomic across processes; Redis's clock decides, so the
 * processes' clocks need not agree. KEYS: the buckets; ARGV: a unique member, then limit and
 * window (ms) per bucket. Returns admitted (0/1), then count and wait (ms) per bucket.
 */
const HIT_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local counts = {}
local admitted = 1
for i = 1, #KEYS do
  local limit = tonumber(ARGV[2 * i])
  local window = tonumber(ARGV[2 * i + 1])
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - window)
  counts[i] = redis.call('ZCARD', KEYS[i])
  if counts[i] >= limit then admitted = 0 end
end
local result = { admitted }
for i = 1, #KEYS do
  local limit = tonumber(ARGV[2 * i])
  local window = tonumber(ARGV[2 * i + 1])
  local count = counts[i]
  if admitted == 1 then
    redis.call('ZADD', KEYS[i], now, ARGV[1])
    redis.call('PEXPIRE', KEYS[i], window)
    count = count + 1
  end
  local wait = 0
  if count >= limit then
    local entry = redis.call('ZRANGE', KEYS[i], count - limit, count - limit, 'WITHSCORES')
    wait = tonumber(entry[2]) + window - now
    if wait < 0 then wait = 0 end
  end
  result[#result + 1] = count
  result[#result + 1] = wait
end
return result
`;

type HitCommand = (numberOfKeys: number, ...args: Array<string | number>) => Promise<number[]>;

/** How long a request waits for Redis before the in-memory fallback answers instead. */
const REDIS_COMMAND_TIMEOUT_MS = 500;
/** At most one "Redis unavailable" warning per this many ms (with how many requests fell back). */
const WARN_EVERY_MS = 30_000;

/**
 * Shared budgets through Redis. SPEC-GAP: when Redis cannot answer (down, unreachable, slower than
 * 500 ms), the request is checked against this process's own in-memory logs instead, and a warning
 * is logged (at most every 30 s): limits stay on, but each process enforces them alone until Redis
 * is back. A Redis outage never refuses requests by itself.
 */
export class RedisSlidingWindowStore implements SlidingWindowStore {
  private readonly client: Redis;
  private readonly fallback: MemorySlidingWindowStore;
  private fallbacks = 0;
  private lastWarning = 0;
  private closed = false;

  /** `now`: the monotonic time of the fallback's windows (the app's clock); Redis's own clock decides the shared ones. */
  constructor(
    url: string,
    private readonly logger: Logger,
    now?: () => number,
  ) {
    this.fallback = new MemorySlidingWindowStore(now);
    this.client = new Redis(url, {
      // Fail fast while disconnected (the fallback answers) instead of queueing commands.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
      connectTimeout: 2000,
      // How long close() lets a socket linger (ioredis waits 2 s by default, even for one that never opened).
      disconnectTimeout: 100,
      retryStrategy: (attempt) => Math.min(attempt * 200, 5000),
    });
    // Connection errors are logged (throttled), never left to surface as an unhandled 'error' event.
    this.client.on('error', (error) => this.warn(error, 'rate limits: Redis error'));
    this.client.defineCommand('flagshipSlidingWindowHit', { lua: HIT_SCRIPT });
  }

  /** Resolves true once connected; false on the first connection error or after `timeoutMs` (the fallback covers the gap). */
  async ready(timeoutMs = 2000): Promise<boolean> {
    if (this.client.status === 'ready') return true;
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(false), timeoutMs);
      const done = (ok: boolean) => {
        clearTimeout(timer);
        this.client.off('ready', onReady);
        this.client.off('error', onError);
        resolve(ok);
      };
      const onReady = () => done(true);
      const onError = () => done(false);
      this.client.on('ready', onReady);
      this.client.on('error', onError);
    });
  }

  async hit(specs: BucketSpec[]): Promise<HitResult> {
    try {
      const command = (this.client as unknown as { flagshipSlidingWindowHit: HitCommand }).flagshipSlidingWindowHit.bind(this.client);
      const args = specs.flatMap((spec) => [spec.limit, Math.max(1, Math.round(spec.windowMs))]);
      const reply = await command(specs.length, ...specs.map((spec) => spec.key), randomUUID(), ...args);
      return {
        admitted: Number(reply[0]) === 1,
        buckets: specs.map((_, i) => ({ count: Number(reply[1 + 2 * i]), waitMs: Number(reply[2 + 2 * i]) })),
      };
    } catch (error) {
      this.fallbacks += 1;
      this.warn(error, 'rate limits: Redis unavailable, counting in this process until it is back');
      return this.fallback.hitNow(specs);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.fallback.close();
    this.client.disconnect();
  }

  private warn(error: unknown, message: string) {
    if (this.closed) return;
    const now = Date.now();
    if (now - this.lastWarning < WARN_EVERY_MS) return;
    this.lastWarning = now;
    const reason = error instanceof Error ? error.message : String(error);
    this.logger.warn({ reason, fallback_requests: this.fallbacks }, message);
  }
}
