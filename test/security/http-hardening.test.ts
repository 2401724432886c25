import { request } from 'node:http';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { redactUrl, safeLogger } from '../../src/http/logging';
import type { World } from '../helpers/factories';
import { startTestApp, type TestApp } from '../helpers/test-app';

/** Request ids, the access log, what logs never show, security headers and CORS. */

const lines: string[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    done();
  },
});
const logged = () => lines.map((line) => JSON.parse(line) as Record<string, any>);
const accessLines = () => logged().filter((line) => line.msg === 'request');

let app: TestApp;
let world: World;
let flags: string;

beforeAll(async () => {
  app = await startTestApp({ logger: pino({ level: 'info' }, sink) });
  world = await app.factories.world();
  flags = `/api/projects/${world.project.id}/feature_flags`;
});
afterAll(() => app.close());
beforeEach(() => {
  lines.length = 0;
});

describe('X-Request-Id', () => {
  it('gives every response one, a fresh UUID unless the client sent a valid one', async () => {
    const fresh = await app.request(flags, { key: world.owner.key });
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const kept = await app.request(flags, { key: world.owner.key, headers: { 'x-request-id': 'client-42.retry_1' } });
    expect(kept.headers.get('x-request-id')).toBe('client-42.retry_1');
    expect((await app.request(flags, { headers: { 'x-request-id': 'x'.repeat(200) } })).headers.get('x-request-id')).toBe('x'.repeat(200));
    for (const bad of ['has space', 'x'.repeat(201), 'semi;colon', 'quote"d', '<script>', '']) {
      const res = await app.request(flags, { headers: { 'x-request-id': bad } });
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-f-]{27}$/);
    }
    expect((await app.request('/no/such/path')).headers.get('x-request-id')).toBeTruthy();
    expect((await app.request('/_health')).headers.get('x-request-id')).toBeTruthy();
    const capture = await app.request('/batch/', { method: 'POST', body: { api_key: 'phc_unknown', batch: [] } });
    expect(capture.headers.get('x-request-id')).toBeTruthy();
  });
});

