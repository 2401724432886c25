import type { World } from '../helpers/factories';
import { startTestApp, type ApiResponse, type TestApp } from '../helpers/test-app';

/** docs/rest-api.md §1.6, docs/README.md decision 14, and our bucket for failed credentials per address. */

const LIMITS = { burstPerMinute: 5, sustainedPerHour: 8, localEvaluationPerMinute: 7, badCredentialsPerMinute: 3 };

let app: TestApp;
let world: World;
let flags: string;

const THROTTLED = /^Request was throttled\. Expected available in (\d+) (second|seconds)\.$/;

function expectThrottled(res: ApiResponse, maxSeconds: number) {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ type: 'throttled_error', code: 'throttled', detail: expect.stringMatching(THROTTLED), attr: null });
  const [, shown, unit] = THROTTLED.exec(res.body.detail)!;
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBe(Number(shown));
  expect(unit).toBe(retryAfter === 1 ? 'second' : 'seconds');
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(maxSeconds);
  expect(res.headers.get('ratelimit-remaining')).toBe('0');
  expect(Number(res.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(1);
}

const rateHeaders = (res: ApiResponse) => ({
  limit: res.headers.get('ratelimit-limit'),
  remaining: res.headers.get('ratelimit-remaining'),
  reset: res.headers.get('ratelimit-reset'),
  policy: res.headers.get('ratelimit-policy'),
});

beforeAll(async () => {
  app = await startTestApp({ rateLimit: LIMITS });
  world = await app.factories.world();
  flags = `/api/projects/${world.project.id}/feature_flags`;
});
afterAll(() => app.close());

/** A fresh key in the world's organization: its own buckets. */
const freshKey = async () => (await app.factories.member(world.organization, 'admin')).key;

describe('burst and sustained, per personal key', () => {
  it('puts RateLimit-* headers on ordinary responses', async () => {
    const key = await freshKey();
    const first = await app.request(flags, { key });
    expect(first.status).toBe(200);
    expect(rateHeaders(first)).toEqual({ limit: '5', remaining: '4', reset: '0', policy: '5;w=60, 8;w=3600' });
    const second = await app.request(flags, { key });
    expect(rateHeaders(second)).toMatchObject({ limit: '5', remaining: '3', reset: '0' });
  });

  it('answers the 6th request in a minute with 429 throttled and Retry-After, and does not count 429s', async () => {
    const key = await freshKey();
    for (let i = 0; i < 5; i += 1) expect((await app.request(flags, { key })).status).toBe(200);
    const refused = await app.request(flags, { key });
    expectThrottled(refused, 60);
    expect(rateHeaders(refused)).toMatchObject({ limit: '5', remaining: '0', policy: '5;w=60, 8;w=3600' });
    // Refused requests are not counted: the sustained bucket still holds 5 of 8.
    expectThrottled(await app.request(flags, { key }), 60);
    const another = await app.request(flags, { key: await freshKey() });
    expect(another.status).toBe(200);
  });

  it('admits again once Retry-After has passed: the window slides on the app clock (moved here, not slept)', async () => {
    const key = await freshKey();
    for (let i = 0; i < 5; i += 1) expect((await app.request(flags, { key })).status).toBe(200);
    const refused = await app.request(flags, { key });
    expectThrottled(refused, 60);
    app.clock.advance(Number(refused.headers.get('retry-after')) * 1000 - 1);
    expectThrottled(await app.request(flags, { key }), 1);
    app.clock.advance(1);
    const admitted = await app.request(flags, { key });
    expect(admitted.status).toBe(200);
    // The minute's five have left the burst window (1 of 5 now); the hour still holds them, 6 of 8,
    // and is the bucket with the fewest remaining.
    expect(rateHeaders(admitted)).toMatchObject({ limit: '8', remaining: '2', reset: '0' });
  });

  it('counts every route and method of the key, writes and GraphQL included', async () => {
    const key = await freshKey();
    expect((await app.request(flags, { method: 'POST', key, body: { key: `rl-${Date.now()}` } })).status).toBe(201);
    expect((await app.graphql(`{ me { user { email } } }`, {}, key)).status).toBe(200);
    expect((await app.request(`/api/organizations/${world.organization.id}/roles`, { key })).status).toBe(200);
    expect((await app.request(`${flags}/999999`, { key })).status).toBe(404);
    expect(rateHeaders(await app.request(flags, { key }))).toMatchObject({ remaining: '0' });
    expectThrottled(await app.request(flags, { key }), 60);
  });

  it('answers GraphQL with extensions.code TOO_MANY_REQUESTS and the same detail', async () => {
    const key = await freshKey();
    for (let i = 0; i < 5; i += 1) expect((await app.graphql(`{ me { user { email } } }`, {}, key)).status).toBe(200);
    const res = await app.graphql(`{ me { user { email } } }`, {}, key);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(res.body.errors).toEqual([
      {
        message: expect.stringMatching(THROTTLED),
        extensions: { code: 'TOO_MANY_REQUESTS', type: 'throttled_error', reason: 'throttled', attr: null },
      },
    ]);
    expect(rateHeaders(res)).toMatchObject({ limit: '5', remaining: '0' });
  });

  it('keeps each key to its own budget', async () => {
    const [a, b] = [await freshKey(), await freshKey()];
    for (let i = 0; i < 5; i += 1) await app.request(flags, { key: a });
    expectThrottled(await app.request(flags, { key: a }), 60);
    expect(rateHeaders(await app.request(flags, { key: b }))).toMatchObject({ remaining: '4' });
  });

  it('answers an unknown project or organization (404) before the rate limit (429), §1.3', async () => {
    const key = await freshKey();
    for (let i = 0; i < 5; i += 1) await app.request(flags, { key });
    const project = await app.request('/api/projects/999999/feature_flags', { key });
    expect(project.status).toBe(404);
    expect(project.body.detail).toBe('Project not found.');
    const organization = await app.request('/api/organizations/00000000-0000-4000-8000-000000000000/roles', { key });
    expect(organization.status).toBe(404);
    expect(organization.body.detail).toBe('Organization not found.');
    expectThrottled(await app.request(`/api/organizations/${world.organization.id}/roles`, { key }), 60);
  });

  it('applies the sustained bucket, and shows the bucket with the fewest remaining', async () => {
    const hourly = await startTestApp({ rateLimit: { ...LIMITS, burstPerMinute: 5, sustainedPerHour: 3 } });
    try {
      const other = await hourly.factories.world();
      const path = `/api/projects/${other.project.id}/feature_flags`;
      const first = await hourly.request(path, { key: other.owner.key });
      expect(rateHeaders(first)).toEqual({ limit: '3', remaining: '2', reset: '0', policy: '5;w=60, 3;w=3600' });
      await hourly.request(path, { key: other.owner.key });
      const third = await hourly.request(path, { key: other.owner.key });
      expect(rateHeaders(third)).toMatchObject({ limit: '3', remaining: '0' });
      expect(Number(third.headers.get('ratelimit-reset'))).toBeGreaterThan(60);
      const refused = await hourly.request(path, { key: other.owner.key });
      expectThrottled(refused, 3600);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(60);
    } finally {
      await hourly.close();
    }
  });
});

describe('local evaluation, per project', () => {
  it('admits 7 calls with a limit of 7 and carries the headers; the 8th is 429', async () => {
    const project = await app.factories.project(world.organization, 'SDK project');
    const path = `/api/projects/${project.id}/feature_flags/local_evaluation`;
    const secret = { headers: { authorization: `Bearer ${project.secretApiToken}` } };
    for (let i = 1; i <= 7; i += 1) {
      const res = await app.request(path, secret);
      expect(res.status).toBe(200);
      expect(rateHeaders(res)).toEqual({
        limit: '7',
        remaining: String(7 - i),
        reset: i === 7 ? expect.stringMatching(/^\d+$/) : '0',
        policy: '7;w=60',
      });
    }
    expectThrottled(await app.request(path, secret), 60);
    // Any credential counts against the project: a personal key and the SDK paths share the bucket.
    expectThrottled(await app.request(path, { key: world.owner.key }), 60);
    expectThrottled(await app.request(`/flags/definitions?token=${project.apiToken}`, secret), 60);
    expectThrottled(await app.request('/api/feature_flag/local_evaluation', secret), 60);
    // The paths as the router matches them: any case, with or without the trailing slash.
    expectThrottled(await app.request(`/API/Projects/${project.id}/Feature_Flags/Local_Evaluation/`, secret), 60);
    expectThrottled(await app.request(`/Flags/Definitions/?token=${project.apiToken}`, secret), 60);
  });

  it('keeps projects apart, and does not spend the key’s own budget', async () => {
    const key = await freshKey();
    const [one, two] = [await app.factories.project(world.organization, 'one'), await app.factories.project(world.organization, 'two')];
    for (let i = 0; i < 7; i += 1) {
      expect((await app.request(`/api/projects/${one.id}/feature_flags/local_evaluation`, { key })).status).toBe(200);
    }
    expectThrottled(await app.request(`/api/projects/${one.id}/feature_flags/local_evaluation`, { key }), 60);
    const twoRes = await app.request(`/flags/definitions?token=${two.apiToken}`, { key });
    expect(twoRes.status).toBe(200);
    expect(rateHeaders(twoRes)).toMatchObject({ limit: '7', remaining: '6', policy: '7;w=60' });
    // Eight local-evaluation calls, yet the key's burst bucket is untouched.
    expect(rateHeaders(await app.request(flags, { key }))).toMatchObject({ limit: '5', remaining: '4', policy: '5;w=60, 8;w=3600' });
  });

  it('does not let a credential without access spend a project’s budget (refused before counting)', async () => {
    const project = await app.factories.project(world.organization, 'guarded');
    const stranger = await app.factories.member(null);
    for (let i = 0; i < 10; i += 1) {
      const res = await app.request(`/api/projects/${project.id}/feature_flags/local_evaluation`, { key: stranger.key });
      expect(res.status).toBe(403);
      expect(res.headers.get('ratelimit-limit')).toBeNull();
    }
    const owner = await app.request(`/api/projects/${project.id}/feature_flags/local_evaluation`, { key: world.owner.key });
    expect(owner.status).toBe(200);
    expect(rateHeaders(owner)).toMatchObject({ remaining: '6' });
  });

  it('keeps 304 answers and their ETag, with the headers', async () => {
    const project = await app.factories.project(world.organization, 'etag');
    const path = `/api/projects/${project.id}/feature_flags/local_evaluation`;
    const first = await app.request(path, { key: world.owner.key });
    const again = await app.request(path, { key: world.owner.key, headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect(rateHeaders(again)).toMatchObject({ limit: '7', remaining: '5' });
  });
});

describe('credentials that fail, per client address (ours)', () => {
  it('answers 401 up to the budget, then 429; a good key from the same address still works', async () => {
    // A fresh app: this file's other tests share 127.0.0.1.
    const guarded = await startTestApp({ rateLimit: LIMITS });
    try {
      const other = await guarded.factories.world();
      const path = `/api/projects/${other.project.id}/feature_flags`;
      const bad = 'phx_' + 'x'.repeat(43);
      for (let i = 0; i < 3; i += 1) {
        const res = await guarded.request(path, { key: bad });
        expect(res.status).toBe(401);
        expect(res.body.code).toBe('authentication_failed');
      }
      const refused = await guarded.request(path, { key: bad });
      expectThrottled(refused, 60);
      expect(rateHeaders(refused)).toMatchObject({ limit: '3', policy: '3;w=60' });
      // Other places a key can be, and an unknown secret token on the SDK path, are failed credentials too.
      expectThrottled(await guarded.request(`${path}?personal_api_key=${bad}`), 60);
      expectThrottled(await guarded.request('/api/feature_flag/local_evaluation', { key: 'phs_unknown' }), 60);
      const graphql = await guarded.graphql(`{ me { user { email } } }`, {}, bad);
      expect(graphql.status).toBe(429);
      expect(graphql.body.errors![0].extensions.code).toBe('TOO_MANY_REQUESTS');
      // A key that works is never refused for its neighbours' failures.
      expect((await guarded.request(path, { key: other.owner.key })).status).toBe(200);
      // No credential at all is not limited (§1.6): still 401 not_authenticated.
      for (let i = 0; i < 5; i += 1) expect((await guarded.request(path)).body.code).toBe('not_authenticated');
    } finally {
      await guarded.close();
    }
  });
});

describe('what is not limited', () => {
  it('leaves capture alone: no key, no bucket, no headers', async () => {
    for (let i = 0; i < 8; i += 1) {
      const res = await app.request('/batch/', {
        method: 'POST',
        body: { api_key: world.project.apiToken, batch: [{ event: 'e', distinct_id: `d${i}` }] },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBeNull();
    }
  });

  it('RATE_LIMIT_ENABLED=false: no 429 and no RateLimit-* headers', async () => {
    const open = await startTestApp({ rateLimit: { ...LIMITS, enabled: false } });
    try {
      const other = await open.factories.world();
      const path = `/api/projects/${other.project.id}/feature_flags`;
      for (let i = 0; i < 12; i += 1) {
        const res = await open.request(path, { key: other.owner.key });
        expect(res.status).toBe(200);
        expect(Object.values(rateHeaders(res))).toEqual([null, null, null, null]);
      }
      for (let i = 0; i < 5; i += 1) expect((await open.request(path, { key: 'phx_' + 'y'.repeat(43) })).status).toBe(401);
    } finally {
      await open.close();
    }
  });
});
