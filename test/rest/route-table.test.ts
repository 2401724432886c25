import { Writable } from 'node:stream';
import pino from 'pino';
import { createApp } from '../../src/app';
import { endpoints, routes } from '../../src/rest/routes';
import type { World } from '../helpers/factories';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * One route table (docs/operations.md, "The route table"): every path the service answers is a row,
 * REST or endpoint, and the row that took a request labels it in the access log and the metrics,
 * even when the row refuses it. Nothing else in the app matches paths.
 */
const lines: string[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    done();
  },
});
const lastAccessLine = () =>
  lines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.msg === 'request')
    .at(-1)!;

let app: TestApp;
let world: World;

beforeAll(async () => {
  app = await startTestApp({ logger: pino({ level: 'info' }, sink) });
  world = await app.factories.world();
});
afterAll(() => app.close());

/** A concrete path for a row's pattern: parameters filled, optional parts dropped. */
function concrete(pattern: string, world: World): string {
  return pattern
    .replace(/\{[^}]*\}/g, '')
    .replace(/:project_id/g, String(world.project.id))
    .replace(/:organization_id/g, world.organization.id)
    .replace(/:token/g, world.project.apiToken)
    .replace(/:file/g, 'missing.js')
    .replace(/:[a-z_]+/g, '1');
}

const HTML = { Accept: 'text/html' };

describe('the route table', () => {
  it('has every row take its own path: the access log names the row, never (unmatched)', async () => {
    // A world of its own: walking every row with its key rolls and revokes keys.
    const walker = await app.factories.world();
    const rows = [
      ...routes.map((route) => ({ method: route.method, pattern: route.path, label: route.path })),
      ...endpoints.map((endpoint) => ({ method: endpoint.methods[0], pattern: endpoint.path, label: endpoint.label ?? endpoint.path })),
    ];
    expect(rows.length).toBeGreaterThan(80);
    for (const row of rows) {
      const res = await app.request(concrete(row.pattern, walker), { method: row.method, key: walker.owner.key, headers: HTML });
      expect([row.pattern, res.status < 500]).toEqual([row.pattern, true]);
      expect([row.pattern, lastAccessLine().route]).toEqual([row.pattern, row.label]);
    }
  });

  it('labels a path no row serves (unmatched), and a refused body by the row that refused it', async () => {
    expect((await app.request('/no/such/row', { key: world.owner.key })).status).toBe(404);
    expect(lastAccessLine().route).toBe('(unmatched)');
    const flags = `/api/projects/${world.project.id}/feature_flags`;
    const res = await app.request(flags, {
      method: 'POST',
      key: world.owner.key,
      body: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(lastAccessLine()).toMatchObject({ route: '/api/projects/:project_id/feature_flags', status: 400 });
  });

  it('serves paths in any case and with or without the trailing slash, as the REST rows always were', async () => {
    expect((await app.request('/_LIVEZ/')).status).toBe(200);
    expect(lastAccessLine().route).toBe('/_livez');
    const res = await app.request(`/API/Projects/${world.project.id}/Feature_Flags/`, { key: world.owner.key });
    expect(res.status).toBe(200);
  });

  it('answers a method an endpoint does not serve with 405 and Allow', async () => {
    const res = await app.request('/_livez', { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    const capture = await app.request('/batch/', { method: 'GET' });
    expect(capture.status).toBe(405);
    expect(capture.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it('is the only thing that matches paths: the app is the access log, headers, errors, the dispatcher and the 404', async () => {
    const built = await createApp({ orm: app.orm, clock: app.clock, logger: pino({ level: 'silent' }) });
    try {
      expect(built.app.middleware).toHaveLength(5);
    } finally {
      await built.stop();
    }
  });
});
