import { readFileSync } from 'node:fs';
import path from 'node:path';
import { routes } from '../../src/rest/routes';
import { operationProblems } from '../../src/rest/adapter';
import { buildAppSchema } from '../../src/graphql/schema';
import { startTestApp, type TestApp } from '../helpers/test-app';

/** The API document's endpoint tables (`| Operation | METHOD | /api/... |`). */
function documentedEndpoints(): Array<{ method: string; path: string }> {
  const spec = readFileSync(path.resolve(__dirname, '../../../shared/spec/api.md'), 'utf8');
  const rows = [...spec.matchAll(/^\| [^|]+ \| (GET|POST|PATCH|PUT|DELETE) \| (\/api\/[^ |]+) \|/gm)];
  return rows.map(([, method, endpoint]) => ({ method, path: endpoint }));
}

/** The documented endpoints built so far: flags, evaluation helpers, role access, experiments (activity, dashboards and results come later). */
const BUILT =
  /^\/api\/projects\/:project_id\/(feature_flags(\/:id|\/evaluation_reasons|\/local_evaluation|\/my_flags|\/user_blast_radius|\/:parent_lookup_feature_flag_id\/role_access(\/:id)?)?|experiments(\/:id)?)$/;

describe('the route table', () => {
  it('serves each documented endpoint built so far exactly once', () => {
    const built = documentedEndpoints().filter((e) => BUILT.test(e.path));
    expect(built).toHaveLength(18);
    for (const endpoint of built) {
      expect(routes.filter((r) => r.method === endpoint.method && r.path === endpoint.path)).toHaveLength(1);
    }
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
