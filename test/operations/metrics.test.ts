import { Writable } from 'node:stream';
import pino from 'pino';
import type { World } from '../helpers/factories';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * GET /metrics (docs/operations.md): Prometheus text with requests by route pattern and status,
 * latency histograms, pool usage, definitions cache hits and misses, ingestion counts and the
 * process's own metrics; served to this host, or to whoever holds METRICS_TOKEN. And the access
 * log line each request writes.
 */
const lines: string[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    done();
  },
});
const accessLines = () => lines.map((line) => JSON.parse(line) as Record<string, any>).filter((line) => line.msg === 'request');

let app: TestApp;
let world: World;
let flags: string;

beforeAll(async () => {
  app = await startTestApp({ logger: pino({ level: 'info' }, sink) });
  world = await app.factories.world();
  flags = `/api/projects/${world.project.id}/feature_flags`;
});
afterAll(() => app.close());

async function scrape(): Promise<string> {
  const res = await app.request('/metrics');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  return res.text;
}

/** The value of the sample written exactly as `series` (name and labels), or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  it('counts requests by method, route pattern and status, never by raw path', async () => {
    const created = await app.request(flags, { method: 'POST', key: world.owner.key, body: { key: 'metrics-flag' } });
    expect(created.status).toBe(201);
    const before = await scrape();
    const one = `${flags}/${created.body.id}`;
    for (let i = 0; i < 3; i++) expect((await app.request(one, { key: world.owner.key })).status).toBe(200);
    expect((await app.request(`${flags}/999999999`, { key: world.owner.key })).status).toBe(404);
    expect((await app.request('/no/such/place/12345')).status).toBe(404);
    const after = await scrape();

    const route = 'route="/api/projects/:project_id/feature_flags/:id"';
    const ok = `flagship_http_requests_total{method="GET",${route},status="200"}`;
    expect((sample(after, ok) ?? 0) - (sample(before, ok) ?? 0)).toBe(3);
    const missing = `flagship_http_requests_total{method="GET",${route},status="404"}`;
    expect((sample(after, missing) ?? 0) - (sample(before, missing) ?? 0)).toBe(1);
    expect(sample(after, 'flagship_http_requests_total{method="GET",route="(unmatched)",status="404"}')).toBeGreaterThanOrEqual(1);
    // Handlers outside the route table have fixed labels too; a token in a path never becomes one.
    await app.request(`/array/${world.project.apiToken}/config`);
    await app.request(`/flags/?v=2`, { method: 'POST', body: { token: world.project.apiToken, distinct_id: 'metrics-1' } });
    const more = await scrape();
    expect(more).toMatch(/^flagship_http_requests_total\{method="GET",route="\/array\/:token\/config",status="\d+"\} 1$/m);
    expect(more).toMatch(/^flagship_http_requests_total\{method="POST",route="\/flags",status="200"\} 1$/m);
    expect(more).not.toContain(world.project.apiToken);
    expect(
      sample(after, 'flagship_http_requests_total{method="POST",route="/api/projects/:project_id/feature_flags",status="201"}'),
    ).toBeGreaterThanOrEqual(1);
    // The scrape before was counted under its own fixed route once it was answered.
    expect(sample(after, 'flagship_http_requests_total{method="GET",route="/metrics",status="200"}')).toBeGreaterThanOrEqual(1);

    const count = `flagship_http_request_duration_seconds_count{method="GET",${route}}`;
    expect((sample(after, count) ?? 0) - (sample(before, count) ?? 0)).toBe(4);
    expect(sample(after, `flagship_http_request_duration_seconds_bucket{le="+Inf",method="GET",${route}}`)).toBe(sample(after, count));
    // No raw path, id or project number in any label.
    expect(after).not.toContain('/no/such/place');
    expect(after).not.toMatch(/route="[^"]*\/\d+/);
  });

  it('shows the database pool: its size, connections in use and idle, waiters', async () => {
    await app.request(flags, { key: world.owner.key });
    const text = await scrape();
    expect(sample(text, 'flagship_db_pool_max')).toBe(4);
    const used = sample(text, 'flagship_db_pool_connections{state="used"}')!;
    const idle = sample(text, 'flagship_db_pool_connections{state="idle"}')!;
    expect(used).toBeGreaterThanOrEqual(0);
    expect(idle).toBeGreaterThanOrEqual(0);
    expect(used + idle).toBeGreaterThanOrEqual(1);
    expect(used + idle).toBeLessThanOrEqual(4);
    expect(sample(text, 'flagship_db_pool_pending{kind="acquire"}')).toBe(0);
    expect(sample(text, 'flagship_db_pool_pending{kind="create"}')).toBeGreaterThanOrEqual(0);
  });

  it('counts definitions cache misses and hits', async () => {
    // A project of its own: nothing has asked for its definitions yet.
    const fresh = await app.factories.world();
    const definitions = `/flags/definitions?token=${fresh.project.apiToken}`;
    const bearer = { headers: { authorization: `Bearer ${fresh.project.secretApiToken}` } };
    const before = await scrape();
    expect((await app.request(definitions, bearer)).status).toBe(200);
    expect((await app.request(definitions, bearer)).status).toBe(200);
    expect((await app.request(definitions, bearer)).status).toBe(200);
    const after = await scrape();
    const delta = (result: string) =>
      (sample(after, `flagship_definitions_cache_requests_total{result="${result}"}`) ?? 0) -
      (sample(before, `flagship_definitions_cache_requests_total{result="${result}"}`) ?? 0);
    expect(delta('miss')).toBe(1);
    expect(delta('hit')).toBe(2);
    expect(delta('bypass')).toBe(0);
  });

  it('counts acknowledged capture requests and their events', async () => {
    const before = await scrape();
    const batch = [
      { event: 'a', distinct_id: 'metrics-1', uuid: crypto.randomUUID() },
      { event: 'b', distinct_id: 'metrics-1', uuid: crypto.randomUUID() },
    ];
    expect((await app.request('/batch/', { method: 'POST', body: { api_key: world.project.apiToken, batch } })).status).toBe(200);
    expect(
      (await app.request('/e/', { method: 'POST', body: { api_key: world.project.apiToken, event: 'c', distinct_id: 'metrics-2' } }))
        .status,
    ).toBe(200);
    expect((await app.request('/batch/', { method: 'POST', body: { api_key: 'phc_unknown', batch } })).status).toBe(401);
    const after = await scrape();
    const delta = (series: string) => (sample(after, series) ?? 0) - (sample(before, series) ?? 0);
    expect(delta('flagship_ingestion_events_total')).toBe(3);
    expect(delta('flagship_ingestion_requests_total')).toBe(2);
    expect(delta('flagship_http_requests_total{method="POST",route="/batch",status="401"}')).toBe(1);
    expect(delta('flagship_http_requests_total{method="POST",route="/e",status="200"}')).toBe(1);
  });

  it('includes the process metrics under their usual names', async () => {
    const text = await scrape();
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_seconds',
    ]) {
      expect(text).toMatch(new RegExp(`^${name} `, 'm'));
    }
    expect(text).toContain('# TYPE flagship_http_request_duration_seconds histogram');
  });

  it('is refused to a forwarded request when no METRICS_TOKEN is set (a proxy on this host is not this host)', async () => {
    const res = await app.request('/metrics', { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      type: 'authentication_error',
      code: 'permission_denied',
      detail: 'Metrics are served to this host only. Set METRICS_TOKEN to scrape them from elsewhere.',
      attr: null,
    });
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let guarded: TestApp;
  beforeAll(async () => {
    guarded = await startTestApp({ metricsToken: 'scrape-me-7f3c' });
  });
  afterAll(() => guarded.close());

  it('answers only the bearer of the token, from anywhere', async () => {
    const none = await guarded.request('/metrics');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect(none.body.code).toBe('not_authenticated');
    expect((await guarded.request('/metrics', { headers: { authorization: 'Bearer scrape-me-7f3' } })).status).toBe(401);
    expect((await guarded.request('/metrics', { headers: { authorization: 'Bearer scrape-me-7f3c-' } })).status).toBe(401);
    const ok = await guarded.request('/metrics', { headers: { authorization: 'Bearer scrape-me-7f3c', 'x-forwarded-for': '203.0.113.9' } });
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('flagship_http_requests_total');
  });
});

describe('the access log', () => {
  it('writes method, route pattern, path, status, duration and request id for each request, never a key', async () => {
    lines.length = 0;
    const key = world.owner.key;
    await app.request(`${flags}?limit=1&personal_api_key=${key}`, { key, headers: { 'x-request-id': 'ops-trace-1' } });
    await app.request(`/api/projects/${world.project.id}/feature_flags/${key}`, { key, headers: { 'x-request-id': 'ops-trace-2' } });
    await app.graphql('{ me { user { email } } }', {}, key);
    const [list, mistaken, graphql] = accessLines();
    expect(list).toMatchObject({
      request_id: 'ops-trace-1',
      method: 'GET',
      route: '/api/projects/:project_id/feature_flags',
      path: flags,
      status: 200,
    });
    expect(typeof list.duration_ms).toBe('number');
    // A key pasted into the path is censored in the path; the route is the pattern anyway.
    expect(mistaken).toMatchObject({
      request_id: 'ops-trace-2',
      route: '/api/projects/:project_id/feature_flags/:id',
      path: `${flags}/[Redacted]`,
    });
    expect(graphql).toMatchObject({ method: 'POST', route: '/graphql', status: 200 });
    expect(lines.join('\n')).not.toContain(key);
    expect(lines.join('\n')).not.toContain(key.slice(4));
  });
});
