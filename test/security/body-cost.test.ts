import { gzipSync } from 'node:zlib';
import type { World } from '../helpers/factories';
import { fetchChecked } from '../helpers/openapi-contract';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { capture, reader } from '../ingestion/capture-helpers';

/**
 * Regressions of the reliability issue: every endpoint that reads a body parsed the whole JSON text
 * before looking at its depth, so a 20 KB gzip inflating to an array nested ten million levels
 * deep froze the process for seconds and added a gigabyte of heap before its 400. Depth is now read
 * from the text first; the JSON parser never sees such a body (spied on, in this process).
 * Likewise for objects whose keys never repeat (src/validation/fields.ts MAX_JSON_SHAPES): 20 MB
 * of them on a capture endpoint took one thread 8 s and 2 GB of heap to parse.
 */
let app: TestApp;
let world: World;

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
});
afterAll(() => app.close());

/**
 * Runs `action`, answering the longest part of the attack (by default, text opening with `[[`) JSON.parse
 * was given meanwhile (the service runs in this process; the test helper's own parsing of answers and
 * of the OpenAPI document does not count).
 */
async function longestParsed(action: () => Promise<unknown>, isAttack = (text: string) => text.startsWith('[[')): Promise<number> {
  const spy = jest.spyOn(JSON, 'parse');
  try {
    await action();
    const attack = spy.mock.calls.map(([text]) => (typeof text === 'string' && isAttack(text) ? text.length : 0));
    return Math.max(0, ...attack);
  } finally {
    spy.mockRestore();
  }
}

const PARSE_ERROR = {
  type: 'invalid_request',
  code: 'parse_error',
  detail: 'JSON parse error - request body is not valid JSON.',
  attr: null,
};
// Unterminated on purpose: a parser reaches the end only after building every level.
const DEEP = '['.repeat(10_000_000);

