import { gzipSync } from 'node:zlib';
import type { World } from '../helpers/factories';
import { checkResponse } from '../helpers/openapi-contract';
import { CREDENTIAL_TTL_MS } from '../../src/app-caches';
import { startTestApp, type ApiResponse, type TestApp } from '../helpers/test-app';
import { capture } from '../ingestion/capture-helpers';

/**
 * Remote evaluation (docs/remote-evaluation.md): /flags and /decide in every shape and body encoding,
 * the client config, CORS, the refusals, and what each request costs in statements.
 */

let app: TestApp;
let world: World;
let token: string;

const INVALID_TOKEN = {
  type: 'authentication_error',
  code: 'invalid_api_key',
  detail: 'Project API key invalid. You can find your project API key in your project settings.',
  attr: null,
};

async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<ApiResponse> {
  return app.request(path, { method: 'POST', body, headers });
}

async function createFlag(flag: Record<string, unknown>): Promise<number> {
  const res = await app.request(`/api/projects/${world.project.id}/feature_flags/`, { method: 'POST', key: world.owner.key, body: flag });
  expect({ status: res.status, body: res.status === 201 ? null : res.body }).toEqual({ status: 201, body: null });
  return res.body.id;
}

async function reasons(distinctId: string, groups?: Record<string, string>) {
  const query = `distinct_id=${encodeURIComponent(distinctId)}${groups ? `&groups=${encodeURIComponent(JSON.stringify(groups))}` : ''}`;
  const res = await app.request(`/api/projects/${world.project.id}/feature_flags/evaluation_reasons?${query}`, { key: world.owner.key });
  expect(res.status).toBe(200);
  return res.body as Record<string, { value: boolean | string; evaluation: { reason: string; condition_index: number | null } }>;
}

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
  token = world.project.apiToken;
  await createFlag({
    key: 'beta',
    name: 'Beta',
    filters: {
      groups: [{ properties: [{ key: 'plan', type: 'person', value: 'pro', operator: 'exact' }], rollout_percentage: 100 }],
      multivariate: {
        variants: [
          { key: 'control', rollout_percentage: 50 },
          { key: 'test', rollout_percentage: 50 },
        ],
      },
      payloads: { control: '{"color":"blue"}', test: '{"color":"red"}' },
    },
  });
  await createFlag({ key: 'everyone', filters: { groups: [{ properties: [], rollout_percentage: 100 }], payloads: { true: '"hello"' } } });
  await createFlag({ key: 'nobody', name: '', filters: { groups: [{ properties: [], rollout_percentage: 0 }] } });
  await createFlag({ key: 'switched-off', active: false, filters: { groups: [{ properties: [], rollout_percentage: 100 }] } });
  const deleted = await createFlag({ key: 'gone', filters: { groups: [{ properties: [], rollout_percentage: 100 }] } });
  expect(
    (
      await app.request(`/api/projects/${world.project.id}/feature_flags/${deleted}/`, {
        method: 'PATCH',
        key: world.owner.key,
        body: { deleted: true },
      })
    ).status,
  ).toBe(200);
  await createFlag({
    key: 'big-orgs',
    filters: {
      aggregation_group_type_index: 0,
      groups: [{ properties: [{ key: 'size', type: 'group', group_type_index: 0, value: '10', operator: 'gt' }] }],
    },
  });
  const batch = [
    { event: 'seen', distinct_id: 'pro-user', properties: { $set: { plan: 'pro' } } },
    { event: 'seen', distinct_id: 'free-user', properties: { $set: { plan: 'free' } } },
    {
      event: '$groupidentify',
      distinct_id: 'admin',
      properties: { $group_type: 'organization', $group_key: 'acme', $group_set: { size: 50 } },
    },
    {
      event: '$groupidentify',
      distinct_id: 'admin',
      properties: { $group_type: 'organization', $group_key: 'tiny', $group_set: { size: 2 } },
    },
  ];
  expect((await capture(app, '/batch/', { api_key: token, batch })).status).toBe(200);
});
afterAll(async () => {
  await app.close();
});

