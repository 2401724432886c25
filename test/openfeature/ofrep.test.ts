import type { World } from '../helpers/factories';
import { startTestApp, type ApiResponse, type TestApp } from '../helpers/test-app';
import { capture } from '../ingestion/capture-helpers';

/**
 * OFREP (docs/openfeature.md) over HTTP: the answers' shapes and reasons ("Values", "Reasons"), the
 * refusals in OFREP's shape ("Errors"), the bulk ETag and 304 ("Caching"), CORS, the two credentials
 * ("Authentication") and the context's bounds ("The context").
 */

let app: TestApp;
let world: World;
let token: string;

const ONE = (key: string) => `/ofrep/v1/evaluate/flags/${key}`;
const ALL = '/ofrep/v1/evaluate/flags';

function ofrep(path: string, body: unknown, options: { key?: string | null; headers?: Record<string, string> } = {}): Promise<ApiResponse> {
  return app.request(path, { method: 'POST', body, key: options.key === undefined ? token : options.key, headers: options.headers });
}

async function createFlag(flag: Record<string, unknown>): Promise<number> {
  const res = await app.request(`/api/projects/${world.project.id}/feature_flags/`, { method: 'POST', key: world.owner.key, body: flag });
  expect({ status: res.status, body: res.status === 201 ? null : res.body }).toEqual({ status: 201, body: null });
  return res.body.id;
}

let offId: number;

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
  token = world.project.apiToken;
  const batch = [
    { event: 'seen', distinct_id: 'pro-user', properties: { $set: { plan: 'pro', email: 'a@example.com' } } },
    { event: 'seen', distinct_id: 'free-user', properties: { $set: { plan: 'free' } } },
  ];
  expect((await capture(app, '/batch/', { api_key: token, batch })).status).toBe(200);
  await createFlag({
    key: 'pro-only',
    name: 'Pro users',
    filters: { groups: [{ properties: [{ key: 'plan', value: ['pro'], type: 'person' }] }] },
  });
  await createFlag({
    key: 'checkout',
    filters: {
      groups: [{ properties: [], rollout_percentage: 100 }],
      multivariate: {
        variants: [
          { key: 'control', rollout_percentage: 50 },
          { key: 'test', rollout_percentage: 50 },
        ],
      },
    },
  });
  await createFlag({
    key: 'pinned',
    filters: {
      groups: [{ properties: [{ key: 'plan', value: ['pro'], type: 'person' }], variant: 'b' }, { properties: [] }],
      multivariate: {
        variants: [
          { key: 'a', rollout_percentage: 100 },
          { key: 'b', rollout_percentage: 0 },
        ],
      },
      payloads: { b: JSON.stringify({ colour: 'blue', size: 3 }) },
    },
  });
  await createFlag({ key: 'with-payload', filters: { groups: [{ properties: [] }], payloads: { true: '42' } } });
  offId = await createFlag({ key: 'off', active: false, filters: { groups: [{ properties: [] }] } });
  await createFlag({
    key: 'big-orgs',
    filters: {
      aggregation_group_type_index: 0,
      groups: [{ properties: [{ key: 'size', type: 'group', group_type_index: 0, value: '10', operator: 'gt' }] }],
    },
  });
  const identify = {
    event: '$groupidentify',
    distinct_id: 'admin',
    properties: { $group_type: 'organization', $group_key: 'acme', $group_set: { size: 50 } },
  };
  expect((await capture(app, '/batch/', { api_key: token, batch: [identify] })).status).toBe(200);
}, 60_000);
afterAll(() => app.close());

