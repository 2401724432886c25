import { PostHog } from 'posthog-node';
import type { World } from '../helpers/factories';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * docs/scheduled-changes.md over REST: a change to a flag applied at its time by the job engine
 * (docs/operations.md "The job engine"), as its creator through the flag's PATCH path (validated,
 * versioned, in the activity log, seen by SDKs); refused at create when it could not apply, and
 * recorded in `failure_reason` when it no longer can.
 */

let app: TestApp;
let world: World;
let base: string;
let serial = 0;

beforeAll(async () => {
  app = await startTestApp({ jobs: true });
  world = await app.factories.world();
  base = `/api/projects/${world.project.id}`;
});
afterAll(() => app.close());

const post = (path: string, body: unknown, key = world.owner.key) => app.request(`${base}${path}`, { method: 'POST', key, body });
const get = (path: string, key = world.owner.key) => app.request(`${base}${path}`, { key });
const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();

async function createFlag(body: Record<string, unknown> = {}) {
  const res = await post('/feature_flags/', {
    key: `scheduled-${++serial}`,
    filters: { groups: [{ properties: [], rollout_percentage: 100 }] },
    ...body,
  });
  expect(res.status).toBe(201);
  return res.body;
}

/** Reads the change until it has run (or failed); the engine polls every half second in tests. */
async function untilRun(id: number, waitMs = 20_000) {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const res = await get(`/scheduled_changes/${id}/`);
    expect(res.status).toBe(200);
    if (res.body.executed_at || res.body.failure_reason || Date.now() > deadline) return res.body;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('create', () => {
  it('answers the change with its read-only fields empty', async () => {
    const flag = await createFlag();
    const at = inSeconds(3600);
    const res = await post('/scheduled_changes/', {
      record_id: flag.id,
      model_name: 'FeatureFlag',
      payload: { operation: 'update_status', value: false },
      scheduled_at: at,
      executed_at: '2020-01-01T00:00:00Z',
      failure_reason: 'ignored',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      record_id: String(flag.id),
      model_name: 'FeatureFlag',
      payload: { operation: 'update_status', value: false },
      executed_at: null,
      failure_reason: null,
      created_by: { email: world.owner.user.email },
    });
    expect(new Date(res.body.scheduled_at).getTime()).toBe(new Date(at).getTime());
    const list = await get(`/scheduled_changes/?record_id=${flag.id}`);
    expect(list.body.results.map((change: { id: number }) => change.id)).toEqual([res.body.id]);
  });

  it.each([
    [{}, 'record_id', 'required'],
    [{ record_id: 1, payload: { operation: 'update_status', value: true } }, 'scheduled_at', 'required'],
    [{ record_id: 1, scheduled_at: '2030-01-01T00:00:00Z' }, 'payload', 'required'],
    [
      {
        record_id: 1,
        model_name: 'Experiment',
        payload: { operation: 'update_status', value: true },
        scheduled_at: '2030-01-01T00:00:00Z',
      },
      'model_name',
      'invalid_choice',
    ],
    [{ record_id: 1, payload: { operation: 'update_status', value: true }, scheduled_at: 'tomorrow' }, 'scheduled_at', 'invalid_input'],
    [{ record_id: 1, payload: [], scheduled_at: '2030-01-01T00:00:00Z' }, 'payload', 'not_a_dict'],
    [{ record_id: 1, payload: { operation: 'update_status' }, scheduled_at: '2030-01-01T00:00:00Z' }, 'payload', 'invalid_input'],
    [{ record_id: 1, payload: { operation: 'delete', value: 1 }, scheduled_at: '2030-01-01T00:00:00Z' }, 'payload', 'invalid_input'],
    [
      { record_id: 1, payload: { operation: 'update_status', value: 'yes' }, scheduled_at: '2030-01-01T00:00:00Z' },
      'payload',
      'invalid_input',
    ],
    [
      { record_id: 1, payload: { operation: 'add_release_condition', value: {} }, scheduled_at: '2030-01-01T00:00:00Z' },
      'payload',
      'invalid_input',
    ],
  ])('refuses %j at %s', async (body, attr, code) => {
    const before = (await get('/scheduled_changes/')).body.count;
    const res = await post('/scheduled_changes/', body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: 'validation_error', attr, code });
    expect((await get('/scheduled_changes/')).body.count).toBe(before);
  });

  it('refuses a flag that is not in the project, at record_id', async () => {
    const res = await post('/scheduled_changes/', {
      record_id: 999999,
      payload: { operation: 'update_status', value: true },
      scheduled_at: inSeconds(60),
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ attr: 'record_id', code: 'does_not_exist' });
  });

  it('refuses a release condition a PATCH would refuse, at payload, and stores nothing', async () => {
    const flag = await createFlag();
    const res = await post('/scheduled_changes/', {
      record_id: flag.id,
      payload: { operation: 'add_release_condition', value: { groups: [{ properties: [], rollout_percentage: 150 }] } },
      scheduled_at: inSeconds(60),
    });
    expect(res.status).toBe(400);
    expect(res.body.attr).toBe('payload');
    expect((await get(`/scheduled_changes/?record_id=${flag.id}`)).body.count).toBe(0);
    expect((await get(`/feature_flags/${flag.id}/`)).body.version).toBe(flag.version);
  });
});

