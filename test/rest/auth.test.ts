import { startTestApp, type TestApp } from '../helpers/test-app';
import type { Member, World } from '../helpers/factories';
import { CREDENTIAL_TTL_MS } from '../../src/app-caches';

/** docs/rest-api.md §2 (credentials, 401 bodies, access, scopes) and §1.3's order, over the flag routes. */

let app: TestApp;
let world: World;
let flags: string;
let flagId: number;

const err = (type: string, code: string, detail: string, attr: string | null = null) => ({ type, code, detail, attr });
const NOT_AUTHENTICATED = err('authentication_error', 'not_authenticated', 'Authentication credentials were not provided.');
const invalidKey = (where: string) =>
  err('authentication_error', 'authentication_failed', `Personal API key found in request ${where} is invalid.`);
const forbidden = (detail: string) => err('authentication_error', 'permission_denied', detail);
const PROJECT_NOT_FOUND = err('invalid_request', 'not_found', 'Project not found.');
const NOT_FOUND = err('invalid_request', 'not_found', 'Not found.');

const get = (path: string, options: Parameters<TestApp['request']>[1] = {}) => app.request(path, options);
const post = (path: string, key: string, body: unknown) => app.request(path, { method: 'POST', key, body });

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
  flags = `/api/projects/${world.project.id}/feature_flags`;
  flagId = (await post(flags, world.owner.key, { key: 'red_button' })).body.id;
});
afterAll(() => app.close());