describe('one flag', () => {
  it('answers a boolean match as TARGETING_MATCH, with the facts in metadata', async () => {
    const res = await ofrep(ONE('pro-only'), { context: { targetingKey: 'pro-user' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(res.body).toEqual({
      key: 'pro-only',
      value: true,
      reason: 'TARGETING_MATCH',
      metadata: {
        flag_id: expect.any(Number),
        version: expect.any(Number),
        reason_code: 'condition_match',
        condition_index: 0,
        description: 'Pro users',
      },
    });
  });

  it('answers no match as DEFAULT with false, and the context overlays the stored properties', async () => {
    const res = await ofrep(ONE('pro-only'), { context: { targetingKey: 'free-user' } });
    expect(res.body).toMatchObject({ key: 'pro-only', value: false, reason: 'DEFAULT', metadata: { reason_code: 'no_condition_match' } });
    expect(res.body.variant).toBeUndefined();
    const overlaid = await ofrep(ONE('pro-only'), { context: { targetingKey: 'free-user', plan: 'pro' } });
    expect(overlaid.body).toMatchObject({ value: true, reason: 'TARGETING_MATCH' });
  });

  it('answers a hashed variant as SPLIT, equal to evaluation_reasons', async () => {
    const res = await ofrep(ONE('checkout'), { context: { targetingKey: 'someone' } });
    const reasons = await app.request(`/api/projects/${world.project.id}/feature_flags/evaluation_reasons?distinct_id=someone`, {
      key: world.owner.key,
    });
    expect(res.body).toMatchObject({ value: reasons.body.checkout.value, variant: reasons.body.checkout.value, reason: 'SPLIT' });
  });

  it("answers a condition set's variant override as TARGETING_MATCH, with its payload as the value", async () => {
    const res = await ofrep(ONE('pinned'), { context: { targetingKey: 'pro-user' } });
    expect(res.body).toMatchObject({ value: { colour: 'blue', size: 3 }, variant: 'b', reason: 'TARGETING_MATCH' });
    const other = await ofrep(ONE('pinned'), { context: { targetingKey: 'free-user' } });
    expect(other.body).toMatchObject({ value: 'a', variant: 'a', reason: 'SPLIT' });
  });

  it('answers a boolean flag with a payload as the payload, variant "true"', async () => {
    const res = await ofrep(ONE('with-payload'), { context: { targetingKey: 'x' } });
    expect(res.body).toMatchObject({ value: 42, variant: 'true', reason: 'TARGETING_MATCH' });
  });

  it('answers a flag that is off as DISABLED with false', async () => {
    const res = await ofrep(ONE('off'), { context: { targetingKey: 'x' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      key: 'off',
      value: false,
      reason: 'DISABLED',
      metadata: { flag_id: offId, version: expect.any(Number), reason_code: 'disabled' },
    });
  });
});

describe('refusals in OFREP’s shape', () => {
  it('a missing or deleted flag is 404 FLAG_NOT_FOUND', async () => {
    const res = await ofrep(ONE('no-such-flag'), { context: { targetingKey: 'x' } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ key: 'no-such-flag', errorCode: 'FLAG_NOT_FOUND', errorDetails: "Flag 'no-such-flag' was not found" });
    const id = await createFlag({ key: 'gone', filters: { groups: [{ properties: [] }] } });
    await app.request(`/api/projects/${world.project.id}/feature_flags/${id}/`, {
      method: 'PATCH',
      key: world.owner.key,
      body: { deleted: true },
    });
    expect((await ofrep(ONE('gone'), { context: { targetingKey: 'x' } })).body.errorCode).toBe('FLAG_NOT_FOUND');
  });

  it.each([
    ['no context', 'TARGETING_KEY_MISSING', {}],
    ['no targetingKey', 'TARGETING_KEY_MISSING', { context: { plan: 'pro' } }],
    ['an empty targetingKey', 'TARGETING_KEY_MISSING', { context: { targetingKey: '' } }],
    ['a context that is a list', 'INVALID_CONTEXT', { context: ['x'] }],
    ['a targetingKey that is an object', 'INVALID_CONTEXT', { context: { targetingKey: { id: 1 } } }],
    ['$groups not an object', 'INVALID_CONTEXT', { context: { targetingKey: 'x', $groups: 'acme' } }],
    ['$group_properties not an object', 'INVALID_CONTEXT', { context: { targetingKey: 'x', $group_properties: [1] } }],
    [
      'too many properties',
      'INVALID_CONTEXT',
      { context: { targetingKey: 'x', ...Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`p${i}`, i])) } },
    ],
    ['a body that is a list', 'PARSE_ERROR', [1]],
  ])('%s is 400 %s, on both paths', async (_name, errorCode, body) => {
    const one = await ofrep(ONE('pro-only'), body);
    expect([one.status, one.body.key, one.body.errorCode, typeof one.body.errorDetails]).toEqual([400, 'pro-only', errorCode, 'string']);
    const all = await ofrep(ALL, body);
    expect([all.status, all.body.errorCode, all.body.key]).toEqual([400, errorCode, undefined]);
  });

  it('a body that is not JSON, too deep, too large, of too many shapes or of another media type (a form too) is 400 PARSE_ERROR', async () => {
    const shapes = Array.from({ length: 600 }, (_, i) => `{${Array.from({ length: 100 }, (_, j) => `"n${i}_${j}":0`).join(',')}}`);
    const bodies: Array<[string, string]> = [
      ['{not json', 'application/json'],
      [`{"context":${'['.repeat(5000)}${']'.repeat(5000)}}`, 'application/json'],
      [JSON.stringify({ context: { targetingKey: 'x', big: 'x'.repeat(1_100_000) } }), 'application/json'],
      [`{"context":{"targetingKey":"x","list":[${shapes.join(',')}]}}`, 'application/json'],
      ['targetingKey=x', 'text/plain'],
      ['context[targetingKey]=u1', 'application/x-www-form-urlencoded'],
    ];
    for (const [body, type] of bodies) {
      const res = await ofrep(ALL, body, { headers: { 'content-type': type } });
      expect([res.status, res.body.errorCode]).toEqual([400, 'PARSE_ERROR']);
    }
  });

  it('no credential, an unknown token or a key without the scope keep the usual 401/403', async () => {
    const none = await ofrep(ALL, { context: { targetingKey: 'x' } }, { key: null });
    expect([none.status, none.body.code]).toEqual([401, 'not_authenticated']);
    const unknown = await ofrep(ONE('pro-only'), { context: { targetingKey: 'x' } }, { key: 'phc_unknown' });
    expect([unknown.status, unknown.body.code]).toEqual([401, 'invalid_api_key']);
    const badKey = await ofrep(ALL, { context: { targetingKey: 'x' } }, { key: 'phx_notakey' });
    expect([badKey.status, badKey.body.code]).toEqual([401, 'authentication_failed']);
    const scoped = await app.factories.key(world.owner.user, { scopes: ['experiment:read'] });
    const forbidden = await ofrep(ALL, { context: { targetingKey: 'x' } }, { key: scoped });
    expect(forbidden.status).toBe(403);
  });
});

describe('a personal key', () => {
  it('with feature_flag:read answers for its user’s project, as the public token does', async () => {
    const key = await app.factories.key(world.owner.user, { scopes: ['feature_flag:read'] });
    const withKey = await ofrep(ALL, { context: { targetingKey: 'pro-user' } }, { key });
    const withToken = await ofrep(ALL, { context: { targetingKey: 'pro-user' } });
    expect(withKey.status).toBe(200);
    expect(withKey.body).toEqual(withToken.body);
    expect(withKey.headers.get('ratelimit-limit')).not.toBeNull();
    expect(withToken.headers.get('ratelimit-limit')).toBeNull();
  });
  it('limited to one project answers for that project, whatever its user’s current one', async () => {
    const other = await app.factories.project(world.organization, 'Other shop');
    const res = await app.request(`/api/projects/${other.id}/feature_flags/`, {
      method: 'POST',
      key: world.owner.key,
      body: { key: 'only-there', filters: { groups: [{ properties: [] }] } },
    });
    expect(res.status).toBe(201);
    const key = await app.factories.key(world.owner.user, { scopes: ['feature_flag:read'], projects: [other.id] });
    const answer = await ofrep(ALL, { context: { targetingKey: 'x' } }, { key });
    expect(answer.body.flags.map((flag: { key: string }) => flag.key)).toEqual(['only-there']);
  });
});

describe('every flag', () => {
  it('answers every non-deleted flag by id, those that are off as DISABLED, equal to the single answers', async () => {
    const res = await ofrep(ALL, { context: { targetingKey: 'pro-user' } });
    expect(res.status).toBe(200);
    const keys = res.body.flags.map((flag: { key: string }) => flag.key);
    expect(keys).toEqual(['pro-only', 'checkout', 'pinned', 'with-payload', 'off', 'big-orgs']);
    for (const flag of res.body.flags) expect((await ofrep(ONE(flag.key), { context: { targetingKey: 'pro-user' } })).body).toEqual(flag);
  });

  it('carries an ETag over the answer: If-None-Match naming it is 304 without a body; another answer another tag', async () => {
    const first = await ofrep(ALL, { context: { targetingKey: 'pro-user' } });
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const again = await ofrep(ALL, { context: { targetingKey: 'pro-user' } }, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    const weakInList = await ofrep(ALL, { context: { targetingKey: 'pro-user' } }, { headers: { 'if-none-match': `"other", W/${etag}` } });
    expect(weakInList.status).toBe(304);
    const other = await ofrep(ALL, { context: { targetingKey: 'free-user' } }, { headers: { 'if-none-match': etag } });
    expect(other.status).toBe(200);
    expect(other.headers.get('etag')).not.toBe(etag);
    // A change of a flag changes the answer, so the tag.
    await app.request(`/api/projects/${world.project.id}/feature_flags/${offId}/`, {
      method: 'PATCH',
      key: world.owner.key,
      body: { active: true },
    });
    const changed = await ofrep(ALL, { context: { targetingKey: 'pro-user' } }, { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    await app.request(`/api/projects/${world.project.id}/feature_flags/${offId}/`, {
      method: 'PATCH',
      key: world.owner.key,
      body: { active: false },
    });
  });

  it('answers CORS for any origin: the preflight allows Authorization and If-None-Match, ETag is exposed', async () => {
    const preflight = await app.request(ALL, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type,if-none-match',
      },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('authorization,content-type,if-none-match');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    const res = await ofrep(ALL, { context: { targetingKey: 'x' } }, { headers: { origin: 'https://shop.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    expect(res.headers.get('access-control-expose-headers')).toBe('ETag');
  });

  it('reads groups from $groups, their properties overlaid by $group_properties', async () => {
    const bigOrgs = async (context: Record<string, unknown>) =>
      (await ofrep(ONE('big-orgs'), { context: { targetingKey: 'x', ...context } })).body;
    expect(await bigOrgs({})).toMatchObject({ value: false, reason: 'DEFAULT', metadata: { reason_code: 'no_group_type' } });
    expect(await bigOrgs({ $groups: { organization: 'acme' } })).toMatchObject({ value: true, reason: 'TARGETING_MATCH' });
    expect(await bigOrgs({ $groups: { organization: 'acme' }, $group_properties: { organization: { size: 3 } } })).toMatchObject({
      value: false,
      reason: 'DEFAULT',
    });
    // `$groups` is not a person property.
    expect(await bigOrgs({ $groups: { organization: 'acme' }, size: 1 })).toMatchObject({ value: true });
  });
});

describe('rate limits (docs/openfeature.md, "Authentication")', () => {
  it('the public token is not limited, as on /flags; a personal key spends its burst budget and meets 429 with Retry-After', async () => {
    const limited = await startTestApp({ rateLimit: { burstPerMinute: 2, badCredentialsPerMinute: 2 } });
    try {
      const own = await limited.factories.world();
      const send = (key: string) => limited.request(ALL, { method: 'POST', key, body: { context: { targetingKey: 'x' } } });
      for (let i = 0; i < 5; i++) expect((await send(own.project.apiToken)).status).toBe(200);
      // Unknown public tokens are 401 every time: like /flags, they are not counted as failed credentials.
      for (let i = 0; i < 4; i++) expect((await send('phc_unknown')).status).toBe(401);
      expect((await send(own.owner.key)).status).toBe(200);
      expect((await send(own.owner.key)).status).toBe(200);
      const throttled = await send(own.owner.key);
      expect([throttled.status, throttled.body.code]).toEqual([429, 'throttled']);
      expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect((await send(own.project.apiToken)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