describe('a flag stays within 1,000,000 bytes of filters', () => {
  // One condition set of about 600 KB: two of them are past the cap.
  const big = (tag: string) => ({
    properties: [
      { key: 'email', type: 'person', operator: 'exact', value: Array.from({ length: 6000 }, (_, i) => `${tag}${i}-${'x'.repeat(85)}`) },
    ],
    rollout_percentage: 100,
  });

  it('refuses a release condition that would take the filters past it, at payload, and a PATCH of such filters, at filters', async () => {
    const flag = await createFlag({ filters: { groups: [big('a')] } });
    const scheduled = await post('/scheduled_changes/', {
      record_id: flag.id,
      payload: { operation: 'add_release_condition', value: { groups: [big('b')] } },
      scheduled_at: inSeconds(60),
    });
    expect([scheduled.status, scheduled.body.attr, scheduled.body.detail]).toEqual([
      400,
      'payload',
      expect.stringContaining('Ensure filters are no more than 1000000 bytes as JSON.'),
    ]);
    const patched = await app.request(`${base}/feature_flags/${flag.id}/`, {
      method: 'PATCH',
      key: world.owner.key,
      body: {
        filters: {
          groups: [big('a'), { ...big('b'), properties: big('b').properties.map((p) => ({ ...p, value: p.value.slice(0, 5000) })) }],
        },
      },
    });
    expect(patched.body).toEqual({
      type: 'validation_error',
      code: 'max_length',
      detail: 'Ensure filters are no more than 1000000 bytes as JSON.',
      attr: 'filters',
    });
    expect((await get(`/feature_flags/${flag.id}/`)).body.version).toBe(flag.version);
  });
});

