import { readFileSync } from 'node:fs';
import path from 'node:path';
import { routes } from '../../src/rest/routes';
import { startTestApp, type TestApp } from '../helpers/test-app';

/** The API document's endpoint tables (`| Operation | METHOD | /api/... |`). */
function documentedEndpoints(): Array<{ method: string; path: string }> {
  const spec = readFileSync(path.resolve(__dirname, '../../../shared/spec/api.md'), 'utf8');
  const rows = [...spec.matchAll(/^\| [^|]+ \| (GET|POST|PATCH|PUT|DELETE) \| (\/api\/[^ |]+) \|/gm)];
  return rows.map(([, method, endpoint]) => ({ method, path: endpoint }));
}

const FLAG_PATHS = new Set(['/api/projects/:project_id/feature_flags', '/api/projects/:project_id/feature_flags/:id']);

describe('the route table', () => {
  it('serves each documented flag endpoint exactly once', () => {
    const flagEndpoints = documentedEndpoints().filter((e) => FLAG_PATHS.has(e.path));
    expect(flagEndpoints).toHaveLength(5);
    for (const endpoint of flagEndpoints) {
      expect(routes.filter((r) => r.method === endpoint.method && r.path === endpoint.path)).toHaveLength(1);
    }
  });

  it('has no two rows for the same method and path', () => {
    const seen = routes.map((r) => `${r.method} ${r.path}`);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('states an auth requirement on every row', () => {
    for (const route of routes) expect(route.auth.describe).toBeTruthy();
  });

  describe('over HTTP', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp();
    });
    afterAll(() => app.close());

    it('answers every row with and without the trailing slash', async () => {
      const world = await app.factories.world();
      const created = await app.request(`/api/projects/${world.project.id}/feature_flags`, {
        method: 'POST',
        key: world.owner.key,
        body: { key: 'route-check' },
      });
      for (const route of routes) {
        const concrete = route.path.replace(':project_id', String(world.project.id)).replace(':id', String(created.body.id));
        for (const url of [concrete, `${concrete}/`]) {
          const res = await app.request(url, { method: route.method, key: world.owner.key, body: route.method === 'GET' || route.method === 'DELETE' ? undefined : {} });
          // Served by the row itself: never the router's 404 for an unknown path.
          expect({ url, method: route.method, notFound: res.status === 404 }).toEqual({ url, method: route.method, notFound: false });
        }
      }
    });

    it('answers an unknown path with 404 Not found.', async () => {
      const res = await app.request('/api/nothing-here');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ type: 'invalid_request', code: 'not_found', detail: 'Not found.', attr: null });
    });
  });
});