describe('the access log', () => {
  it("logs remote evaluation under its new request id, with the client's id beside it", async () => {
    const res = await app.request('/flags/?v=2', {
      method: 'POST',
      body: { token: world.project.apiToken, distinct_id: 'u-1' },
      headers: { 'x-request-id': 'client-trace-7' },
    });
    expect(res.status).toBe(200);
    expect(res.body.requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(res.headers.get('x-request-id')).toBe(res.body.requestId);
    expect(accessLines()).toEqual([
      expect.objectContaining({ request_id: res.body.requestId, client_request_id: 'client-trace-7', path: '/flags/', status: 200 }),
    ]);
    await app.request(flags, { key: world.owner.key, headers: { 'x-request-id': 'plain-trace' } });
    expect(accessLines()[1]).toMatchObject({ request_id: 'plain-trace' });
    expect(accessLines()[1].client_request_id).toBeUndefined();
  });

  it('writes one JSON line per request: method, path without the query, status, duration, request id', async () => {
    const res = await app.request(`${flags}?limit=1&search=x`, { key: world.owner.key, headers: { 'x-request-id': 'trace-me' } });
    await app.request(`${flags}/999999`, { key: world.owner.key });
    const [first, second] = accessLines();
    expect(accessLines()).toHaveLength(2);
    expect(first).toMatchObject({ level: 30, request_id: 'trace-me', method: 'GET', path: flags, status: res.status });
    expect(typeof first.duration_ms).toBe('number');
    expect(second).toMatchObject({ method: 'GET', path: `${flags}/999999`, status: 404 });
  });

  it('never shows a key: not from the Authorization header, the query string or the body', async () => {
    const key = world.owner.key;
    const bogus = 'phx_' + 'S'.repeat(43);
    await app.request(flags, { key });
    await app.request(`${flags}?personal_api_key=${key}`);
    await app.request(`${flags}?personal_api_key=${bogus}`);
    await app.request(flags, { method: 'POST', body: { personal_api_key: key, key: `logged-${Date.now()}` } });
    await app.request(flags, {
      method: 'POST',
      body: `personal_api_key=${bogus}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    await app.graphql(`{ me { user { email } } }`, {}, key);
    expect(accessLines()).toHaveLength(6);
    const text = lines.join('\n');
    expect(text).not.toContain(key);
    expect(text).not.toContain(bogus);
    expect(text).not.toContain(key.slice(4));
  });

  it('redacts credentials from URLs it logs', () => {
    expect(redactUrl('/api/x?personal_api_key=phx_abc&limit=1')).toBe('/api/x?personal_api_key=%5BRedacted%5D&limit=1');
    expect(redactUrl('/flags/definitions?token=phc_1')).toBe('/flags/definitions?token=%5BRedacted%5D');
    expect(redactUrl('/api/x')).toBe('/api/x');
  });
});

describe('database errors in logs', () => {
  it('drop the inlined values of the failing statement and the detail line', async () => {
    const out: string[] = [];
    const logger = safeLogger(pino({ level: 'error' }, new Writable({ write: (chunk, _e, done) => (out.push(String(chunk)), done()) })));
    const secret = 'sha256$0123456789abcdef-secret-literal';
    const statement = `select * from personal_api_key where secure_value = '${secret}' and id = 1 / 0`;
    const raw = await app.orm.em
      .getConnection()
      .execute(statement)
      .catch((error: unknown) => error);
    const duplicate = await app.orm.em
      .getConnection()
      .execute(`insert into project select * from project where id = ${world.project.id}`)
      .catch((error: unknown) => error);
    logger.error({ err: raw }, 'unhandled error');
    logger.error({ err: duplicate }, 'unhandled error');
    logger.error({ err: { message: 'wrapper', originalError: raw } }, 'graphql error');
    expect(out).toHaveLength(3);
    const text = out.join('\n');
    expect(text).not.toContain(secret);
    expect(text).not.toContain(world.project.apiToken);
    expect(text).not.toContain('already exists');
    const [first] = out.map((line) => JSON.parse(line));
    expect(first.err.message).toMatch(/^select \* from personal_api_key where secure_value = '\?' and id = 1 \/ 0 - division by zero$/);
    expect(first.err.stack).toContain('division by zero');
    expect(first.err.code).toBe('22012');
  });

  it('leave other errors as pino shows them', () => {
    const out: string[] = [];
    const logger = safeLogger(pino({ level: 'error' }, new Writable({ write: (chunk, _e, done) => (out.push(String(chunk)), done()) })));
    logger.error({ err: new Error("plain 'quoted' message") }, 'x');
    expect(JSON.parse(out[0]).err.message).toBe("plain 'quoted' message");
  });
});

describe('security headers', () => {
  it('are on JSON answers, errors included', async () => {
    for (const res of [await app.request(flags, { key: world.owner.key }), await app.request(flags), await app.request('/nowhere')]) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000');
      expect(res.headers.get('x-powered-by')).toBeNull();
    }
  });

  it('give the GraphiQL page a policy of its own that allows only this origin, other headers kept', async () => {
    const res = await app.request('/graphql', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toContain('<script src="/graphql/assets/');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('content-security-policy')).not.toMatch(/https?:|unsafe/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('let browsers read the capture endpoints cross-origin, as before', async () => {
    const origin = 'https://shop.example.com';
    const preflight = await app.request('/e/', {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
    const res = await app.request('/e/', {
      method: 'POST',
      headers: { origin },
      body: { api_key: world.project.apiToken, event: 'e', distinct_id: 'd' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
  });
});

describe('CORS on the admin API', () => {
  it('is off by default', async () => {
    const origin = 'https://admin.example.com';
    const preflight = await app.request(flags, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'GET' } });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const res = await app.request(flags, { key: world.owner.key, headers: { origin } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const graphql = await app.request('/graphql', { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
    expect(graphql.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers the origins CORS_ORIGINS lists, and only them', async () => {
    const allowedApp = await startTestApp({ corsOrigins: ['https://admin.example.com'] });
    try {
      const other = await allowedApp.factories.world();
      const path = `/api/projects/${other.project.id}/feature_flags`;
      const origin = 'https://admin.example.com';
      const preflight = await allowedApp.request(path, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'authorization,content-type' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
      expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
      expect(preflight.headers.get('access-control-allow-methods')).toContain('PATCH');
      expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
      // An answer meant to be read cross-origin says so; one refused CORS keeps helmet's same-origin.
      expect(preflight.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
      const res = await allowedApp.request(path, { key: other.owner.key, headers: { origin } });
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
      expect(res.headers.get('access-control-expose-headers')).toContain('RateLimit-Remaining');
      expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
      const refused = await allowedApp.request(path, { key: other.owner.key, headers: { origin: 'https://evil.example.com' } });
      expect(refused.headers.get('access-control-allow-origin')).toBeNull();
      expect(refused.headers.get('cross-origin-resource-policy')).toBe('same-origin');
      const error = await allowedApp.request(path, { headers: { origin } });
      expect(error.status).toBe(401);
      expect(error.headers.get('access-control-allow-origin')).toBe(origin);
      expect(error.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    } finally {
      await allowedApp.close();
    }
  });
});

/** docs/operations.md, "Requests Node refuses": the status Node's parser means, never a reset. */
describe('requests refused before the app sees them', () => {
  const send = (path: string, body?: Buffer) =>
    new Promise<number | string>((resolve) => {
      const { hostname, port } = new URL(app.baseUrl);
      const req = request({ host: hostname, port, method: 'GET', path, headers: body ? { 'content-length': body.length } : {} });
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      req.end(body);
    });

  it('answers a request line over the header limit 431, even while the client is still sending it', async () => {
    // 60 KB of path: the parser gives up at 16 KiB, long before the client has written it all.
    const path = `${flags}/${'%ED%A0%B5%ED%BF%98'.repeat(5000)}`;
    for (let i = 0; i < 5; i++) expect(await send(path, Buffer.alloc(13_000, 'a'))).toBe(431);
    expect((await app.request(flags, { key: world.owner.key })).status).toBe(200);
  });

  it('answers malformed HTTP 400', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const { hostname, port } = new URL(app.baseUrl);
      const socket = connect(Number(port), hostname, () => socket.end('GET /x HTTP/1.1\r\nHost: a\r\nBad Header\r\n\r\n'));
      let text = '';
      socket.on('data', (chunk) => (text += String(chunk)));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
  });
});
