import { readFileSync } from 'node:fs';
import path from 'node:path';
import { routes } from '../../src/rest/routes';
import { operationProblems } from '../../src/rest/adapter';
import { buildAppSchema } from '../../src/graphql/schema';
import { startTestApp, type TestApp } from '../helpers/test-app';

/** The endpoint table of the project's own reference, docs/rest-api.md ("Endpoints"): `| Operation | METHOD | /api/... |`. */
function documentedEndpoints(): Array<{ method: string; path: string }> {
  const reference = readFileSync(path.resolve(__dirname, '../../docs/rest-api.md'), 'utf8');
  const rows = [...reference.matchAll(/^\| [^|]+ \| (GET|POST|PATCH|PUT|DELETE) \| (\/api\/[^ |]+) \|/gm)];
  return rows.map(([, method, endpoint]) => ({ method, path: endpoint }));
}

describe('the route table', () => {
  it('serves each documented endpoint exactly once', () => {
    const documented = documentedEndpoints();
    // The table itself is intact: PostHog's flag and experiment endpoints, plus PUT on a flag and a flag's status (docs/stale-flags.md).
    expect(documented).toHaveLength(27);
    const unrouted = documented.filter((e) => routes.filter((r) => r.method === e.method && r.path === e.path).length !== 1);
    expect(unrouted).toEqual([]);
  });

  it('runs operations that validate against the schema and compile (rows compile them on first use)', async () => {
    expect(operationProblems(await buildAppSchema(), routes)).toEqual([]);
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
      for (const route of routes) {
        const concrete = route.path.replace(/:[a-z_]+/g, (param) =>
          param.endsWith('_id') && !param.includes('project') ? '00000000-0000-4000-8000-000000000000' : '1',
        );
        for (const url of [concrete, `${concrete}/`]) {
          // Without a key a row answers 401 (authentication comes first); an unknown path 404.
          const res = await app.request(url, { method: route.method });
          expect({ url, method: route.method, status: res.status }).toEqual({ url, method: route.method, status: 401 });
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