describe('the detailed shape (/flags?v=2, /decide?v=4)', () => {
  it('answers every active, non-deleted flag with reason, metadata and payload, equal to evaluation_reasons', async () => {
    const res = await post('/flags/?v=2', { token, distinct_id: 'pro-user' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.flags)).toEqual(['beta', 'everyone', 'nobody', 'big-orgs']);
    const server = await reasons('pro-user');
    for (const [key, flag] of Object.entries(res.body.flags as Record<string, { enabled: boolean; variant: string | null }>)) {
      const value = flag.variant ?? flag.enabled;
      expect({ key, value }).toEqual({ key, value: server[key].value });
    }
    const beta = res.body.flags.beta;
    expect(beta).toEqual({
      key: 'beta',
      enabled: true,
      variant: server.beta.value,
      reason: { code: 'condition_match', condition_index: 0, description: 'Matched condition set 1' },
      metadata: {
        id: expect.any(Number),
        version: expect.any(Number),
        payload: server.beta.value === 'control' ? '{"color":"blue"}' : '{"color":"red"}',
        description: 'Beta',
      },
    });
    expect(res.body.flags.everyone.metadata.payload).toBe('"hello"');
    expect(res.body.flags.nobody).toMatchObject({
      enabled: false,
      variant: null,
      reason: { code: 'out_of_rollout_bound', condition_index: 0, description: 'Out of rollout bound' },
      metadata: { payload: null, description: null },
    });
    expect(res.body.flags['big-orgs'].reason).toEqual({ code: 'no_group_type', condition_index: null, description: 'No group type' });
    expect(res.body.errorsWhileComputingFlags).toBe(false);
    expect(res.body.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get('x-request-id')).toBe(res.body.requestId);
  });

  it('answers a payload over 1 KiB whole under each condition set, first or not (it is kept apart from the members)', async () => {
    const payload = JSON.stringify({ text: 'x'.repeat(2_000) });
    const id = await createFlag({
      key: 'large-payload',
      filters: {
        groups: [
          { properties: [{ key: 'plan', type: 'person', value: 'pro', operator: 'exact' }], rollout_percentage: 100 },
          { properties: [{ key: 'plan', type: 'person', value: 'free', operator: 'exact' }], rollout_percentage: 100 },
        ],
        payloads: { true: payload },
      },
    });
    try {
      for (const [distinctId, index] of [
        ['pro-user', 0],
        ['free-user', 1],
        ['pro-user', 0],
      ] as const) {
        for (const flagKeys of [undefined, ['large-payload'], ['large-payload', 'everyone']]) {
          const res = await post('/flags/?v=2', { token, distinct_id: distinctId, ...(flagKeys ? { flag_keys: flagKeys } : {}) });
          expect(res.status).toBe(200);
          expect(res.body.flags['large-payload']).toEqual({
            key: 'large-payload',
            enabled: true,
            variant: null,
            reason: { code: 'condition_match', condition_index: index, description: `Matched condition set ${index + 1}` },
            metadata: { id, version: expect.any(Number), payload, description: null },
          });
          if (flagKeys?.includes('everyone')) expect(res.body.flags.everyone.metadata.payload).toBe('"hello"');
        }
      }
    } finally {
      const gone = await app.request(`/api/projects/${world.project.id}/feature_flags/${id}/`, {
        method: 'PATCH',
        key: world.owner.key,
        body: { deleted: true },
      });
      expect(gone.status).toBe(200);
    }
  });

  it('gives a new requestId per request, and /decide?v=4 the same flags', async () => {
    const a = await post('/flags?v=2', { token, distinct_id: 'free-user' });
    const b = await post('/decide/?v=4', { token, distinct_id: 'free-user' });
    expect(b.status).toBe(200);
    expect(a.body.requestId).not.toBe(b.body.requestId);
    // A client's X-Request-Id is not reused: the body's id is new, and the response header carries it.
    const traced = await post('/flags?v=2', { token, distinct_id: 'free-user' }, { 'x-request-id': 'client-42' });
    expect(traced.body.requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(traced.headers.get('x-request-id')).toBe(traced.body.requestId);
    const again = await post('/flags?v=2', { token, distinct_id: 'free-user' }, { 'x-request-id': 'client-42' });
    expect(again.body.requestId).not.toBe(traced.body.requestId);
    expect(b.body.flags).toEqual(a.body.flags);
    expect(a.body.flags.beta.reason).toEqual({ code: 'no_condition_match', condition_index: 0, description: 'No matching condition set' });
  });

  it('lets request properties win over stored ones, key by key; an unknown id uses the request alone', async () => {
    const overridden = await post('/flags/?v=2', { token, distinct_id: 'free-user', person_properties: { plan: 'pro' } });
    expect(overridden.body.flags.beta.enabled).toBe(true);
    const unknown = await post('/flags/?v=2', { token, distinct_id: 'never-seen', person_properties: { plan: 'pro' } });
    expect(unknown.body.flags.beta.enabled).toBe(true);
    const bare = await post('/flags/?v=2', { token, distinct_id: 'never-seen' });
    expect(bare.body.flags.beta.enabled).toBe(false);
  });

  it('evaluates group flags over the stored group, overlaid by group_properties', async () => {
    const acme = await post('/flags/?v=2', { token, distinct_id: 'pro-user', groups: { organization: 'acme' } });
    expect(acme.body.flags['big-orgs']).toMatchObject({ enabled: true, reason: { code: 'condition_match' } });
    expect((await reasons('pro-user', { organization: 'acme' }))['big-orgs'].value).toBe(true);
    const tiny = await post('/flags/?v=2', { token, distinct_id: 'pro-user', groups: { organization: 'tiny' } });
    expect(tiny.body.flags['big-orgs'].enabled).toBe(false);
    const grown = await post('/flags/?v=2', {
      token,
      distinct_id: 'pro-user',
      groups: { organization: 'tiny' },
      group_properties: { organization: { size: 11 } },
    });
    expect(grown.body.flags['big-orgs'].enabled).toBe(true);
  });

  it('narrows to flag_keys (or flag_keys_to_evaluate), empties on disable_flags', async () => {
    const some = await post('/flags/?v=2', { token, distinct_id: 'pro-user', flag_keys: ['everyone', 'no-such-flag', 'switched-off'] });
    expect(Object.keys(some.body.flags)).toEqual(['everyone']);
    const sdk = await post('/flags/?v=2', { token, distinct_id: 'pro-user', flag_keys_to_evaluate: ['beta'] });
    expect(Object.keys(sdk.body.flags)).toEqual(['beta']);
    const none = await post('/flags/?v=2', { token, distinct_id: 'pro-user', disable_flags: true });
    expect(none.body).toEqual({ flags: {}, errorsWhileComputingFlags: false, requestId: expect.any(String) });
  });
});

describe('the legacy shape (/flags, /flags?v=1, /decide, /decide?v=3)', () => {
  it('answers values and the payloads of enabled flags', async () => {
    const server = await reasons('pro-user');
    for (const path of ['/flags/', '/flags?v=1', '/decide/', '/decide?v=3']) {
      const res = await post(path, { api_key: token, distinct_id: 'pro-user' });
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      expect(res.body).toEqual({
        featureFlags: { beta: server.beta.value, everyone: true, nobody: false, 'big-orgs': false },
        featureFlagPayloads: { beta: server.beta.value === 'control' ? '{"color":"blue"}' : '{"color":"red"}', everyone: '"hello"' },
        errorsWhileComputingFlags: false,
      });
    }
    expect((await post('/decide/', { token, distinct_id: 'pro-user', disable_flags: true })).body.featureFlags).toEqual({});
  });
});

describe('body encodings', () => {
  const body = () => ({ token, distinct_id: 'pro-user' });
  const expected = async () => (await post('/flags/?v=2', body())).body.flags;

  it('reads gzip, ?compression=gzip-js, base64 and form bodies, and a GET with ?data=', async () => {
    const flags = await expected();
    const json = JSON.stringify(body());
    const base64 = Buffer.from(json).toString('base64');
    // Raw bodies go through fetch; their answers are checked against the OpenAPI document like request()'s.
    const send = (path: string, data: string | Buffer, headers: Record<string, string>) =>
      fetch(`${app.baseUrl}${path}`, { method: 'POST', body: data, headers }).then(async (r) => {
        const text = await r.text();
        await checkResponse('POST', path, r.status, r.headers.get('content-type'), text);
        return { status: r.status, body: JSON.parse(text) };
      });
    const answers = [
      await send('/flags/?v=2', gzipSync(json), { 'content-type': 'application/json', 'content-encoding': 'gzip' }),
      await send('/flags/?v=2&compression=gzip-js', gzipSync(json), { 'content-type': 'text/plain' }),
      await send('/flags/?v=2&compression=base64', base64, { 'content-type': 'text/plain' }),
      await send('/flags/?v=2', `data=${encodeURIComponent(base64)}`, { 'content-type': 'application/x-www-form-urlencoded' }),
      await send('/flags/?v=2', `data=${encodeURIComponent(json)}`, { 'content-type': 'application/x-www-form-urlencoded' }),
      await app.request(`/flags/?v=2&data=${encodeURIComponent(base64)}`),
      await app.request(`/flags/?v=2&data=${encodeURIComponent(json)}`),
    ];
    for (const answer of answers) expect({ status: answer.status, flags: answer.body.flags }).toEqual({ status: 200, flags });
  });

  it('sniffs a bare gzip body, and reads ?compression=gzip and a form `compression` field', async () => {
    const flags = await expected();
    const json = JSON.stringify(body());
    const gzipped = gzipSync(json);
    const send = (path: string, data: string | Buffer, headers: Record<string, string>) =>
      fetch(`${app.baseUrl}${path}`, { method: 'POST', body: data, headers }).then(async (r) => ({
        status: r.status,
        body: JSON.parse(await r.text()),
      }));
    const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
    const answers = {
      // gzip bytes with no Content-Encoding and no compression named: recognised by their magic number
      sniffed: await send('/flags/?v=2', gzipped, { 'content-type': 'application/json' }),
      sniffedPlain: await send('/flags/?v=2', gzipped, { 'content-type': 'text/plain' }),
      gzipParam: await send('/flags/?v=2&compression=gzip', gzipped, { 'content-type': 'text/plain' }),
      formGzip: await send('/flags/?v=2', form({ data: gzipped.toString('base64'), compression: 'gzip-js' }), {
        'content-type': 'application/x-www-form-urlencoded',
      }),
      formBase64: await send('/flags/?v=2', form({ data: Buffer.from(json).toString('base64'), compression: 'base64' }), {
        'content-type': 'application/x-www-form-urlencoded',
      }),
      legacyFormGzip: await send('/decide/?v=4', form({ data: gzipped.toString('base64'), compression: 'gzip' }), {
        'content-type': 'application/x-www-form-urlencoded',
      }),
    };
    for (const [how, answer] of Object.entries(answers)) {
      expect({ how, status: answer.status, flags: answer.body.flags }).toEqual({ how, status: 200, flags });
    }
    // A form naming a compression its data does not have is a 400, not a guess.
    const wrong = await send('/flags/?v=2', form({ data: Buffer.from(json).toString('base64'), compression: 'gzip' }), {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ type: 'validation_error', code: 'invalid_payload' });
  });

  it('refuses what it cannot decode with capture’s 400', async () => {
    const res = await fetch(`${app.baseUrl}/flags/?v=2`, { method: 'POST', body: 'not gzip', headers: { 'content-encoding': 'gzip' } });
    expect(res.status).toBe(400);
    const text = await res.text();
    await checkResponse('POST', '/flags/?v=2', res.status, res.headers.get('content-type'), text);
    expect(JSON.parse(text)).toMatchObject({
      type: 'validation_error',
      code: 'invalid_payload',
      detail: expect.stringMatching(/^Malformed request data: Failed to decompress/),
    });
    const bad = await post('/flags/?v=2', '{"token": ');
    expect(bad.body).toMatchObject({
      type: 'validation_error',
      code: 'invalid_payload',
      detail: expect.stringMatching(/^Malformed request data: Invalid JSON/),
    });
    expect((await post('/flags/?v=2', '[1, 2]')).status).toBe(400);
  });
});

describe('refusals', () => {
  it('401 for a missing or unknown token, in the body or ?token=', async () => {
    for (const res of [
      await post('/flags/?v=2', { distinct_id: 'x' }),
      await post('/flags/?v=2', { token: 'phc_unknown', distinct_id: 'x' }),
      await post('/decide/?v=3', { api_key: world.project.secretApiToken, distinct_id: 'x' }),
      await app.request('/flags/?v=2'),
      await app.request('/flags/?v=2&token=phc_nope'),
    ]) {
      expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: INVALID_TOKEN });
    }
    expect((await post(`/flags/?v=2&token=${token}`, { distinct_id: 'x' })).status).toBe(200);
  });

  it('401 for a personal API key alone: it is not a project token', async () => {
    for (const res of [
      await post('/flags/?v=2', { distinct_id: 'x' }, { authorization: `Bearer ${world.owner.key}` }),
      await post('/decide/', { distinct_id: 'x' }, { authorization: `Bearer ${world.owner.key}` }),
      await post('/flags/?v=2', { distinct_id: 'x', personal_api_key: world.owner.key }),
      await post('/flags/?v=2', { distinct_id: 'x', token: world.owner.key }),
      await app.request(`/flags/?v=2&personal_api_key=${world.owner.key}`, { method: 'POST', body: { distinct_id: 'x' } }),
    ]) {
      expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: INVALID_TOKEN });
    }
  });

  it('GET /decide?data= answers as the POST does', async () => {
    const posted = await post('/decide/', { token, distinct_id: 'pro-user' });
    const data = encodeURIComponent(Buffer.from(JSON.stringify({ token, distinct_id: 'pro-user' })).toString('base64'));
    for (const path of [`/decide/?data=${data}`, `/decide?v=3&data=${data}`]) {
      const res = await app.request(path);
      expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 200, body: posted.body });
    }
    const detailed = await app.request(`/decide/?v=4&data=${data}`);
    expect(detailed.body.flags).toEqual((await post('/flags/?v=2', { token, distinct_id: 'pro-user' })).body.flags);
    expect((await app.request(`/decide/?data=${encodeURIComponent(Buffer.from('{"distinct_id":"x"}').toString('base64'))}`)).body).toEqual(
      INVALID_TOKEN,
    );
  });

  it('answers OPTIONS on /decide and /array/:token/config[.js] as a CORS preflight', async () => {
    for (const [path, methods] of [
      ['/decide/', 'GET, POST, OPTIONS'],
      ['/decide?v=4', 'GET, POST, OPTIONS'],
      [`/array/${token}/config`, 'GET, OPTIONS'],
      [`/array/${token}/config.js`, 'GET, OPTIONS'],
    ]) {
      const res = await fetch(`${app.baseUrl}${path}`, {
        method: 'OPTIONS',
        headers: { origin: 'https://shop.example', 'access-control-request-method': 'GET' },
      });
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      expect(res.headers.get('access-control-allow-origin')).toBe('https://shop.example');
      expect(res.headers.get('access-control-allow-credentials')).toBe('true');
      expect(res.headers.get('access-control-allow-methods')).toBe(methods);
      expect(res.headers.get('access-control-allow-headers')).toBe('Content-Type');
    }
  });

  it('stops answering a rotated public token once its lookup expires (CREDENTIAL_TTL_MS); the new one works at once', async () => {
    const other = await app.factories.world();
    const old = other.project.apiToken;
    const ask = (phc: string) => post('/flags/?v=2', { token: phc, distinct_id: 'x' }).then((res) => res.status);
    expect(await ask(old)).toBe(200); // remembered from now on
    const rotated = `phc_rotated_${other.project.id}_${Date.now()}`;
    await app.factories.sql('update project set api_token = ? where id = ?', [rotated, other.project.id]);
    expect(await ask(rotated)).toBe(200);
    // Remembered until the app's clock passes the lookup's time to live, refused from then on.
    app.clock.advance(CREDENTIAL_TTL_MS - 1);
    expect(await ask(old)).toBe(200);
    app.clock.advance(2);
    expect(await ask(old)).toBe(401);
    expect((await app.request(`/array/${old}/config`)).status).toBe(404);
  });

  it('400 for a missing distinct_id or groups that is not an object, also on GET', async () => {
    const required = { type: 'validation_error', code: 'invalid', detail: 'distinct_id is required', attr: 'distinct_id' };
    for (const distinctId of [undefined, '', null, {}, [], true]) {
      const res = await post('/flags/?v=2', { token, distinct_id: distinctId });
      expect({ distinctId, status: res.status, body: res.body }).toEqual({ distinctId, status: 400, body: required });
    }
    expect((await app.request(`/flags/?v=2&token=${token}`)).body).toEqual(required);
    const groups = await post('/flags/?v=2', { token, distinct_id: 'x', groups: 'x' });
    expect(groups.status).toBe(400);
    expect(groups.body).toMatchObject({ type: 'validation_error', attr: 'groups' });
    expect(
      (await app.request(`/flags/?v=2&data=${encodeURIComponent(JSON.stringify({ token, distinct_id: 'x', groups: 'x' }))}`)).status,
    ).toBe(400);
    const numeric = await post('/flags/?v=2', { token, distinct_id: 42 });
    expect(numeric.status).toBe(200);
  });

  it('400 for person_properties or group_properties (or one of its entries) that is present but not an object', async () => {
    const refused = (attr: string, detail: string) => ({ type: 'validation_error', code: 'invalid', detail, attr });
    for (const value of ['x', 1, true, ['plan']]) {
      const person = await post('/flags/?v=2', { token, distinct_id: 'x', person_properties: value });
      expect({ value, status: person.status, body: person.body }).toEqual({
        value,
        status: 400,
        body: refused('person_properties', 'person_properties must be an object'),
      });
      const group = await post('/flags/?v=2', { token, distinct_id: 'x', group_properties: value });
      expect([group.status, group.body]).toEqual([400, refused('group_properties', 'group_properties must be an object')]);
      const entry = await post('/flags/?v=2', { token, distinct_id: 'x', group_properties: { company: value } });
      expect([entry.status, entry.body]).toEqual([400, refused('group_properties', 'group_properties.company must be an object')]);
    }
    // Absent and null are no properties, as posthog-js and posthog-node send them.
    for (const body of [{ person_properties: null, group_properties: null }, { group_properties: { company: null } }, {}]) {
      expect((await post('/flags/?v=2', { token, distinct_id: 'x', ...body })).status).toBe(200);
    }
  });

  it('405 for other methods, never a 500', async () => {
    for (const path of ['/flags/', '/decide', `/array/${token}/config`]) {
      const res = await app.request(path, { method: 'PUT', body: {} });
      expect({ path, status: res.status, body: res.body }).toEqual({
        path,
        status: 405,
        body: { type: 'invalid_request', code: 'method_not_allowed', detail: 'Method "PUT" not allowed.', attr: null },
      });
    }
  });

  it('answers 200 when the person cannot be read: the flags that need it are left out, the others answered, never a 5xx', async () => {
    await post('/flags/?v=2', { token, distinct_id: 'pro-user' }); // definitions cached
    const connection = app.orm.em.getConnection();
    await connection.execute('alter table person rename to person_away');
    let answers: ApiResponse[];
    try {
      answers = [
        await post('/flags/?v=2', { token, distinct_id: 'pro-user' }),
        await post('/decide/', { token, distinct_id: 'pro-user' }),
        // `plan` sent: beta no longer needs the stored person.
        await post('/flags/?v=2', { token, distinct_id: 'pro-user', person_properties: { plan: 'pro' } }),
      ];
    } finally {
      await connection.execute('alter table person_away rename to person');
    }
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(Object.keys(answers[0].body.flags)).toEqual(['everyone', 'nobody', 'big-orgs']);
    expect(answers[0].body.errorsWhileComputingFlags).toBe(true);
    expect(answers[1].body).toEqual({
      featureFlags: { everyone: true, nobody: false, 'big-orgs': false },
      featureFlagPayloads: { everyone: '"hello"' },
      errorsWhileComputingFlags: true,
    });
    expect(answers[2].body.flags.beta).toMatchObject({ enabled: true, reason: { code: 'condition_match' } });
    expect(answers[2].body.errorsWhileComputingFlags).toBe(false);
    expect((await post('/flags/?v=2', { token, distinct_id: 'pro-user' })).body.errorsWhileComputingFlags).toBe(false);
  });

  it('stores nothing', async () => {
    const before = (await app.request(`/api/projects/${world.project.id}/persons/`, { key: world.owner.key })).body.count;
    await post('/flags/?v=2', { token, distinct_id: 'brand-new', person_properties: { plan: 'pro' } });
    expect((await app.request(`/api/projects/${world.project.id}/persons/`, { key: world.owner.key })).body.count).toBe(before);
  });
});

