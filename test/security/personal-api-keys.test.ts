import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { MikroORM } from '@mikro-orm/postgresql';
import pino from 'pino';
import { ormConfig } from '../../mikro-orm.config';
import { createApp } from '../../src/app';
import { CREDENTIAL_TTL_MS } from '../../src/app-caches';
import type { Member, World } from '../helpers/factories';
import { expectRefused, notProvided } from '../helpers/graphql-refusal';
import { fetchChecked } from '../helpers/openapi-contract';
import { GENEROUS_RATE_LIMITS, startTestApp, type ApiResponse, type RequestOptions, type TestApp } from '../helpers/test-app';

/**
 * Key hygiene over HTTP: `/api/personal_api_keys/` and its GraphQL twins serve the caller's own
 * keys only; the key itself appears in the create's answer and nowhere else; a revoked key is
 * refused within CREDENTIAL_TTL_MS.
 */

let app: TestApp;
let world: World;
const KEYS = '/api/personal_api_keys';

const err = (type: string, code: string, detail: string, attr: string | null = null) => ({ type, code, detail, attr });
const NOT_FOUND = err('invalid_request', 'not_found', 'Not found.');
const invalidKey = (where = 'Authorization header') =>
  err('authentication_error', 'authentication_failed', `Personal API key found in request ${where} is invalid.`);
const invalid = (detail: string, attr: string | null = null) => err('validation_error', 'invalid_input', detail, attr);
const forbidden = (detail: string) => err('authentication_error', 'permission_denied', detail);
const BROADER = forbidden('API key cannot create a key with more access than its own.');
const afterCredentialTtl = () => app.clock.advance(CREDENTIAL_TTL_MS + 1);

/** Every answer this file receives, and which key (if any) a create revealed in it. */
const answers: Array<{ what: string; text: string; revealed: string | null }> = [];
const createdKeys = new Set<string>();

async function request(path: string, options: RequestOptions = {}): Promise<ApiResponse> {
  const res = await app.request(path, options);
  const revealed = typeof res.body?.value === 'string' ? res.body.value : (res.body?.data?.createPersonalApiKey?.value ?? null);
  if (revealed) createdKeys.add(revealed);
  answers.push({ what: `${options.method ?? 'GET'} ${path}`, text: `${JSON.stringify([...res.headers])}${res.text}`, revealed });
  return res;
}
const graphql = (query: string, variables: Record<string, unknown> = {}, key?: string | null) =>
  request('/graphql', { method: 'POST', key, body: { query, variables } });

const create = (key: string, body: unknown) => request(KEYS, { method: 'POST', key, body });
const flagsOf = (projectId: number) => `/api/projects/${projectId}/feature_flags`;

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
});
afterAll(() => app.close());