describe('at its time', () => {
  it('a change 3 s ahead flips a flag, as its creator, and posthog-node sees it on its next poll', async () => {
    const flag = await createFlag();
    const client = new PostHog(world.project.apiToken, {
      host: app.baseUrl,
      personalApiKey: world.owner.key,
      featureFlagsPollingInterval: 600_000,
      disableGeoip: true,
      fetchRetryCount: 0,
    });
    const enabled = async (key: string) => (await client.evaluateFlags('someone', { onlyEvaluateLocally: true })).isEnabled(key);
    try {
      expect(await client.waitForLocalEvaluationReady(5000)).toBe(true);
      expect(await enabled(flag.key)).toBe(true);
      const created = await post('/scheduled_changes/', {
        record_id: flag.id,
        payload: { operation: 'update_status', value: false },
        scheduled_at: inSeconds(3),
      });
      expect(created.status).toBe(201);
      const ran = await untilRun(created.body.id);
      expect(ran.failure_reason).toBeNull();
      expect(new Date(ran.executed_at).getTime()).toBeGreaterThanOrEqual(new Date(created.body.scheduled_at).getTime());
      const after = (await get(`/feature_flags/${flag.id}/`)).body;
      expect(after).toMatchObject({ active: false, version: flag.version + 1 });
      await client.reloadFeatureFlags();
      expect(await enabled(flag.key)).toBe(false);
      const activity = (await get(`/feature_flags/${flag.id}/activity/`)).body.results;
      expect(activity[0]).toMatchObject({ activity: 'updated', user: { email: world.owner.user.email } });
    } finally {
      await client.shutdown();
    }
  });

  it("appends a release condition to the flag's conditions", async () => {
    const flag = await createFlag();
    const condition = { properties: [{ key: 'email', value: 'x@example.com', operator: 'exact', type: 'person' }], rollout_percentage: 50 };
    const created = await post('/scheduled_changes/', {
      record_id: String(flag.id),
      payload: { operation: 'add_release_condition', value: { groups: [condition] } },
      scheduled_at: inSeconds(-1),
    });
    expect(created.status).toBe(201);
    expect((await untilRun(created.body.id)).executed_at).not.toBeNull();
    const groups = (await get(`/feature_flags/${flag.id}/`)).body.filters.groups;
    expect(groups).toHaveLength(2);
    expect(groups[1]).toMatchObject(condition);
  });

  it('records why a change no longer applies, and does not retry it', async () => {
    const flag = await createFlag();
    const created = await post('/scheduled_changes/', {
      record_id: flag.id,
      payload: { operation: 'update_status', value: false },
      scheduled_at: inSeconds(2),
    });
    expect(created.status).toBe(201);
    const deleted = await app.request(`${base}/feature_flags/${flag.id}/`, {
      method: 'PATCH',
      key: world.owner.key,
      body: { deleted: true },
    });
    expect(deleted.status).toBe(200);
    const ran = await untilRun(created.body.id);
    expect(ran).toMatchObject({ executed_at: null, failure_reason: expect.stringContaining('no longer exists') });
    // Its job completed on the first try: a refusal is recorded, not retried. (pg-boss marks the job
    // completed just after the handler's transaction commits, so it may still be active for a moment.)
    const jobOf = () =>
      app.factories.sql(`select state, retry_count from pgboss.job where name = 'scheduled-changes' and data->>'id' = ?`, [String(ran.id)]);
    let jobs = await jobOf();
    for (let tries = 0; tries < 50 && jobs[0]?.state === 'active'; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      jobs = await jobOf();
    }
    expect(jobs).toEqual([{ state: 'completed', retry_count: 0 }]);
    const edit = await app.request(`${base}/scheduled_changes/${ran.id}/`, {
      method: 'PATCH',
      key: world.owner.key,
      body: { scheduled_at: inSeconds(5) },
    });
    expect(edit.status).toBe(400);
  });

  it('is applied as its creator: a creator deactivated since makes it fail, with the reason', async () => {
    const flag = await createFlag();
    const admin = await app.factories.member(world.organization, 'admin');
    const created = await post(
      '/scheduled_changes/',
      { record_id: flag.id, payload: { operation: 'update_status', value: false }, scheduled_at: inSeconds(2) },
      admin.key,
    );
    expect(created.status).toBe(201);
    expect(created.body.created_by.email).toBe(admin.user.email);
    await app.factories.sql('update app_user set is_active = false where id = ?', [admin.user.id]);
    const ran = await untilRun(created.body.id);
    expect(ran).toMatchObject({ executed_at: null, failure_reason: expect.stringContaining('no longer an active member') });
    expect((await get(`/feature_flags/${flag.id}/`)).body).toMatchObject({ active: true, version: flag.version });
  });

  it('a deleted change never runs; a rescheduled one runs at its new time', async () => {
    const flag = await createFlag();
    const gone = await post('/scheduled_changes/', {
      record_id: flag.id,
      payload: { operation: 'update_status', value: false },
      scheduled_at: inSeconds(1),
    });
    const removed = await app.request(`${base}/scheduled_changes/${gone.body.id}/`, { method: 'DELETE', key: world.owner.key });
    expect(removed.status).toBe(204);
    expect((await get(`/scheduled_changes/${gone.body.id}/`)).status).toBe(404);
    const moved = await post('/scheduled_changes/', {
      record_id: flag.id,
      payload: { operation: 'update_status', value: false },
      scheduled_at: inSeconds(3600),
    });
    const patched = await app.request(`${base}/scheduled_changes/${moved.body.id}/`, {
      method: 'PATCH',
      key: world.owner.key,
      body: { scheduled_at: inSeconds(1) },
    });
    expect(patched.status).toBe(200);
    expect((await untilRun(moved.body.id)).executed_at).not.toBeNull();
    // The deleted change's job came due first; only the rescheduled one wrote.
    expect((await get(`/feature_flags/${flag.id}/`)).body).toMatchObject({ active: false, version: flag.version + 1 });
  });
});
