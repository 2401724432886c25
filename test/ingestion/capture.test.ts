import { gzipSync } from 'node:zlib';
import type { World } from '../helpers/factories';
import { fetchChecked } from '../helpers/openapi-contract';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { capture, reader, SUCCESS, uniqueId } from './capture-helpers';

let app: TestApp;
let world: World;
let read: ReturnType<typeof reader>;
let T: string;

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
  read = reader(app, world);
  T = world.project.apiToken;
});
afterAll(() => app.close());

const event = (name = 'x', distinctId = uniqueId(), extra: Record<string, unknown> = {}) => ({
  event: name,
  distinct_id: distinctId,
  ...extra,
});
const countOf = async (query: string) => (await read.events(query)).count as number;

describe('capture endpoints (docs/ingestion.md §1)', () => {
  it('stores a /batch/ envelope and answers exactly {"status": 1}', async () => {
    const d = uniqueId();
    const res = await capture(app, '/batch/', { api_key: T, batch: [event('one', d), event('two', d)] });
    expect(res.status).toBe(200);
    expect(res.text).toBe(JSON.stringify(SUCCESS));
    expect(await countOf(`?distinct_id=${d}`)).toBe(2);
  });

  it.each(['/batch', '/batch/', '/capture', '/capture/', '/e', '/e/', '/i/v0/e', '/i/v0/e/'])('serves %s', async (path) => {
    const d = uniqueId();
    const res = await capture(app, path, { api_key: T, batch: [event('path', d)] });
    expect(res.status).toBe(200);
    expect(await countOf(`?distinct_id=${d}`)).toBe(1);
  });

  it('takes gzip as posthog-node sends it, gzip-js as text/plain, and unmarked gzip', async () => {
    const d = uniqueId();
    expect((await capture(app, '/batch/', { api_key: T, batch: [event('gz', d)] }, { gzip: true })).status).toBe(200);
    const zipped = gzipSync(JSON.stringify([{ ...event('gzjs', d), properties: { token: T } }]));
    expect((await capture(app, '/e/?compression=gzip-js', zipped, { headers: { 'content-type': 'text/plain' } })).status).toBe(200);
    expect((await capture(app, '/batch/', gzipSync(JSON.stringify({ api_key: T, batch: [event('bare', d)] })))).status).toBe(200);
    expect(await countOf(`?distinct_id=${d}`)).toBe(3);
  });

  it('takes one event with properties.token, and ?token= with an array', async () => {
    const d = uniqueId();
    expect((await capture(app, '/e', { event: 'x', properties: { distinct_id: d, token: T } })).status).toBe(200);
    expect((await capture(app, `/capture/?token=${T}`, [event('a', d), event('b', d)])).status).toBe(200);
    expect(await countOf(`?distinct_id=${d}`)).toBe(3);
  });

  it('takes form bodies with base64 data and base64 bodies', async () => {
    const d = uniqueId();
    const data = Buffer.from(JSON.stringify([{ ...event('form', d), api_key: T }])).toString('base64');
    const form = `data=${encodeURIComponent(data)}`;
    expect((await capture(app, '/e/', form, { headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(200);
    const plain = `data=${encodeURIComponent(JSON.stringify({ ...event('form-json', d), api_key: T }))}`;
    expect((await capture(app, '/e/', plain, { headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(200);
    expect((await capture(app, '/e/?compression=base64', data, { headers: { 'content-type': 'text/plain' } })).status).toBe(200);
    expect(await countOf(`?distinct_id=${d}`)).toBe(3);
  });

  it('answers CORS preflights and echoes the Origin', async () => {
    const res = await fetchChecked(`${app.baseUrl}/e/`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-headers': 'content-type' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(SUCCESS);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
  });

  it('refuses other methods with 405, and the opt-in V1 and AI paths are 404', async () => {
    const res = await app.request('/batch/');
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ type: 'invalid_request', code: 'method_not_allowed', detail: 'Method "GET" not allowed.', attr: null });
    expect((await capture(app, '/i/v1/analytics/events', { api_key: T, batch: [event()] })).status).toBe(404);
    expect((await capture(app, '/i/v0/ai/batch/', { api_key: T, batch: [event()] })).status).toBe(404);
  });
});

describe('refusals store nothing and are never 500', () => {
  const MISSING = {
    type: 'authentication_error',
    code: 'missing_api_key',
    detail: 'API key not provided. You can find your project API key in your project settings.',
    attr: null,
  };
  const INVALID = {
    type: 'authentication_error',
    code: 'invalid_api_key',
    detail: 'Project API key invalid. You can find your project API key in your project settings.',
    attr: null,
  };
  const invalid = (detail: string) => ({ type: 'validation_error', code: 'invalid_payload', detail, attr: null });

  it.each(['/batch/', '/capture/', '/e/', '/i/v0/e/'])('%s: tokens', async (path) => {
    const d = uniqueId();
    expect(await capture(app, path, { batch: [event('x', d)] })).toMatchObject({ status: 401, body: MISSING });
    expect(await capture(app, path, { api_key: 'phc_unknown', batch: [event('x', d)] })).toMatchObject({ status: 401, body: INVALID });
    expect(await capture(app, path, { api_key: world.owner.key, batch: [event('x', d)] })).toMatchObject({ status: 401, body: INVALID });
    expect(await countOf(`?distinct_id=${d}`)).toBe(0);
  });

  it.each(['/batch/', '/capture/', '/e/', '/i/v0/e/'])('%s: malformed bodies', async (path) => {
    const bad = await capture(app, path, '{bad');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_payload');
    expect(bad.body.detail).toMatch(/^Malformed request data: Invalid JSON: /);
    const gzipHeader = await capture(app, path, JSON.stringify({ api_key: T, batch: [event()] }), {
      headers: { 'content-encoding': 'gzip' },
    });
    expect(gzipHeader.status).toBe(400);
    expect(gzipHeader.body.detail).toMatch(/^Malformed request data: Failed to decompress data\. /);
    const lz64 = await capture(app, `${path}?compression=lz64`, 'abc');
    expect(lz64).toMatchObject({ status: 400, body: invalid("Malformed request data: unsupported compression 'lz64'") });
    expect((await capture(app, path, { api_key: T, batch: 'nope' })).status).toBe(400);
    for (const empty of ['', '[]', '{}', JSON.stringify({ api_key: T, batch: [] })]) {
      const res = await capture(app, path, empty);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('no_data');
    }
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    expect((await capture(app, `${path}?token=${T}`, deep)).status).toBe(400);
  });

  it.each([
    ['no event', { distinct_id: 'd' }, 'Invalid payload: All events must have the event name field "event"!'],
    ['an empty event', { event: '', distinct_id: 'd' }, 'Invalid payload: All events must have the event name field "event"!'],
    ['a numeric event', { event: 7, distinct_id: 'd' }, 'Invalid payload: Event field "event" must be a string!'],
    [
      'a 401-character event',
      { event: 'e'.repeat(401), distinct_id: 'd' },
      'Invalid payload: Event field "event" must be at most 400 characters!',
    ],
    ['no distinct_id', { event: 'x' }, 'Invalid payload: All events must have the event field "distinct_id"!'],
    ['an empty distinct_id', { event: 'x', distinct_id: '' }, 'Invalid payload: Event field "distinct_id" should not be blank!'],
    ['an object distinct_id', { event: 'x', distinct_id: { a: 1 } }, 'Invalid payload: Event field "distinct_id" should not be blank!'],
    ['uuid "nope"', { event: 'x', distinct_id: 'd', uuid: 'nope' }, 'Invalid payload: Event field "uuid" is not a valid UUID!'],
    [
      'properties []',
      { event: 'x', distinct_id: 'd', properties: [] },
      'Invalid payload: Properties must be a JSON object, received array!',
    ],
    [
      'properties "p"',
      { event: 'x', distinct_id: 'd', properties: 'p' },
      'Invalid payload: Properties must be a JSON object, received string!',
    ],
    ['a string', 'text', 'Invalid payload: All events must be JSON objects, received string!'],
  ])('refuses the whole batch when its 2nd event has %s', async (_label, second, detail) => {
    const d = uniqueId();
    for (const path of ['/batch/', '/e/']) {
      const res = await capture(app, path, { api_key: T, batch: [event('ok', d), second, event('ok', d)] });
      expect(res).toMatchObject({ status: 400, body: invalid(detail) });
    }
    expect(await countOf(`?distinct_id=${d}`)).toBe(0);
    expect(await read.personOf(d)).toBeNull();
  });

  it('refuses a gzip bomb, an oversized body and an oversized event with 413', async () => {
    const tooBig = {
      type: 'invalid_request',
      code: 'payload_too_large',
      detail: 'Request body exceeds 20 MB after decompression.',
      attr: null,
    };
    const padding = 'a'.repeat(21 * 1024 * 1024);
    const bomb = gzipSync(JSON.stringify({ api_key: T, batch: [event('bomb', 'd', { properties: { padding } })] }));
    expect(bomb.length).toBeLessThan(100 * 1024);
    expect(await capture(app, '/batch/', bomb, { headers: { 'content-encoding': 'gzip' } })).toMatchObject({ status: 413, body: tooBig });
    expect(await capture(app, '/e/?compression=gzip-js', bomb)).toMatchObject({ status: 413, body: tooBig });
    const d = uniqueId();
    const big = { api_key: T, batch: [event('small', d), event('big', d, { properties: { padding: 'a'.repeat(1.1 * 1024 * 1024) } })] };
    expect(await capture(app, '/batch/', big)).toMatchObject({
      status: 413,
      body: { type: 'invalid_request', code: 'payload_too_large', detail: 'Event exceeds 1 MB.', attr: null },
    });
    expect(await countOf(`?distinct_id=${d}`)).toBe(0);
  });

  it('refuses a raw body over 20 MB from its Content-Length, before reading it', async () => {
    const { request } = await import('node:http');
    const url = new URL(`${app.baseUrl}/batch/`);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-length': String(21 * 1024 * 1024) } },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
          req.destroy();
        },
      );
      req.on('error', reject);
      req.write('{"api_key":');
      // The rest is never sent: the answer must not wait for it.
    });
    expect(status).toBe(413);
  });

  it('refuses more than 10 000 events', async () => {
    const batch = Array.from({ length: 10_001 }, () => ({ event: 'x', distinct_id: 'd' }));
    expect(await capture(app, '/batch/', { api_key: T, batch })).toMatchObject({
      status: 413,
      body: { code: 'payload_too_large', detail: 'Request contains more than 10000 events.' },
    });
  });
});

describe('events as stored', () => {
  it('keeps uuids (lower-case) and makes UUIDv7 ones, and is idempotent by uuid', async () => {
    const d = uniqueId();
    const uuid = '0190A5B2-3C4D-7E8F-9A0B-1C2D3E4F5A6B';
    const batch = {
      api_key: T,
      batch: [event('a', d, { uuid }), event('a', d, { uuid: uuid.replace(/-/g, '') }), event('b', d, { properties: { $set: { n: 1 } } })],
    };
    expect((await capture(app, '/batch/', batch)).status).toBe(200);
    const retried = { api_key: T, batch: [event('a', d, { uuid, properties: { $set: { n: 2 } } })] };
    expect((await capture(app, '/batch/', retried)).status).toBe(200);
    const page = await read.events(`?distinct_id=${d}`);
    expect(page.count).toBe(2);
    expect(page.results.map((e: any) => e.id)).toContain(uuid.toLowerCase());
    expect(page.results.find((e: any) => e.event === 'b').id).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect((await read.personOf(d)).properties).toEqual({ n: 1 });
  });

  it('stores NUL and lone surrogates as U+FFFD instead of failing', async () => {
    const d = uniqueId();
    const body = `{"api_key":"${T}","batch":[{"event":"nul\\u0000","distinct_id":"${d}","properties":{"k\\u0000":"\\ud800x","$set":{"a":"\\u0000"}}}]}`;
    expect((await capture(app, '/batch/', body)).status).toBe(200);
    const [stored] = (await read.events(`?distinct_id=${d}`)).results;
    expect(stored.event).toBe('nul\ufffd');
    expect(stored.properties['k\ufffd']).toBe('\ufffdx');
  });

  it('corrects clock skew with sent_at, honours $ignore_sent_at, and clamps the future', async () => {
    const d = uniqueId();
    // Arrival is the app's clock, which stands still while the test runs: every correction is exact.
    const now = app.clock.now();
    const ts = '2020-01-01T00:00:00Z';
    await capture(app, '/batch/', { api_key: T, sent_at: '2020-01-01T00:00:10Z', batch: [event('skew', d, { timestamp: ts })] });
    await capture(app, '/batch/', { api_key: T, sentAt: '2020-01-01T00:00:10Z', batch: [event('skew-py', d, { timestamp: ts })] });
    await capture(app, '/batch/', {
      api_key: T,
      sent_at: '2020-01-01T00:00:10Z',
      batch: [event('ignore', d, { timestamp: ts, properties: { $ignore_sent_at: true } })],
    });
    await capture(app, '/batch/', {
      api_key: T,
      batch: [event('future', d, { timestamp: new Date(now + 2 * 86_400_000).toISOString() })],
    });
    await capture(app, '/batch/', { api_key: T, batch: [event('offset', d, { offset: 5000 })] });
    await capture(app, '/batch/', { api_key: T, batch: [event('naive', d, { timestamp: '2021-06-01 12:30:00' })] });
    const byName = Object.fromEntries((await read.events(`?distinct_id=${d}`)).results.map((e: any) => [e.event, Date.parse(e.timestamp)]));
    for (const name of ['skew', 'skew-py']) expect(byName[name]).toBe(now - 10_000);
    expect(new Date(byName.ignore).toISOString()).toBe('2020-01-01T00:00:00.000Z');
    expect(byName.future).toBe(now);
    expect(byName.offset).toBe(now - 5000);
    expect(new Date(byName.naive).toISOString()).toBe('2021-06-01T12:30:00.000Z');
    const [one] = (await read.events(`?distinct_id=${d}&event=ignore`)).results;
    expect(one.timestamp).toBe('2020-01-01T00:00:00.000Z');
  });
});
