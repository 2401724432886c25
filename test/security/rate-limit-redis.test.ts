import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import Redis from 'ioredis';
import pino from 'pino';
import { createApp } from '../../src/app';
import type { RateLimitConfig } from '../../src/config';
import { RedisSlidingWindowStore } from '../../src/http/redis-sliding-window';
import type { World } from '../helpers/factories';
import { fetchChecked } from '../helpers/openapi-contract';
import { redisAnswers } from '../helpers/redis-reachable';
import { GENEROUS_RATE_LIMITS, startTestApp, type TestApp } from '../helpers/test-app';

/**
 * REDIS_URL: several processes enforce one budget (here two app instances, each with its own
 * limiter and Redis connection). Needs Redis at REDIS_URL or redis://127.0.0.1:6379. Where
 * REQUIRE_REDIS=1 or REDIS_URL is set (.ci/run sets both), an unreachable Redis fails these cases;
 * otherwise they show as skipped, saying why (the in-memory limiter is tested in rate-limit.test.ts).
 */
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const REQUIRED = process.env.REQUIRE_REDIS === '1' || Boolean(process.env.REDIS_URL);
const prefix = `flagship-test:${process.pid}:${randomBytes(4).toString('hex')}:`;

const reachable = REQUIRED || redisAnswers(REDIS_URL);
if (!reachable)
  console.warn(
    `rate-limit-redis.test.ts: no Redis at ${REDIS_URL}; the shared-budget cases are skipped (REQUIRE_REDIS=1 fails them instead)`,
  );
const describeWithRedis = reachable ? describe : describe.skip;

let redis: Redis | null = null;

/** The test's own connection, to clear its keys afterwards. */
async function connect(): Promise<void> {
  const client = new Redis(REDIS_URL, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
    redis = client;
  } catch (error) {
    client.disconnect();
    // Required (CI), or gone since the probe: a failure, not a reason to skip.
    throw new Error(`no Redis at ${REDIS_URL} (${String(error)}); unset REQUIRE_REDIS and REDIS_URL to skip the shared-budget cases`, {
      cause: error,
    });
  }
}
async function clearAndDisconnect(): Promise<void> {
  if (!redis) return;
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
}

type Requester = Pick<TestApp, 'request'>;

/** A second instance of the service over the first one's database: its own limiter, Redis connection and port. */
async function startSibling(first: TestApp, rateLimit: RateLimitConfig): Promise<Requester & { close(): Promise<void> }> {
  const { app, stop } = await createApp({
    orm: first.orm,
    clock: first.clock,
    logger: pino({ level: 'silent' }),
    rateLimit,
    corsOrigins: [],
  });
  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- Koa's handler settles every request's errors itself
  const server: Server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    async request(path, options = {}) {
      return fetchChecked(`${baseUrl}${path}`, {
        method: options.method ?? 'GET',
        headers: { ...(options.key ? { authorization: `Bearer ${options.key}` } : {}), ...options.headers },
      });
    },
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await stop();
    },
  };
}

describeWithRedis('two app instances sharing REDIS_URL', () => {
  let one: TestApp;
  let two: Requester & { close(): Promise<void> };
  let world: World;

  beforeAll(async () => {
    await connect();
    const rateLimit = {
      ...GENEROUS_RATE_LIMITS,
      burstPerMinute: 4,
      sustainedPerHour: 100,
      localEvaluationPerMinute: 3,
      redisUrl: REDIS_URL,
      redisPrefix: prefix,
    };
    one = await startTestApp({ rateLimit });
    two = await startSibling(one, rateLimit);
    world = await one.factories.world();
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
    await clearAndDisconnect();
  });

  it('enforce one burst budget per key', async () => {
    const path = `/api/projects/${world.project.id}/feature_flags`;
    const key = world.owner.key;
    expect((await one.request(path, { key })).headers.get('ratelimit-remaining')).toBe('3');
    expect((await two.request(path, { key })).headers.get('ratelimit-remaining')).toBe('2');
    expect((await one.request(path, { key })).headers.get('ratelimit-remaining')).toBe('1');
    expect((await two.request(path, { key })).headers.get('ratelimit-remaining')).toBe('0');
    for (const app of [one, two]) {
      const res = await app.request(path, { key });
      expect(res.status).toBe(429);
      expect(res.body.code).toBe('throttled');
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
  });

  it('enforce one local-evaluation budget per project', async () => {
    const project = await one.factories.project(world.organization, 'shared SDK budget');
    const secret = { headers: { authorization: `Bearer ${project.secretApiToken}` } };
    const statuses = [];
    for (const app of [one, two, one, two])
      statuses.push((await app.request(`/flags/definitions?token=${project.apiToken}`, secret)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('run many concurrent requests against one budget without over-admitting', async () => {
    const member = await one.factories.member(world.organization, 'admin');
    const path = `/api/projects/${world.project.id}/feature_flags`;
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? one : two).request(path, { key: member.key })));
    expect(results.filter((res) => res.status === 200)).toHaveLength(4);
    expect(results.filter((res) => res.status === 429)).toHaveLength(8);
  });
});

describe('when Redis cannot be reached', () => {
  it('falls back to this process’s own limits and logs a warning', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) }));
    // Nothing listens on port 1: every command fails at once and the in-memory log answers.
    const store = new RedisSlidingWindowStore('redis://127.0.0.1:1', logger);
    try {
      const spec = [{ key: `${prefix}fallback`, limit: 2, windowMs: 60_000 }];
      expect((await store.hit(spec)).admitted).toBe(true);
      expect((await store.hit(spec)).admitted).toBe(true);
      const refused = await store.hit(spec);
      expect(refused.admitted).toBe(false);
      expect(refused.buckets[0].waitMs).toBeGreaterThan(59_000);
      const warnings = lines.map((line) => JSON.parse(line)).filter((line) => line.level === 40);
      expect(warnings.length).toBeGreaterThanOrEqual(1);
      expect(warnings.some((line) => /rate limits: Redis/.test(line.msg))).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('serves with limits through an app whose REDIS_URL is down', async () => {
    const app = await startTestApp({ rateLimit: { burstPerMinute: 2, redisUrl: 'redis://127.0.0.1:1', redisPrefix: prefix } });
    try {
      const world = await app.factories.world();
      const path = `/api/projects/${world.project.id}/feature_flags`;
      expect((await app.request(path, { key: world.owner.key })).status).toBe(200);
      expect((await app.request(path, { key: world.owner.key })).status).toBe(200);
      expect((await app.request(path, { key: world.owner.key })).status).toBe(429);
    } finally {
      await app.close();
    }
  });
});
