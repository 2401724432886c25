import { createHash } from 'node:crypto';
import type { World } from '../helpers/factories';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { capture } from '../ingestion/capture-helpers';

/** docs/rest-api.md §4.5, docs/evaluation.md §7: what server SDKs poll. */

let app: TestApp;
let world: World;
let flags: string;
let local: string;

const create = async (body: Record<string, unknown>) => {
  const res = await app.request(flags, { method: 'POST', key: world.owner.key, body });
  expect(res.status).toBe(201);
  return res.body;
};
const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
  flags = `/api/projects/${world.project.id}/feature_flags`;
  local = `${flags}/local_evaluation`;
  await create({ key: 'alpha-feature', filters: { groups: [{ properties: [], rollout_percentage: 20 }], payloads: { true: '{"a":1}' } } });
  await create({ key: 'inactive-flag', active: false });
  // Stored keys no SDK should apply are left out; filters without groups are served normalised.
  await create({
    key: 'group-feature',
    filters: { aggregation_group_type_index: 0, groups: [{ rollout_percentage: 61 }], holdout_groups: [] },
  });
  const deleted = await create({ key: 'gone' });
  await app.request(`${flags}/${deleted.id}`, { method: 'PATCH', key: world.owner.key, body: { deleted: true } });
  await capture(app, '/batch/', {
    api_key: world.project.apiToken,
    batch: [{ event: 'x', distinct_id: 'd', properties: { $groups: { organization: 'o', company: 'c' } } }],
  });
});
afterAll(() => app.close());

describe('the project path', () => {
  it('needs a credential', async () => {
    const res = await app.request(local);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('not_authenticated');
  });

  it('serves every non-deleted flag by id, inactive ones included, with group types and an ETag', async () => {
    const res = await app.request(local, { key: world.owner.key });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('private, must-revalidate');
    expect(res.headers.get('etag')).toBe(`W/"${createHash('sha256').update(res.text).digest('hex').slice(0, 32)}"`);
    const { flags: served, group_type_mapping, cohorts } = res.body;
    expect(served.map((f: any) => f.key)).toEqual(['alpha-feature', 'inactive-flag', 'group-feature']);
    expect(served.map((f: any) => f.id)).toEqual([...served.map((f: any) => f.id)].sort((a: number, b: number) => a - b));
    expect(served[0]).toEqual({
      id: expect.any(Number),
      team_id: world.project.id,
      name: '',
      key: 'alpha-feature',
      filters: { groups: [{ properties: [], rollout_percentage: 20 }], payloads: { true: '{"a":1}' } },
      deleted: false,
      active: true,
      ensure_experience_continuity: false,
    });
    expect(served[1].active).toBe(false);
    expect(served[2].filters).toEqual({ groups: [{ rollout_percentage: 61 }], aggregation_group_type_index: 0 });
    expect(group_type_mapping).toEqual({ 0: 'organization', 1: 'company' });
    expect(cohorts).toEqual({});
  });

  it('answers 304 with an empty body while nothing changed, and a new ETag after a change', async () => {
    const first = await app.request(local, { key: world.owner.key });
    const etag = first.headers.get('etag')!;
    const again = await app.request(local, { key: world.owner.key });
    expect(again.text).toBe(first.text);
    for (const match of [etag, etag.replace(/^W\//, ''), `"nope", ${etag}`, '*', etag.replace(/^W\/"(.*)"$/, '$1')]) {
      const res = await app.request(local, { key: world.owner.key, headers: { 'if-none-match': match } });
      expect({ match, status: res.status, body: res.text }).toEqual({ match, status: 304, body: '' });
      expect(res.headers.get('etag')).toBe(etag);
      expect(res.headers.get('cache-control')).toBe('private, must-revalidate');
    }
    expect((await app.request(local, { key: world.owner.key, headers: { 'if-none-match': '"other"' } })).status).toBe(200);

    const alpha = first.body.flags[0];
    await app.request(`${flags}/${alpha.id}`, { method: 'PATCH', key: world.owner.key, body: { name: 'changed' } });
    const changed = await app.request(local, { key: world.owner.key, headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it('checks the key before anything else', async () => {
    const noScope = await app.factories.key(world.owner.user, { scopes: ['experiment:read'] });
    const res = await app.request(local, { key: noScope, headers: { 'if-none-match': '*' } });
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe("API key missing required scope 'feature_flag:read'");
    const outsider = await app.factories.member(null);
    expect((await app.request(local, { key: outsider.key })).status).toBe(403);
  });
});

describe('the SDK paths and the secret token', () => {
  it('serve the same body as the project path, the project named by ?token=', async () => {
    const expected = (await app.request(`${local}?send_cohorts`, { key: world.owner.key })).text;
    for (const path of [
      '/flags/definitions',
      '/flags/definitions/',
      '/api/feature_flag/local_evaluation/',
      '/api/feature_flag/local_evaluation',
    ]) {
      const res = await app.request(`${path}?token=${world.project.apiToken}&send_cohorts`, { key: world.owner.key });
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      expect(res.text).toBe(expected);
    }
  });

  it('answers an unknown token with 401 Incorrect authentication credentials.', async () => {
    for (const token of ['phc_unknown', '', 'a%00b']) {
      const res = await app.request(`/flags/definitions?token=${token}`, { key: world.owner.key });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        type: 'authentication_error',
        code: 'authentication_failed',
        detail: 'Incorrect authentication credentials.',
        attr: null,
      });
    }
  });

  it("accepts the project's own secret token on the three paths only", async () => {
    const secret = world.project.secretApiToken;
    const expected = (await app.request(local, { key: world.owner.key })).text;
    for (const path of [
      local,
      `/flags/definitions?token=${world.project.apiToken}`,
      '/flags/definitions',
      '/api/feature_flag/local_evaluation',
    ]) {
      const res = await app.request(path, bearer(secret));
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      expect(res.text).toBe(expected);
    }
    const elsewhere = await app.request(flags, bearer(secret));
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.body.detail).toBe('Personal API key found in request Authorization header is invalid.');
  });

  it("refuses another project's secret token with 403 and an unknown one with 401", async () => {
    const other = await app.factories.project(world.organization);
    for (const path of [local, `/flags/definitions?token=${world.project.apiToken}`]) {
      const res = await app.request(path, bearer(other.secretApiToken));
      expect(res.status).toBe(403);
      expect(res.body.detail).toBe("You don't have access to the project.");
    }
    const unknown = await app.request('/flags/definitions', bearer('phs_unknown'));
    expect(unknown.status).toBe(401);
    expect(unknown.body.detail).toBe('Project secret API key found in request Authorization header is invalid.');
  });

  it("without a token, serves the key user's current project", async () => {
    const res = await app.request('/flags/definitions', { key: world.owner.key });
    expect(res.status).toBe(200);
    expect(res.body.flags[0].team_id).toBe(world.project.id);
  });

  it('answers other methods with 405, also on the literal flag sub-paths that `/:id` would otherwise take', async () => {
    for (const path of ['/flags/definitions', local, `${flags}/evaluation_reasons`, `${flags}/my_flags/`]) {
      for (const method of ['POST', 'PATCH', 'DELETE']) {
        const res = await app.request(path, { method, key: world.owner.key, body: {} });
        expect({ path, method, status: res.status, allow: res.headers.get('allow') }).toEqual({ path, method, status: 405, allow: 'GET' });
      }
    }
    expect((await app.request(`${flags}/abc`, { key: world.owner.key })).status).toBe(404);
  });
});