describe('CORS', () => {
  it('answers a preflight and echoes the origin on answers and errors', async () => {
    const preflight = await fetch(`${app.baseUrl}/flags/?v=2`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-custom',
      },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    expect(preflight.headers.get('access-control-allow-credentials')).toBe('true');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type,x-custom');
    const answer = await post('/flags/?v=2', { token, distinct_id: 'x' }, { origin: 'https://shop.example' });
    expect(answer.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    expect(answer.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const refused = await post('/flags/?v=2', { distinct_id: 'x' }, { origin: 'https://shop.example' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe('https://shop.example');
  });
});

describe('client config', () => {
  it('/array/:token/config answers the config, config.js installs it, an unknown token is 404', async () => {
    const config = await app.request(`/array/${token}/config`);
    expect(config.status).toBe(200);
    expect(config.body).toMatchObject({
      supportedCompression: ['gzip', 'gzip-js'],
      sessionRecording: false,
      surveys: false,
      heatmaps: false,
      autocapture_opt_out: true,
      siteApps: [],
      defaultIdentifiedOnly: true,
    });
    expect(config.body.flags).toBeUndefined();
    const script = await app.request(`/array/${token}/config.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^application\/javascript/);
    const window: { _POSTHOG_REMOTE_CONFIG?: Record<string, { config: unknown; siteApps: unknown[] }> } = {};
    new Function('window', script.text)(window);
    expect(window._POSTHOG_REMOTE_CONFIG?.[token]).toEqual({ config: config.body, siteApps: [] });
    expect((await app.request('/array/phc_unknown/config')).status).toBe(404);
    expect((await app.request('/array/phc_unknown/config.js')).status).toBe(404);
  });

  it('?config=true adds the config to either shape', async () => {
    const detailed = await post('/flags/?v=2&config=true', { token, distinct_id: 'pro-user' });
    expect(detailed.body).toMatchObject({ flags: expect.any(Object), sessionRecording: false, supportedCompression: ['gzip', 'gzip-js'] });
    const legacy = await post('/flags/?config=true', { token, distinct_id: 'pro-user' });
    expect(legacy.body).toMatchObject({ featureFlags: expect.any(Object), surveys: false });
  });
});

describe('cost', () => {
  /** The statements a request sends, less the token's project (remembered for a second, so a slow machine may look it up again). */
  const statementsOf = async (request: () => Promise<unknown>) => await app.sqlDuring(request);

  it('reads the cached definitions: one statement for the person, one for the groups', async () => {
    await post('/flags/?v=2', { token, distinct_id: 'pro-user' }); // token and definitions cached
    const person = await statementsOf(() => post('/flags/?v=2', { token, distinct_id: 'pro-user' }));
    expect(person).toHaveLength(1);
    expect(person[0]).toMatch(/person_distinct_id/);
    const withGroups = await statementsOf(() => post('/flags/?v=2', { token, distinct_id: 'pro-user', groups: { organization: 'acme' } }));
    expect(withGroups).toHaveLength(2);
    expect(withGroups[1]).toMatch(/from "group"/);
    expect(await statementsOf(() => post('/flags/?v=2', { token, distinct_id: 'pro-user', disable_flags: true }))).toEqual([]);
  });

  it('still one statement for the person when flags use cohorts, static and dynamic (they come from the cache)', async () => {
    const cohort = async (body: Record<string, unknown>) => {
      const res = await app.request(`/api/projects/${world.project.id}/cohorts/`, { method: 'POST', key: world.owner.key, body });
      expect(res.status).toBe(201);
      return res.body.id as number;
    };
    const paying = await cohort({
      name: 'Paying',
      filters: { properties: { type: 'AND', values: [{ key: 'plan', type: 'person', value: 'pro', operator: 'exact' }] } },
    });
    const picked = await cohort({ name: 'Picked', is_static: true });
    expect(
      (
        await app.request(`/api/projects/${world.project.id}/cohorts/${picked}/persons/`, {
          method: 'POST',
          key: world.owner.key,
          body: { distinct_ids: ['free-user'] },
        })
      ).status,
    ).toBe(200);
    await createFlag({
      key: 'cohorts',
      filters: {
        groups: [
          { properties: [{ key: 'id', type: 'cohort', value: paying }] },
          { properties: [{ key: 'id', type: 'cohort', value: picked }] },
        ],
      },
    });
    expect((await post('/flags/?v=2', { token, distinct_id: 'pro-user' })).body.flags.cohorts.enabled).toBe(true);
    const sql = await statementsOf(async () => {
      expect((await post('/flags/?v=2', { token, distinct_id: 'free-user' })).body.flags.cohorts).toMatchObject({
        enabled: true,
        reason: { condition_index: 1 },
      });
    });
    expect(sql).toHaveLength(1);
    // The request's properties decide dynamic cohorts too.
    const overlaid = await post('/flags/?v=2', { token, distinct_id: 'nobody-yet', person_properties: { plan: 'pro' } });
    expect(overlaid.body.flags.cohorts.enabled).toBe(true);
    expect((await reasons('free-user')).cohorts.value).toBe(true);
  });

  it('serves a flag change at once (the cache is dropped on write)', async () => {
    await createFlag({ key: 'fresh', filters: { groups: [{ properties: [], rollout_percentage: 100 }] } });
    expect((await post('/flags/?v=2', { token, distinct_id: 'pro-user' })).body.flags.fresh.enabled).toBe(true);
  });
});

describe('the OpenAPI document', () => {
  it('describes every answer closely enough to refuse a wrong one', async () => {
    // Every app.request above is checked against the document; here the schemas are shown to be closed.
    const detailed = await post('/flags/?v=2&config=true', { token, distinct_id: 'pro-user' });
    const legacy = await post('/decide/', { token, distinct_id: 'pro-user' });
    const config = await app.request(`/array/${token}/config/`);
    expect([detailed.status, legacy.status, config.status]).toEqual([200, 200, 200]);
    const refused = (path: string, body: unknown) => checkResponse('POST', path, 200, 'application/json', JSON.stringify(body));
    await expect(refused('/flags/?v=2', { ...detailed.body, requestId: 7 })).rejects.toThrow(/does not match its OpenAPI schema/);
    await expect(refused('/flags/?v=2', { ...detailed.body, surprise: true })).rejects.toThrow(/does not match/);
    const beta = detailed.body.flags.beta;
    await expect(
      refused('/flags/?v=2', { ...detailed.body, flags: { beta: { ...beta, reason: { ...beta.reason, code: 'because' } } } }),
    ).rejects.toThrow(/does not match/);
    await expect(refused('/decide/', { ...legacy.body, featureFlags: { beta: 1 } })).rejects.toThrow(/does not match/);
    await expect(
      checkResponse('GET', `/array/${token}/config`, 200, 'application/json', JSON.stringify({ ...config.body, siteApps: [{}] })),
    ).rejects.toThrow(/does not match/);
    await expect(checkResponse('GET', `/array/${token}/config.js`, 200, 'application/json', '{}')).rejects.toThrow(
      /declares application\/javascript/,
    );
  });
});

describe('when something cannot be read or evaluated, only the flags that depend on it are left out', () => {
  let chosen: number;
  let proPlan: number;

  beforeAll(async () => {
    const cohort = async (body: Record<string, unknown>) => {
      const res = await app.request(`/api/projects/${world.project.id}/cohorts/`, { method: 'POST', key: world.owner.key, body });
      expect(res.status).toBe(201);
      return res.body.id as number;
    };
    chosen = await cohort({ name: 'Chosen', is_static: true });
    const added = await app.request(`/api/projects/${world.project.id}/cohorts/${chosen}/persons/`, {
      method: 'POST',
      key: world.owner.key,
      body: { distinct_ids: ['pro-user'] },
    });
    expect(added.status).toBe(200);
    proPlan = await cohort({
      name: 'Pro plan',
      filters: { properties: { type: 'AND', values: [{ key: 'plan', type: 'person', value: 'pro', operator: 'exact' }] } },
    });
    await createFlag({ key: 'on-static', filters: { groups: [{ properties: [{ key: 'id', type: 'cohort', value: chosen }] }] } });
    await createFlag({ key: 'on-dynamic', filters: { groups: [{ properties: [{ key: 'id', type: 'cohort', value: proPlan }] }] } });
  });

  const keys = (res: ApiResponse) => Object.keys(res.body.flags).sort();

  it('a database error while loading static cohort members: the flags that need the stored person are absent', async () => {
    const healthy = await post('/flags/?v=2', { token, distinct_id: 'pro-user' });
    expect(healthy.body.errorsWhileComputingFlags).toBe(false);
    expect(healthy.body.flags['on-static'].enabled).toBe(true);
    expect(healthy.body.flags['on-dynamic'].enabled).toBe(true);
    const everything = keys(healthy);

    const connection = app.orm.em.getConnection();
    await connection.execute('alter table cohort_person rename to cohort_person_away');
    let bare: ApiResponse, sent: ApiResponse;
    try {
      bare = await post('/flags/?v=2', { token, distinct_id: 'pro-user' });
      sent = await post('/flags/?v=2', { token, distinct_id: 'pro-user', person_properties: { plan: 'pro' } });
    } finally {
      await connection.execute('alter table cohort_person_away rename to cohort_person');
    }
    // The person's statement also reads the static members, so its properties are lost with them:
    // flags on stored properties or cohorts are absent; flags that need neither are answered.
    expect({ status: bare.status, errors: bare.body.errorsWhileComputingFlags }).toEqual({ status: 200, errors: true });
    expect(keys(bare)).toEqual(everything.filter((key) => !['beta', 'cohorts', 'on-static', 'on-dynamic'].includes(key)));
    for (const key of keys(bare)) expect(bare.body.flags[key]).toEqual(healthy.body.flags[key]);
    // Sending `plan` decides beta and the dynamic cohorts; the static cohort's members stay unknown.
    // (`cohorts` matches its first condition, a dynamic cohort, before it would need the static one.)
    expect({ status: sent.status, errors: sent.body.errorsWhileComputingFlags }).toEqual({ status: 200, errors: true });
    expect(keys(sent)).toEqual(everything.filter((key) => key !== 'on-static'));
    expect(sent.body.flags['on-dynamic'].enabled).toBe(true);
    expect(sent.body.flags.cohorts).toMatchObject({ enabled: true, reason: { condition_index: 0 } });

    const restored = await post('/flags/?v=2', { token, distinct_id: 'pro-user' });
    expect(restored.body).toEqual({ ...healthy.body, requestId: expect.any(String) });
  });

  it('a database error while loading the groups: only group flags that need stored group properties are absent', async () => {
    const connection = app.orm.em.getConnection();
    await connection.execute('alter table "group" rename to group_away');
    let bare: ApiResponse, sent: ApiResponse;
    try {
      bare = await post('/flags/?v=2', { token, distinct_id: 'pro-user', groups: { organization: 'acme' } });
      sent = await post('/flags/?v=2', {
        token,
        distinct_id: 'pro-user',
        groups: { organization: 'acme' },
        group_properties: { organization: { size: 50 } },
      });
    } finally {
      await connection.execute('alter table group_away rename to "group"');
    }
    expect({ status: bare.status, errors: bare.body.errorsWhileComputingFlags }).toEqual({ status: 200, errors: true });
    expect(bare.body.flags['big-orgs']).toBeUndefined();
    expect(bare.body.flags['on-static'].enabled).toBe(true); // the person was read
    expect(sent.body.flags['big-orgs']).toMatchObject({ enabled: true, reason: { code: 'condition_match' } });
    expect(sent.body.errorsWhileComputingFlags).toBe(false);
  });

  it('a flag whose evaluation fails (a cohort chain too deep to follow) is absent; the others are answered', async () => {
    // 5,000 cohorts, each referring to the one before (the API accepts every link; SQL makes them quickly).
    await app.orm.em.getConnection().execute(`
      do $$
      declare previous int := ${proPlan};
      begin
        for i in 1..5000 loop
          insert into cohort (project_id, name, filters, created_at, updated_at)
          values (${world.project.id}, 'link ' || i, jsonb_build_object('properties', jsonb_build_object('type', 'AND',
                  'values', jsonb_build_array(jsonb_build_object('key', 'id', 'type', 'cohort', 'value', previous)))), now(), now())
          returning id into previous;
        end loop;
      end $$`);
    const [{ top, shallow }] = await app.orm.em
      .getConnection()
      .execute(`select max(id) as top, min(id) + 9 as shallow from cohort where project_id = ? and name like 'link %'`, [world.project.id]);
    await createFlag({ key: 'too-deep', filters: { groups: [{ properties: [{ key: 'id', type: 'cohort', value: top }] }] } });
    await createFlag({ key: 'ten-deep', filters: { groups: [{ properties: [{ key: 'id', type: 'cohort', value: shallow }] }] } });
    // Evaluated after too-deep, on a cohort that too-deep's failed walk went through: it must fail too, not read "not a member".
    await createFlag({ key: 'also-too-deep', filters: { groups: [{ properties: [{ key: 'id', type: 'cohort', value: top - 5 }] }] } });
    const res = await post('/flags/?v=2', { token, distinct_id: 'pro-user' });
    expect({ status: res.status, errors: res.body.errorsWhileComputingFlags }).toEqual({ status: 200, errors: true });
    expect(res.body.flags['too-deep']).toBeUndefined();
    expect(res.body.flags['also-too-deep']).toBeUndefined();
    expect(res.body.flags['ten-deep'].enabled).toBe(true);
    expect(res.body.flags['on-dynamic'].enabled).toBe(true); // the same cohort, asked by another flag
    expect(res.body.flags.everyone.enabled).toBe(true);
    const legacy = await post('/decide/', { token, distinct_id: 'pro-user' });
    expect(legacy.body.featureFlags['too-deep']).toBeUndefined();
    expect(legacy.body.errorsWhileComputingFlags).toBe(true);
  });
});