describe('capture endpoints (no key)', () => {
  const deepDetail = 'Malformed request data: Invalid JSON: nested deeper than 1000 levels';

  it.each(['/batch/', '/capture/', '/e/'])('regression: %s refuses a gzip bomb of nested arrays before parsing it', async (path) => {
    const body = gzipSync(DEEP, { level: 9 });
    expect(body.length).toBeLessThan(25_000);
    let res: Awaited<ReturnType<typeof capture>> | undefined;
    const started = Date.now();
    const longest = await longestParsed(async () => {
      res = await capture(app, `${path}?token=${world.project.apiToken}`, body, { headers: { 'content-encoding': 'gzip' } });
    });
    expect(res!.status).toBe(400);
    expect(res!.body).toMatchObject({ code: 'invalid_payload', detail: deepDetail });
    expect(longest).toBeLessThan(1_000);
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it('refuses the same in a form body, base64 and gzip-js encoded, and raw base64', async () => {
    const gzipped = gzipSync('['.repeat(2_000_000)).toString('base64');
    const bodies: Array<[string, string, string]> = [
      ['/e/', new URLSearchParams({ data: gzipped, compression: 'gzip-js' }).toString(), 'application/x-www-form-urlencoded'],
      [
        '/e/',
        new URLSearchParams({ data: Buffer.from('['.repeat(100_000)).toString('base64') }).toString(),
        'application/x-www-form-urlencoded',
      ],
      ['/batch/?compression=base64', Buffer.from('['.repeat(100_000)).toString('base64'), 'text/plain'],
    ];
    for (const [path, body, type] of bodies) {
      let res: Awaited<ReturnType<typeof capture>> | undefined;
      const longest = await longestParsed(async () => {
        res = await capture(app, path, body, { headers: { 'content-type': type } });
      });
      expect({ path, status: res!.status, detail: res!.body.detail }).toEqual({ path, status: 400, detail: deepDetail });
      expect(longest).toBeLessThan(1_000);
    }
  });

  it('still stores events nested 500 levels deep', async () => {
    const deep = JSON.parse(`${'['.repeat(499)}1${']'.repeat(499)}`);
    const res = await capture(app, '/batch/', {
      api_key: world.project.apiToken,
      batch: [{ event: 'deep', distinct_id: 'deep-1', properties: { deep } }],
    });
    expect(res.status).toBe(200);
  });
});

describe('REST and /graphql bodies', () => {
  const deepBody = '['.repeat(1_000_000);

  it.each([
    ['a flag create', () => `/api/projects/${world.project.id}/feature_flags/`],
    ['/graphql', () => '/graphql'],
  ])('regression: %s refuses a 1 MiB body of nested arrays before parsing it', async (_label, path) => {
    let res: Awaited<ReturnType<TestApp['request']>> | undefined;
    const longest = await longestParsed(async () => {
      res = await app.request(path(), { method: 'POST', key: world.owner.key, body: deepBody });
    });
    expect(res!.status).toBe(400);
    expect(res!.body).toEqual(PARSE_ERROR);
    expect(longest).toBeLessThan(1_000);
  });

  it('keeps the rules it had: 1000 levels pass, `__proto__` keys and bad JSON are parse errors, an empty body is {}', async () => {
    const flags = `/api/projects/${world.project.id}/feature_flags/`;
    const deep = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
    const ok = await app.request(flags, {
      method: 'POST',
      key: world.owner.key,
      body: `{"key":"deep-ok","rollback_conditions":${deep(999)}}`,
    });
    expect(ok.status).toBe(201);
    const tooDeep = await app.request(flags, {
      method: 'POST',
      key: world.owner.key,
      body: `{"key":"deep-no","rollback_conditions":${deep(1000)}}`,
    });
    expect(tooDeep.body).toEqual(PARSE_ERROR);
    // Brackets inside strings do not count.
    const quoted = await app.request(flags, {
      method: 'POST',
      key: world.owner.key,
      body: JSON.stringify({ key: 'quoted', name: '['.repeat(5000) }),
    });
    expect(quoted.status).toBe(201);
    for (const body of ['{"key":"proto","__proto__":{"x":1}}', '{bad', '{"a":"\\"}', '   ']) {
      const res = await app.request(flags, { method: 'POST', key: world.owner.key, body });
      expect({ body, res: res.body }).toEqual({ body, res: PARSE_ERROR });
    }
    const empty = await app.request(flags, {
      method: 'POST',
      key: world.owner.key,
      body: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(empty.body).toMatchObject({ attr: 'key', code: 'required' });
    const gzipped = await fetchChecked(`${app.baseUrl}${flags}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${world.owner.key}`, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(JSON.stringify({ key: 'gzipped-body' })),
    });
    expect(gzipped.status).toBe(201);
  });
});

describe('objects whose keys never repeat', () => {
  const SHAPES = {
    type: 'invalid_request',
    code: 'payload_too_large',
    detail: 'Request body holds objects with more than 50000 distinct sequences of keys; send fewer events or properties per request.',
    attr: null,
  };
  const REST_SHAPES = {
    type: 'invalid_request',
    code: 'request_too_large',
    detail: 'Request body holds objects with more than 50000 distinct sequences of keys.',
    attr: null,
  };
  /** JSON text of `count` objects of 100 keys each that no other object has: 100 shapes apiece. */
  const neverRepeating = (count: number) =>
    Array.from({ length: count }, (_, i) => `{${Array.from({ length: 100 }, (_, j) => `"n${i}_${j}":${j}`).join(',')}}`);
  const isAttack = (text: string) => text.includes('"n0_0"');

  it('capture refuses 60,000 shapes with a 413 before parsing them, and stores nothing', async () => {
    const read = reader(app, world);
    const events = neverRepeating(600).map(
      (properties, i) => `{"event":"never-repeating","distinct_id":"shapes-${i}","properties":${properties}}`,
    );
    const body = `{"api_key":"${world.project.apiToken}","batch":[${events.join(',')}]}`;
    for (const [path, gzip] of [
      ['/batch/', false],
      ['/i/v0/e/', true],
    ] as const) {
      let res: Awaited<ReturnType<typeof capture>> | undefined;
      const longest = await longestParsed(async () => {
        res = await capture(app, path, body, { gzip });
      }, isAttack);
      expect({ path, status: res!.status, body: res!.body }).toEqual({ path, status: 413, body: SHAPES });
      expect(longest).toBe(0);
    }
    expect((await read.events('?event=never-repeating')).results).toEqual([]);
  });

  it('capture still stores a batch of 2,000 events with the varying properties SDKs send', async () => {
    const read = reader(app, world);
    const batch = Array.from({ length: 2000 }, (_, i) => ({
      event: i % 3 ? '$pageview' : 'many-events',
      distinct_id: `many-${i % 40}`,
      properties: {
        $current_url: `https://example.com/p/${i}`,
        $browser: 'Chrome',
        ...(i % 3 ? {} : { $event_type: 'click', $elements_chain: 'button' }),
        ...(i % 7 ? { plan: 'pro' } : {}),
        [`$feature/flag-${i % 50}`]: true,
        $set: { email: `u${i % 40}@example.com` },
      },
    }));
    const res = await capture(app, '/batch/', { api_key: world.project.apiToken, batch });
    expect(res.status).toBe(200);
    expect((await read.events('?event=many-events&limit=1')).count).toBe(667);
  });

  it('regression: capture refuses keys longer than 8192 characters (V8 hashes only 16,383) before parsing them', async () => {
    // 1,150 events whose one key differs only at its end: 25 KB gzipped held the event loop for 2 s.
    const stem = 'k'.repeat(16_380);
    const events = Array.from(
      { length: 1150 },
      (_, i) => `{"event":"long-keys","distinct_id":"long-${i}","properties":{"${stem}${String(i).padStart(4, '0')}":1}}`,
    );
    const body = `{"api_key":"${world.project.apiToken}","batch":[${events.join(',')}]}`;
    let res: Awaited<ReturnType<typeof capture>> | undefined;
    const longest = await longestParsed(
      async () => {
        res = await capture(app, '/batch/', body, { gzip: true });
      },
      (text) => text.includes(stem),
    );
    expect(res!.status).toBe(400);
    expect(res!.body).toMatchObject({
      code: 'invalid_payload',
      detail: 'Malformed request data: Invalid JSON: an object key is longer than 8192 characters',
    });
    expect(longest).toBe(0);
    expect((await reader(app, world).events('?event=long-keys')).results).toEqual([]);
    const rest = await app.request(`/api/projects/${world.project.id}/feature_flags/`, {
      method: 'POST',
      key: world.owner.key,
      body: `{"key":"long-key","filters":{"${'k'.repeat(8193)}":1}}`,
    });
    expect(rest.body).toEqual(PARSE_ERROR);
  });

  it('/flags refuses them in person_properties with a 413', async () => {
    const body = `{"token":"${world.project.apiToken}","distinct_id":"x","person_properties":{"list":[${neverRepeating(600).join(',')}]}}`;
    let res: Awaited<ReturnType<typeof capture>> | undefined;
    const longest = await longestParsed(async () => {
      res = await capture(app, '/flags/?v=2', body);
    }, isAttack);
    expect(res!.status).toBe(413);
    expect(res!.body).toEqual(SHAPES);
    expect(longest).toBe(0);
  });

  it.each([
    [
      'a flag create',
      () => `/api/projects/${world.project.id}/feature_flags/`,
      (list: string) => `{"key":"never-repeating","rollback_conditions":[${list}]}`,
    ],
    ['/graphql', () => '/graphql', (list: string) => `{"query":"{ __typename }","variables":{"list":[${list}]}}`],
  ])('%s refuses them with a 413 before parsing them', async (_label, path, bodyOf) => {
    let res: Awaited<ReturnType<TestApp['request']>> | undefined;
    const longest = await longestParsed(async () => {
      res = await app.request(path(), { method: 'POST', key: world.owner.key, body: bodyOf(neverRepeating(600).join(',')) });
    }, isAttack);
    expect(res!.status).toBe(413);
    expect(res!.body).toEqual(REST_SHAPES);
    expect(longest).toBe(0);
  });
});
