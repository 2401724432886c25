import { startTestApp, type TestApp } from '../helpers/test-app';
import type { World } from '../helpers/factories';

let app: TestApp;
let world: World;
let flags: string;

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
  flags = `/api/projects/${world.project.id}/feature_flags`;
});
afterAll(() => app.close());

describe('creating a flag', () => {
  it('answers 201 with every field of the document', async () => {
    const res = await app.request(`${flags}/`, { method: 'POST', key: world.owner.key, body: { key: 'omega-feature' } });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const { id, created_at, created_by, ...rest } = res.body;
    expect(Number.isInteger(id)).toBe(true);
    expect(created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    expect(created_by).toEqual({
      id: world.owner.user.id,
      uuid: world.owner.user.uuid,
      distinct_id: world.owner.user.distinctId,
      first_name: 'Owner',
      email: world.owner.user.email,
      is_email_verified: false,
    });
    expect(Object.keys(res.body)).toEqual([
      'id',
      'name',
      'key',
      'filters',
      'deleted',
      'active',
      'created_by',
      'created_at',
      'is_simple_flag',
      'rollout_percentage',
      'ensure_experience_continuity',
      'experiment_set',
      'features',
      'rollback_conditions',
      'performed_rollback',
      'can_edit',
      'tags',
      'usage_dashboard',
      'analytics_dashboards',
      'has_enriched_analytics',
      'version',
      'last_called_at',
    ]);
    expect(rest).toEqual({
      name: '',
      key: 'omega-feature',
      filters: { groups: [{ properties: [], rollout_percentage: null }] },
      deleted: false,
      active: true,
      is_simple_flag: true,
      rollout_percentage: null,
      ensure_experience_continuity: false,
      experiment_set: [],
      features: [],
      rollback_conditions: null,
      performed_rollback: null,
      can_edit: true,
      tags: [],
      // docs/README.md decision 12: the generated usage dashboard (test/rest/dashboards.test.ts reads it).
      usage_dashboard: expect.any(Number),
      analytics_dashboards: [],
      has_enriched_analytics: false,
      version: 1,
      // docs/stale-flags.md: no `$feature_flag_called` for this key yet.
      last_called_at: null,
    });
    const again = await app.request(`${flags}/${id}`, { key: world.owner.key });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
  });

  it('requires a key', async () => {
    const res = await app.request(flags, { method: 'POST', key: world.owner.key });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ type: 'validation_error', code: 'required', detail: 'This field is required.', attr: 'key' });
  });
});
