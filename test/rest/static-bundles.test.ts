import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * docs/remote-evaluation.md §"The browser snippet": posthog-js's bundles at `/static/…`, from the
 * pinned package, for any origin, compressed when accepted, validated by ETag.
 */
const PINNED = (JSON.parse(readFileSync(require.resolve('posthog-js/package.json'), 'utf8')) as { version: string }).version;
const onDisk = (name: string) => readFileSync(require.resolve(`posthog-js/dist/${name}`));

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

describe('posthog-js bundles at /static/', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  /** A raw answer: Node's fetch would undo the content encoding this test checks. */
  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    new Promise<Raw>((resolve, reject) => {
      const req = httpRequest(`${app.baseUrl}${path}`, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on('error', reject).end();
    });

  it('serves array.js as the package ships it, to any origin, cached for an hour', async () => {
    const res = await get('/static/array.js', { origin: 'https://shop.example' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['access-control-allow-origin']).toBe('https://shop.example');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.equals(onDisk('array.js'))).toBe(true);
  });

  it('compresses with brotli or gzip as the client accepts, each with its own ETag, and answers 304 to a current copy', async () => {
    const br = await get('/static/array.full.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/Accept-Encoding/i);
    expect(brotliDecompressSync(br.body).equals(onDisk('array.full.js'))).toBe(true);
    expect(br.body.length).toBeLessThan(onDisk('array.full.js').length / 2);

    const gz = await get('/static/array.full.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(onDisk('array.full.js'))).toBe(true);
    expect(gz.headers.etag).not.toBe(br.headers.etag);

    const again = await get('/static/array.full.js', { 'accept-encoding': 'gzip', 'if-none-match': String(gz.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    const head = await get('/static/array.full.js', {}, 'HEAD');
    expect([head.status, head.body.length, head.headers.etag]).toEqual([200, 0, expect.stringMatching(/^"/)]);
  });

  it('keeps a versioned path or ?v= for a year; another version gets the pinned file, briefly cached', async () => {
    for (const path of [`/static/${PINNED}/surveys.js`, `/static/surveys.js?v=${PINNED}`]) {
      const res = await get(path);
      expect([path, res.status, res.headers['cache-control']]).toEqual([path, 200, 'public, max-age=31536000, immutable']);
      expect(res.body.equals(onDisk('surveys.js'))).toBe(true);
    }
    const older = await get('/static/1.0.0/surveys.js');
    expect([older.status, older.headers['cache-control']]).toEqual([200, 'public, max-age=3600']);
    expect(older.body.equals(onDisk('surveys.js'))).toBe(true);
  });

  it('answers a file the package does not ship with a 404 that still carries CORS headers', async () => {
    for (const path of ['/static/nothing.js', '/static/array.js.map', '/static/..%2Fpackage.json', `/static/${'a'.repeat(200)}.js`]) {
      const res = await get(path, { origin: 'https://shop.example' });
      expect([path, res.status, res.headers['access-control-allow-origin']]).toEqual([path, 404, 'https://shop.example']);
    }
  });
});