describe('credentials (§2.1, §2.2)', () => {
  it('answers no credential with 401 not_authenticated and WWW-Authenticate: Bearer', async () => {
    for (const [method, path] of [
      ['GET', flags],
      ['POST', flags],
      ['GET', `${flags}/${flagId}`],
      ['PATCH', `${flags}/${flagId}`],
      ['PUT', `${flags}/${flagId}`],
      ['DELETE', `${flags}/${flagId}`],
    ]) {
      const res = await app.request(path, { method, body: method === 'GET' || method === 'DELETE' ? undefined : { key: 'x' } });
      expect([method, res.status, res.body]).toEqual([method, 401, NOT_AUTHENTICATED]);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    }
  });

  it('answers an unknown key in the Authorization header with 401 authentication_failed', async () => {
    const res = await get(flags, { key: 'phx_wrong' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(invalidKey('Authorization header'));
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('accepts the Bearer scheme in any case and the value padded with spaces', async () => {
    for (const authorization of [`Bearer   ${world.owner.key}  `, `bearer ${world.owner.key}`, `BEARER\t${world.owner.key}`]) {
      const res = await get(flags, { headers: { authorization } });
      expect([authorization, res.status]).toEqual([authorization, 200]);
    }
  });

  it('does not take an Authorization header that is not Bearer <value> as a credential', async () => {
    for (const authorization of ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ', `Token ${world.owner.key}`]) {
      const res = await get(flags, { headers: { authorization } });
      expect([authorization, res.status, res.body]).toEqual([authorization, 401, NOT_AUTHENTICATED]);
    }
    const fallsThrough = await get(`${flags}?personal_api_key=${world.owner.key}`, { headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    expect(fallsThrough.status).toBe(200);
  });

  it('accepts the key as a query parameter, naming the query string when it is wrong', async () => {
    expect((await get(`${flags}?personal_api_key=${world.owner.key}`)).status).toBe(200);
    const wrong = await get(`${flags}?personal_api_key=phx_wrong`);
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual(invalidKey('query string'));
  });

  it('accepts the key in a JSON or form body, naming the body when it is wrong', async () => {
    const json = await app.request(flags, { method: 'POST', body: { key: 'body-key', personal_api_key: world.owner.key } });
    expect(json.status).toBe(201);
    const form = await app.request(flags, {
      method: 'POST',
      body: `key=form-key&personal_api_key=${world.owner.key}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(201);
    const wrong = await app.request(flags, { method: 'POST', body: { key: 'body-key-2', personal_api_key: 'phx_wrong' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual(invalidKey('body'));
  });

  it('tries only the first candidate: header, then body, then query string', async () => {
    const headerFirst = await app.request(`${flags}?personal_api_key=${world.owner.key}`, {
      method: 'POST',
      key: 'phx_wrong',
      body: { key: 'never', personal_api_key: world.owner.key },
    });
    expect(headerFirst.status).toBe(401);
    expect(headerFirst.body).toEqual(invalidKey('Authorization header'));

    const bodyBeforeQuery = await app.request(`${flags}?personal_api_key=${world.owner.key}`, {
      method: 'POST',
      body: { key: 'never', personal_api_key: 'phx_wrong' },
    });
    expect(bodyBeforeQuery.body).toEqual(invalidKey('body'));
  });

  it("refuses an inactive user's key with 401 within the second a key lookup is remembered", async () => {
    const member = await app.factories.member(world.organization);
    expect((await get(flags, { key: member.key })).status).toBe(200);
    await app.factories.sql('update app_user set is_active = false where id = ?', [member.user.id]);
    app.clock.advance(CREDENTIAL_TTL_MS + 1);
    const res = await get(flags, { key: member.key });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(invalidKey('Authorization header'));
  });

  it('lets a member removed by another writer read for the second a standing is remembered, and never write', async () => {
    const noAccess = [403, forbidden("You don't have access to the project.")];
    const [member, other] = [await app.factories.member(world.organization), await app.factories.member(world.organization)];
    for (const m of [member, other]) expect((await get(flags, { key: m.key })).status).toBe(200);
    await app.factories.sql('delete from organization_membership where user_id in (?, ?)', [member.user.id, other.user.id]);
    expect((await get(flags, { key: member.key })).status).toBe(200);
    const write = await app.request(`${flags}/${flagId}`, { method: 'PATCH', key: member.key, body: { name: 'not yours' } });
    expect([write.status, write.body]).toEqual(noAccess);
    // The write's own lookup found no membership: reads stop with it, not a second later.
    const readAfterWrite = await get(flags, { key: member.key });
    expect([readAfterWrite.status, readAfterWrite.body]).toEqual(noAccess);
    // Without a write, the remembered standing lapses after CREDENTIAL_TTL_MS.
    expect((await get(flags, { key: other.key })).status).toBe(200);
    app.clock.advance(CREDENTIAL_TTL_MS + 1);
    const read = await get(flags, { key: other.key });
    expect([read.status, read.body]).toEqual(noAccess);
  });

  it("stops a removed member's reads in every project of the organization once a write finds the membership gone", async () => {
    const noAccess = [403, forbidden("You don't have access to the project.")];
    const member = await app.factories.member(world.organization);
    const other = await app.factories.project(world.organization, 'Other project');
    const otherFlags = `/api/projects/${other.id}/feature_flags`;
    // Both standings remembered, then the membership removed by another writer.
    for (const path of [flags, otherFlags]) expect((await get(path, { key: member.key })).status).toBe(200);
    await app.factories.sql('delete from organization_membership where user_id = ?', [member.user.id]);
    const write = await app.request(`${flags}/${flagId}`, { method: 'PATCH', key: member.key, body: { name: 'not yours' } });
    expect([write.status, write.body]).toEqual(noAccess);
    const elsewhere = await get(otherFlags, { key: member.key });
    expect([elsewhere.status, elsewhere.body]).toEqual(noAccess);
  });

  it('refuses a removed member local evaluation within a second of the removal, whatever was remembered before', async () => {
    const member = await app.factories.member(world.organization);
    const local = `${flags}/local_evaluation`;
    expect((await get(flags, { key: member.key })).status).toBe(200);
    await app.factories.sql('delete from organization_membership where user_id = ?', [member.user.id]);
    // Half a second later the standing is still remembered for reads; the grant looks it up afresh.
    app.clock.advance(CREDENTIAL_TTL_MS / 2);
    expect((await get(local, { key: member.key })).status).toBe(403);
    app.clock.advance(CREDENTIAL_TTL_MS / 2 + 1);
    expect((await get(local, { key: member.key })).status).toBe(403);
  });

  it("refuses the project's public and secret tokens on the flag routes", async () => {
    const [{ api_token: publicToken, secret_api_token: secretToken }] = await app.factories.sql(
      'select api_token, secret_api_token from project where id = ?',
      [world.project.id],
    );
    for (const token of [publicToken, secretToken]) {
      const res = await get(flags, { key: token });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(invalidKey('Authorization header'));
    }
  });

  it('authenticates before anything else: a bad key on an unknown project is 401', async () => {
    const res = await get('/api/projects/999999/feature_flags', { key: 'phx_wrong' });
    expect(res.status).toBe(401);
  });
});

describe('projects in the path (§1.1)', () => {
  it.each(['999999', 'abc', '0', '-1', '99999999999', '1.0', '@other'])(
    'answers project "%s" with 404 Project not found.',
    async (project) => {
      for (const method of ['GET', 'POST']) {
        const res = await app.request(`/api/projects/${project}/feature_flags`, {
          method,
          key: world.owner.key,
          body: method === 'POST' ? { key: 'x' } : undefined,
        });
        expect([method, res.status, res.body]).toEqual([method, 404, PROJECT_NOT_FOUND]);
      }
      const one = await get(`/api/projects/${project}/feature_flags/${flagId}`, { key: world.owner.key });
      expect(one.status).toBe(404);
      expect(one.body).toEqual(PROJECT_NOT_FOUND);
    },
  );

  it('resolves @current to the project the user was first given', async () => {
    const res = await get('/api/projects/@current/feature_flags', { key: world.owner.key });
    expect(res.status).toBe(200);
    expect(res.body.results.map((f: any) => f.id)).toContain(flagId);
    const one = await get(`/api/projects/@current/feature_flags/${flagId}`, { key: world.owner.key });
    expect(one.status).toBe(200);
  });

  it('answers @current with 404 for a user given no project', async () => {
    const loner = await app.factories.member(null);
    const res = await get('/api/projects/@current/feature_flags', { key: loner.key });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(PROJECT_NOT_FOUND);
  });
});

describe('access (§2.3)', () => {
  it('refuses a member of another organization with 403 on every flag route', async () => {
    const outsider = (await app.factories.world()).owner;
    for (const [method, path] of [
      ['GET', flags],
      ['POST', flags],
      ['GET', `${flags}/${flagId}`],
      ['PATCH', `${flags}/${flagId}`],
      ['PUT', `${flags}/${flagId}`],
      ['DELETE', `${flags}/${flagId}`],
    ]) {
      const res = await app.request(path, {
        method,
        key: outsider.key,
        body: method === 'GET' || method === 'DELETE' ? undefined : { key: 'x' },
      });
      expect([method, res.status, res.body]).toEqual([method, 403, forbidden("You don't have access to the project.")]);
    }
    const unchanged = await get(`${flags}/${flagId}`, { key: world.owner.key });
    expect(unchanged.body).toMatchObject({ key: 'red_button', version: 1 });
  });

  it("hides a flag of the user's other project: 404 Not found.", async () => {
    const other = await app.factories.project(world.organization);
    const otherFlag = (await post(`/api/projects/${other.id}/feature_flags`, world.owner.key, { key: 'elsewhere' })).body;
    expect(otherFlag.id).toEqual(expect.any(Number));
    for (const method of ['GET', 'PATCH', 'PUT']) {
      const res = await app.request(`${flags}/${otherFlag.id}`, {
        method,
        key: world.owner.key,
        body: method === 'GET' ? undefined : { key: 'moved', name: 'x' },
      });
      expect([method, res.status, res.body]).toEqual([method, 404, NOT_FOUND]);
    }
    const list = await get(flags, { key: world.owner.key });
    expect(list.body.results.map((f: any) => f.key)).not.toContain('elsewhere');
    const stillThere = await get(`/api/projects/${other.id}/feature_flags/${otherFlag.id}`, { key: world.owner.key });
    expect(stillThere.body).toMatchObject({ key: 'elsewhere', name: '', version: 1 });
  });
});

describe('scopes (§2.4)', () => {
  let reader: Member;
  const missing = (scope: string) => forbidden(`API key missing required scope '${scope}'`);

  beforeAll(async () => {
    reader = await app.factories.member(world.organization, 'member', { scopes: ['feature_flag:read'] });
  });

  it('lets feature_flag:read list and retrieve', async () => {
    expect((await get(flags, { key: reader.key })).status).toBe(200);
    expect((await get(`${flags}/${flagId}`, { key: reader.key })).status).toBe(200);
  });

  it('refuses feature_flag:read every write, DELETE included, without changing anything', async () => {
    for (const [method, path] of [
      ['POST', flags],
      ['PATCH', `${flags}/${flagId}`],
      ['PUT', `${flags}/${flagId}`],
      ['DELETE', `${flags}/${flagId}`],
      ['DELETE', `${flags}/999999`],
    ]) {
      const res = await app.request(path, {
        method,
        key: reader.key,
        body: method === 'DELETE' ? undefined : { key: 'read-only-write', name: 'x' },
      });
      expect([method, path, res.status, res.body]).toEqual([method, path, 403, missing('feature_flag:write')]);
    }
    const list = await get(flags, { key: world.owner.key });
    expect(list.body.results.map((f: any) => f.key)).not.toContain('read-only-write');
  });

  it('lets write imply read', async () => {
    const writer = await app.factories.member(world.organization, 'member', { scopes: ['feature_flag:write', 'activity_log:read'] });
    expect((await get(flags, { key: writer.key })).status).toBe(200);
    expect((await get(`${flags}/${flagId}`, { key: writer.key })).status).toBe(200);
    expect((await post(flags, writer.key, { key: 'by-writer' })).status).toBe(201);
  });

  it('lets * and an empty scope list do everything', async () => {
    for (const scopes of [['*'], []]) {
      const member = await app.factories.member(world.organization, 'member', { scopes });
      expect((await get(flags, { key: member.key })).status).toBe(200);
      expect((await post(flags, member.key, { key: `all-${scopes.length}` })).status).toBe(201);
      expect((await app.request(`${flags}/${flagId}`, { method: 'PATCH', key: member.key, body: {} })).status).toBe(200);
    }
  });

  it('refuses a key scoped to other objects', async () => {
    const other = await app.factories.member(world.organization, 'member', { scopes: ['experiment:write', 'activity_log:read'] });
    const res = await get(flags, { key: other.key });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(missing('feature_flag:read'));
  });

  it('checks the project (404) before the scope (403)', async () => {
    const res = await post('/api/projects/999999/feature_flags', reader.key, { key: 'x' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(PROJECT_NOT_FOUND);
  });

  it('checks the scope (403) before membership (403)', async () => {
    const outsider = await app.factories.member(null, 'member', { scopes: ['feature_flag:read'] });
    const res = await post(flags, outsider.key, { key: 'x' });
    expect(res.body).toEqual(missing('feature_flag:write'));
  });

  it('checks the scope (403) before the method (405) and before the object (404)', async () => {
    const put = await app.request(flags, { method: 'PUT', key: reader.key, body: {} });
    expect(put.status).toBe(405);
    const patchMissing = await app.request(`${flags}/999999`, { method: 'PATCH', key: reader.key, body: {} });
    expect(patchMissing.body).toEqual(missing('feature_flag:write'));
  });
});

describe('keys limited to projects and organizations (§2.3)', () => {
  it('refuses a project outside scoped_teams, naming it', async () => {
    const other = await app.factories.project(world.organization);
    const member = await app.factories.member(world.organization, 'member', { projects: [world.project.id] });
    expect((await get(flags, { key: member.key })).status).toBe(200);
    const res = await get(`/api/projects/${other.id}/feature_flags`, { key: member.key });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(forbidden(`API key does not have access to the requested project: ID ${other.id}.`));
    const write = await post(`/api/projects/${other.id}/feature_flags`, member.key, { key: 'x' });
    expect(write.body).toEqual(forbidden(`API key does not have access to the requested project: ID ${other.id}.`));
  });

  it('refuses a project of an organization outside scoped_organizations, naming it', async () => {
    const second = await app.factories.world();
    const member = await app.factories.member(world.organization, 'member', { organizations: [world.organization.id] });
    await app.factories.sql('insert into organization_membership (organization_id, user_id, level, joined_at) values (?, ?, 1, now())', [
      second.organization.id,
      member.user.id,
    ]);
    expect((await get(flags, { key: member.key })).status).toBe(200);
    const res = await get(`/api/projects/${second.project.id}/feature_flags`, { key: member.key });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(forbidden(`API key does not have access to the requested organization: ID ${second.organization.id}.`));

    const unscoped = await app.factories.key(member.user);
    expect((await get(`/api/projects/${second.project.id}/feature_flags`, { key: unscoped })).status).toBe(200);
  });

  it('checks the key limits before the scope', async () => {
    const other = await app.factories.project(world.organization);
    const member = await app.factories.member(world.organization, 'member', {
      projects: [world.project.id],
      scopes: ['feature_flag:read'],
    });
    const res = await post(`/api/projects/${other.id}/feature_flags`, member.key, { key: 'x' });
    expect(res.body).toEqual(forbidden(`API key does not have access to the requested project: ID ${other.id}.`));
  });
});