describe("REST: the caller's own keys (PostHog's /api/personal_api_keys/)", () => {
  let member: Member;
  beforeAll(async () => {
    member = await app.factories.member(world.organization);
  });

  it("creates a key shown once, in PostHog's shape, stored only as its SHA-256 digest", async () => {
    const res = await create(member.key, { label: 'ci', scopes: ['feature_flag:read'] });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      label: 'ci',
      value: expect.stringMatching(/^phx_[0-9A-Za-z]{43}$/),
      mask_value: `phx_...${res.body.value.slice(-4)}`,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
      last_used_at: null,
      user_id: member.user.id,
      scopes: ['feature_flag:read'],
      scoped_teams: null,
      scoped_organizations: null,
    });
    const [row] = await app.factories.sql('select * from personal_api_key where id = ?', [res.body.id]);
    expect(row.secure_value).toBe(`sha256$${createHash('sha256').update(res.body.value).digest('hex')}`);
    expect(JSON.stringify(row)).not.toContain(res.body.value);
    expect(JSON.stringify(row)).not.toContain(res.body.value.slice(4, -4));

    // It works, within its scope.
    expect((await request(flagsOf(world.project.id), { key: res.body.value })).status).toBe(200);
    const write = await request(flagsOf(world.project.id), { method: 'POST', key: res.body.value, body: { key: 'by-new-key' } });
    expect(write.body).toEqual(forbidden("API key missing required scope 'feature_flag:write'"));
  });

  it("lists the caller's keys newest first without their values, and retrieves one (or @current)", async () => {
    const created = await create(member.key, { label: 'second', scopes: [] });
    const list = await request(KEYS, { key: member.key });
    expect(list.status).toBe(200);
    expect(Array.isArray(list.body)).toBe(true);
    expect(list.body[0]).toEqual({ ...created.body, value: null, scopes: ['*'] });
    expect(list.body.map((k: { id: number }) => k.id)).toEqual([...list.body.map((k: { id: number }) => k.id)].sort((a, b) => b - a));
    for (const key of list.body) {
      expect(key.value).toBeNull();
      expect(key.user_id).toBe(member.user.id);
    }
    // The calling key (made by the factory, unscoped) is listed, with its use recorded.
    const calling = list.body.find((k: { mask_value: string }) => k.mask_value === `phx_...${member.key.slice(-4)}`);
    expect(calling).toMatchObject({ scopes: ['*'], last_used_at: expect.stringMatching(/Z$/) });

    for (const path of [`${KEYS}/${created.body.id}`, `${KEYS}/${created.body.id}/`]) {
      const one = await request(path, { key: member.key });
      expect([path, one.status, one.body]).toEqual([path, 200, list.body[0]]);
    }
    const current = await request(`${KEYS}/@current/`, { key: member.key });
    expect(current.body).toEqual(calling);
  });

  it("hides other users' keys: 404 to retrieve or revoke, absent from the list", async () => {
    const other = await app.factories.member(world.organization, 'admin');
    const theirs = (await create(other.key, { label: 'theirs', scopes: ['*'] })).body;
    for (const method of ['GET', 'DELETE']) {
      const res = await request(`${KEYS}/${theirs.id}/`, { method, key: member.key });
      expect([method, res.status, res.body]).toEqual([method, 404, NOT_FOUND]);
    }
    for (const id of ['abc', '0', '99999999999', '2147483647']) {
      expect((await request(`${KEYS}/${id}/`, { key: member.key })).body).toEqual(NOT_FOUND);
    }
    const list = await request(KEYS, { key: member.key });
    expect(list.body.map((k: { id: number }) => k.id)).not.toContain(theirs.id);
    expect((await request(flagsOf(world.project.id), { key: theirs.value })).status).toBe(200);
  });

  it('answers PATCH and PUT with 405', async () => {
    const res = await request(`${KEYS}/@current/`, { method: 'PATCH', key: member.key, body: { label: 'x' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, DELETE');
  });

  it("validates the body with PostHog's messages", async () => {
    const other = await app.factories.world();
    const cases: Array<[unknown, object]> = [
      [{ scopes: ['*'] }, err('validation_error', 'required', 'This field is required.', 'label')],
      [{ label: '  ', scopes: ['*'] }, err('validation_error', 'blank', 'This field may not be blank.', 'label')],
      [
        { label: 'x'.repeat(41), scopes: ['*'] },
        err('validation_error', 'max_length', 'Ensure this field has no more than 40 characters.', 'label'),
      ],
      [{ label: 'l' }, err('validation_error', 'required', 'This field is required.', 'scopes')],
      [{ label: 'l', scopes: null }, err('validation_error', 'null', 'This field may not be null.', 'scopes')],
      [
        { label: 'l', scopes: 'feature_flag:read' },
        err('validation_error', 'not_a_list', 'Expected a list of items but got type "str".', 'scopes'),
      ],
      [{ label: 'l', scopes: ['feature_flag:delete'] }, invalid('Invalid scope: feature_flag:delete', 'scopes')],
      [
        { label: 'l', scopes: ['*'], scoped_teams: [other.project.id] },
        invalid('You must be a member of all projects that you are scoping the key to.', 'scoped_teams'),
      ],
      [
        { label: 'l', scopes: ['*'], scoped_teams: [999999999] },
        invalid('You must be a member of all projects that you are scoping the key to.', 'scoped_teams'),
      ],
      [{ label: 'l', scopes: ['*'], scoped_teams: ['x'] }, invalid('A valid integer is required.', 'scoped_teams')],
      [{ label: 'l', scopes: ['*'], scoped_organizations: ['nope'] }, invalid('Must be a valid UUID.', 'scoped_organizations')],
      [
        { label: 'l', scopes: ['*'], scoped_organizations: [other.organization.id] },
        invalid('You must be a member of all organizations that you are scoping the key to.', 'scoped_organizations'),
      ],
      [[1], invalid('Invalid data. Expected a dictionary, but got list.')],
    ];
    const before = (await request(KEYS, { key: member.key })).body.length;
    for (const [body, expected] of cases) {
      const res = await create(member.key, body);
      expect([body, res.status, res.body]).toEqual([body, 400, expected]);
    }
    expect((await request(KEYS, { key: member.key })).body).toHaveLength(before);

    const limited = await create(member.key, {
      label: 'limited',
      scopes: ['feature_flag:read'],
      scoped_teams: [world.project.id],
      scoped_organizations: [world.organization.id.toUpperCase()],
    });
    expect(limited.status).toBe(201);
    expect(limited.body).toMatchObject({ scoped_teams: [world.project.id], scoped_organizations: [world.organization.id] });
  });

  it('answers hostile values with 4xx, never 5xx', async () => {
    const hostile: unknown[] = [
      null,
      true,
      -1,
      0,
      2 ** 31,
      1e308,
      'x'.repeat(5000),
      '\u0000',
      '\ud800',
      [],
      [null],
      [[1]],
      [{}],
      ['\u0000'],
      {},
      { a: 1 },
    ];
    const crowd = await app.factories.member(world.organization);
    for (const field of ['label', 'scopes', 'scoped_teams', 'scoped_organizations']) {
      for (const value of hostile) {
        const res = await create(crowd.key, { label: 'hostile', scopes: ['*'], [field]: value });
        expect([field, value, res.status < 500]).toEqual([field, value, true]);
      }
    }
  });

  it('accepts a form body', async () => {
    const res = await request(KEYS, {
      method: 'POST',
      key: member.key,
      body: `label=form&scopes=${encodeURIComponent('["experiment:read"]')}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect([res.status, res.body.scopes]).toEqual([201, ['experiment:read']]);
  });

  it('lets a user hold at most 10 keys, even when creates race', async () => {
    const crowd = await app.factories.member(world.organization);
    const answers = await Promise.all(Array.from({ length: 14 }, (_, i) => create(crowd.key, { label: `k${i}`, scopes: ['*'] })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([...Array(9).fill(201), ...Array(5).fill(400)]);
    for (const answer of answers.filter((a) => a.status === 400)) {
      expect(answer.body).toEqual(invalid('You can only have 10 personal API keys. Remove an existing key before creating a new one.'));
    }
    expect((await request(KEYS, { key: crowd.key })).body).toHaveLength(10);
  });
});

describe('a key cannot make or revoke a key with more access than its own', () => {
  it("keeps a created key within the caller's scopes", async () => {
    const reader = await app.factories.member(world.organization, 'member', { scopes: ['feature_flag:read', 'experiment:write'] });
    for (const scopes of [['feature_flag:write'], ['*'], [], ['feature_flag:read', 'person:read']]) {
      const res = await create(reader.key, { label: 'wider', scopes });
      expect([scopes, res.status, res.body]).toEqual([scopes, 403, BROADER]);
    }
    for (const scopes of [['feature_flag:read'], ['experiment:read'], ['experiment:write', 'feature_flag:read']]) {
      const res = await create(reader.key, { label: 'narrower', scopes });
      expect([scopes, res.status]).toEqual([scopes, 201]);
    }
  });

  it("keeps a created key within the caller's projects and organizations", async () => {
    const other = await app.factories.project(world.organization);
    const pinned = await app.factories.member(world.organization, 'member', { projects: [world.project.id] });
    expect((await create(pinned.key, { label: 'any project', scopes: ['*'] })).body).toEqual(BROADER);
    expect((await create(pinned.key, { label: 'other project', scopes: ['*'], scoped_teams: [other.id] })).body).toEqual(BROADER);
    expect((await create(pinned.key, { label: 'same', scopes: ['*'], scoped_teams: [world.project.id] })).status).toBe(201);

    const orgPinned = await app.factories.member(world.organization, 'member', { organizations: [world.organization.id] });
    expect((await create(orgPinned.key, { label: 'any org', scopes: ['*'] })).body).toEqual(BROADER);
    expect((await create(orgPinned.key, { label: 'same org', scopes: ['*'], scoped_organizations: [world.organization.id] })).status).toBe(
      201,
    );
  });

  it('revokes itself, and others only when they have no more access', async () => {
    const user = await app.factories.member(world.organization);
    const narrow = (await create(user.key, { label: 'narrow', scopes: ['feature_flag:read'] })).body;
    const narrower = (await create(user.key, { label: 'narrower too', scopes: ['feature_flag:read'] })).body;
    const broad = (await create(user.key, { label: 'broad', scopes: ['*'] })).body;
    const refused = await request(`${KEYS}/${broad.id}/`, { method: 'DELETE', key: narrow.value });
    expect([refused.status, refused.body]).toEqual([403, forbidden('API key cannot revoke a key with more access than its own.')]);
    expect((await request(`${KEYS}/${narrower.id}/`, { method: 'DELETE', key: narrow.value })).status).toBe(204);
    expect((await request(`${KEYS}/@current/`, { method: 'DELETE', key: narrow.value })).status).toBe(204);
    const left = (await request(KEYS, { key: broad.value })).body.map((k: { id: number }) => k.id);
    expect(left).toContain(broad.id);
    expect(left).not.toContain(narrow.id);
    expect(left).not.toContain(narrower.id);
  });
});

describe('revocation', () => {
  it('refuses a revoked key with 401 within CREDENTIAL_TTL_MS, on REST and GraphQL, wherever the key is sent', async () => {
    const user = await app.factories.member(world.organization);
    const victim = (await create(user.key, { label: 'to revoke', scopes: ['*'] })).body;
    const flags = flagsOf(world.project.id);
    expect((await request(flags, { key: victim.value })).status).toBe(200);
    expect((await request(`${flags}/local_evaluation`, { key: victim.value })).status).toBe(200);

    const revoked = await request(`${KEYS}/${victim.id}/`, { method: 'DELETE', key: user.key });
    expect([revoked.status, revoked.text]).toEqual([204, '']);
    afterCredentialTtl();

    expect((await request(flags, { key: victim.value })).body).toEqual(invalidKey());
    expect((await request(`${flags}?personal_api_key=${victim.value}`)).body).toEqual(invalidKey('query string'));
    expect((await request(flags, { method: 'POST', body: { key: 'x', personal_api_key: victim.value } })).body).toEqual(invalidKey('body'));
    expect((await request(`${flags}/local_evaluation`, { key: victim.value })).status).toBe(401);
    expect((await request(KEYS, { key: victim.value })).status).toBe(401);
    const gql = await graphql('{ me { user { email } } }', {}, victim.value);
    expect(gql.body.errors[0]).toMatchObject({ message: invalidKey().detail, extensions: { code: 'UNAUTHENTICATED' } });
    expect((await request(`${KEYS}/${victim.id}/`, { key: user.key })).status).toBe(404);
    expect((await request(`${KEYS}/${victim.id}/`, { method: 'DELETE', key: user.key })).status).toBe(404);
  });

  it('revokes the calling key itself through @current', async () => {
    const user = await app.factories.member(world.organization);
    expect((await request(`${KEYS}/@current`, { method: 'DELETE', key: user.key })).status).toBe(204);
    afterCredentialTtl();
    expect((await request(KEYS, { key: user.key })).body).toEqual(invalidKey());
  });

  it("refuses a deactivated user's key management", async () => {
    const user = await app.factories.member(world.organization);
    await app.factories.sql('update app_user set is_active = false where id = ?', [user.user.id]);
    afterCredentialTtl();
    expect((await create(user.key, { label: 'x', scopes: ['*'] })).body).toEqual(invalidKey());
    expect((await request(KEYS, { key: user.key })).status).toBe(401);
  });
});

describe('GraphQL: personalApiKeys, createPersonalApiKey, revokePersonalApiKey', () => {
  const FIELDS = 'id label value maskValue scopes scopedTeams scopedOrganizations createdAt lastUsedAt userId';

  it('serves the same keys and rules as REST', async () => {
    const user = await app.factories.member(world.organization, 'member', { scopes: ['feature_flag:write'] });
    const made = await graphql(
      `mutation($input: PersonalApiKeyInput!) { createPersonalApiKey(input: $input) { ${FIELDS} } }`,
      {
        input: { label: 'gql', scopes: ['feature_flag:read'], scopedTeams: [world.project.id] },
      },
      user.key,
    );
    expect(made.body.errors).toBeUndefined();
    const created = made.body.data.createPersonalApiKey;
    expect(created).toMatchObject({
      label: 'gql',
      value: expect.stringMatching(/^phx_/),
      scopes: ['feature_flag:read'],
      scopedTeams: [world.project.id],
      userId: user.user.id,
    });

    const listed = await graphql(`{ personalApiKeys { ${FIELDS} } }`, {}, user.key);
    expect(listed.body.data.personalApiKeys[0]).toEqual({ ...created, value: null });
    const rest = await request(KEYS, { key: user.key });
    expect(rest.body.map((k: { id: number }) => k.id)).toEqual(listed.body.data.personalApiKeys.map((k: { id: number }) => k.id));
    const one = await graphql(
      `
        query ($id: ID!) {
          personalApiKey(id: $id) {
            id
            value
          }
        }
      `,
      { id: String(created.id) },
      user.key,
    );
    expect(one.body.data.personalApiKey).toEqual({ id: created.id, value: null });

    const broader = await graphql(
      `
        mutation {
          createPersonalApiKey(input: { label: "x", scopes: ["*"] }) {
            id
          }
        }
      `,
      {},
      user.key,
    );
    expect(broader.body.errors[0]).toMatchObject({
      message: BROADER.detail,
      extensions: { code: 'FORBIDDEN', reason: 'permission_denied' },
    });
    const missing = await graphql(
      `
        mutation {
          createPersonalApiKey(input: { label: "x" }) {
            id
          }
        }
      `,
      {},
      user.key,
    );
    // PersonalApiKeyInput.scopes is required ([String!]!): GraphQL validation refuses the document before the resolver runs.
    expectRefused(missing, notProvided('PersonalApiKeyInput.scopes', '[String!]!'), 'graphql_validation_failed');

    const stranger = (await app.factories.world()).owner;
    const hidden = await graphql(
      `
        query ($id: ID!) {
          personalApiKey(id: $id) {
            id
          }
        }
      `,
      { id: String(created.id) },
      stranger.key,
    );
    expect(hidden.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const notTheirs = await graphql(
      `
        mutation ($id: ID!) {
          revokePersonalApiKey(id: $id)
        }
      `,
      { id: String(created.id) },
      stranger.key,
    );
    expect(notTheirs.body.errors[0].extensions.code).toBe('NOT_FOUND');

    const revoked = await graphql(
      `
        mutation ($id: ID!) {
          revokePersonalApiKey(id: $id)
        }
      `,
      { id: String(created.id) },
      user.key,
    );
    expect(revoked.body).toEqual({ data: { revokePersonalApiKey: created.id } });
    afterCredentialTtl();
    expect((await request(flagsOf(world.project.id), { key: created.value })).status).toBe(401);
  });

  it('needs a key', async () => {
    const res = await graphql('{ personalApiKeys { id } }');
    expect(res.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });
});

describe('the key itself is never shown again', () => {
  it('appears in no answer but the create that made it', () => {
    expect(createdKeys.size).toBeGreaterThan(10);
    const leaks: string[] = [];
    for (const key of createdKeys) {
      for (const answer of answers) {
        if (answer.revealed !== key && answer.text.includes(key)) leaks.push(`${answer.what} shows ${key.slice(0, 8)}…`);
      }
    }
    expect(leaks).toEqual([]);
    // Nor any digest.
    expect(answers.filter((a) => a.text.includes('sha256$')).map((a) => a.what)).toEqual([]);
  });
});

describe('the key itself is never logged', () => {
  it('stays out of the service log at level trace, whatever the request and its outcome', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const { app: koa, stop } = await createApp({
      orm: app.orm,
      clock: app.clock,
      logger: pino({ level: 'trace' }, sink),
      rateLimit: GENEROUS_RATE_LIMITS,
    });
    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- Koa's handler settles every request's errors itself
    const server = createServer(koa.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const send = (path: string, init: RequestInit = {}) =>
      fetchChecked(`${base}${path}`, init).then((res) => ({ status: res.status, body: res.text }));
    try {
      const user = await app.factories.member(world.organization);
      const json = (key: string, body: unknown) => ({
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const created = JSON.parse((await send(KEYS, json(user.key, { label: 'logged?', scopes: ['*'] }))).body);
      const secrets = [user.key, created.value as string];
      for (const key of secrets) {
        await send(`${KEYS}?personal_api_key=${key}`);
        await send(`${flagsOf(world.project.id)}/%E0%A4%A?personal_api_key=${key}`);
        await send(`/api/projects/${world.project.id}/feature_flags/`, json(key, { key: 'x', filters: 'nope', personal_api_key: key }));
        await send('/graphql', json(key, { query: `{ personalApiKeys { id } } # ${key}` }));
        await send('/graphql', json(key, { query: '{ nope' }));
        await send('/batch/', json(key, { api_key: key, batch: 'nope' }));
        await send(`${KEYS}/`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: '{bad',
        });
      }
      await send(`${KEYS}/${created.id}/`, { method: 'DELETE', headers: { authorization: `Bearer ${user.key}` } });

      // And when the database is gone: what fails unexpectedly is logged with the request.
      const broken = await MikroORM.init({ ...ormConfig('postgresql://postgres@127.0.0.1:1/nowhere', { poolSize: 1 }), connect: false });
      const failing = await createApp({ orm: broken, logger: pino({ level: 'trace' }, sink), rateLimit: GENEROUS_RATE_LIMITS });
      // eslint-disable-next-line @typescript-eslint/no-misused-promises -- Koa's handler settles every request's errors itself
      const failingServer = createServer(failing.app.callback());
      await new Promise<void>((resolve) => failingServer.listen(0, '127.0.0.1', resolve));
      try {
        const failingBase = `http://127.0.0.1:${(failingServer.address() as AddressInfo).port}`;
        for (const key of secrets) {
          const rest = await fetchChecked(`${failingBase}${KEYS}?personal_api_key=${key}`);
          expect(rest.status).toBe(500);
          await fetchChecked(`${failingBase}/graphql?personal_api_key=${key}&query=${encodeURIComponent('{ personalApiKeys { id } }')}`);
          expect((await fetchChecked(`${failingBase}${KEYS}/`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(500);
        }
      } finally {
        await new Promise((resolve) => failingServer.close(resolve));
        await failing.stop();
        await broken.close(true);
      }

      const log = lines.join('');
      expect(log).toContain('"level":50');
      for (const key of secrets) expect(log.includes(key)).toBe(false);
      expect(log).not.toMatch(/phx_[0-9A-Za-z]{40}/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await stop();
    }
  });
});
