// @slow: walks hostile input over the whole route table
import { routes } from '../../src/rest/routes';
import type { World } from '../helpers/factories';
import { HOSTILE_BODIES, HOSTILE_VALUES } from '../helpers/hostile-input';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * Every row of the route table, fed hostile path ids, query strings and bodies by an owner
 * (so requests get past authentication): nothing a client sends may answer 5xx.
 *
 * With HOSTILE_WALK=full (`.ci/run` sets it) every row gets every hostile id, query string, body
 * and field × value cell (22 × 11). Otherwise every row gets every hostile body, and a share of
 * the rest starting at an offset of its own (a third of the ids and queries, an eighth of the
 * matrix), so the rows between them still cover every id, query and cell.
 */
const FULL = process.env.HOSTILE_WALK === 'full';
const MATRIX_STRIDE = FULL ? 1 : 8;
const ID_QUERY_STRIDE = FULL ? 1 : 3;
let app: TestApp;
let world: World;
let real: Record<string, string>;

const HOSTILE_IDS = [
  'abc',
  '0',
  '-1',
  '99999999999',
  '1.5',
  '%00',
  'null',
  '00000000-0000-0000-0000-000000000000',
  'ZZZZZZZZ-0000-0000-0000-000000000000',
];
const HOSTILE_QUERIES = [
  '?limit=-1&offset=x',
  '?limit=99999999999999999999',
  '?search=%00',
  '?tags=[1',
  '?tags=[null]',
  '?active=maybe&type=x&created_by_id=1e9',
  '?status=%FF&archived=2',
];

function fill(path: string, values: Record<string, string>): string {
  return path.replace(/:([a-z_]+)/g, (_, name: string) => values[name] ?? '1');
}

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
  const flag = await app.request(`/api/projects/${world.project.id}/feature_flags`, {
    method: 'POST',
    key: world.owner.key,
    body: { key: 'target' },
  });
  const role = await app.request(`/api/organizations/${world.organization.id}/roles`, {
    method: 'POST',
    key: world.owner.key,
    body: { name: 'Target' },
  });
  real = {
    project_id: String(world.project.id),
    organization_id: world.organization.id,
    id: String(flag.body.id),
    parent_lookup_feature_flag_id: String(flag.body.id),
    role_id: role.body.id,
  };
});
afterAll(() => app.close());

async function expectNoServerError(method: string, url: string, body?: unknown) {
  const res = await app.request(url, { method, key: world.owner.key, body });
  expect({ method, url, body, status: res.status >= 500 ? res.status : 'ok' }).toEqual({ method, url, body, status: 'ok' });
}

describe.each(routes.map((route, index) => [`${route.method} ${route.path}`, route, index] as const))('%s', (_, route, routeIndex) => {
  const sendsBody = route.method !== 'GET' && route.method !== 'DELETE';

  it('survives hostile path ids', async () => {
    const params = route.path.match(/:([a-z_]+)/g)?.map((p) => p.slice(1)) ?? [];
    for (const [p, param] of params.entries()) {
      for (const [i, id] of HOSTILE_IDS.entries()) {
        if ((i + p + routeIndex) % ID_QUERY_STRIDE !== 0) continue;
        await expectNoServerError(route.method, fill(route.path, { ...real, [param]: id }), sendsBody ? {} : undefined);
      }
    }
  });

  it('survives hostile query strings', async () => {
    for (const [q, query] of HOSTILE_QUERIES.entries()) {
      if ((q + routeIndex) % ID_QUERY_STRIDE !== 0) continue;
      await expectNoServerError(route.method, fill(route.path, real) + query, sendsBody ? {} : undefined);
    }
  });

  if (sendsBody) {
    it('survives hostile bodies and field values', async () => {
      const url = fill(route.path, real);
      for (const body of HOSTILE_BODIES) await expectNoServerError(route.method, url, body);
      const fields = [
        'name',
        'key',
        'filters',
        'active',
        'deleted',
        'tags',
        'version',
        'created_at',
        'rollback_conditions',
        'analytics_dashboards',
        'role_id',
        'user_uuid',
        'resource',
        'access_level',
        'feature_flags_access_level',
        'feature_flag_key',
        'parameters',
        'start_date',
        'end_date',
        'secondary_metrics',
        'archived',
        'description',
      ];
      let cell = 0;
      for (const field of fields) {
        for (const value of HOSTILE_VALUES) {
          if ((cell++ + routeIndex) % MATRIX_STRIDE === 0) await expectNoServerError(route.method, url, { [field]: value });
        }
      }
    }, 120_000);
  }
});
