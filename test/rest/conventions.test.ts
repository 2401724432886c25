import { request as httpRequest } from 'node:http';
import { startTestApp, type TestApp } from '../helpers/test-app';
import type { World } from '../helpers/factories';

/** docs/rest-api.md §1: paths, encoding, errors and the pagination envelope, through HTTP. */

let app: TestApp;
let world: World;
let flags: string;
let flagIds: number[];

const err = (type: string, code: string, detail: string, attr: string | null = null) => ({ type, code, detail, attr });
const NOT_FOUND = err('invalid_request', 'not_found', 'Not found.');
const PARSE_ERROR = err('invalid_request', 'parse_error', 'JSON parse error - request body is not valid JSON.');

/** A request fetch cannot make (a GET with a body, a body without a content type). */
function raw(method: string, path: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const length: Record<string, string> = body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) };
    const req = httpRequest(`${app.baseUrl}${path}`, { method, headers: { ...length, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null }));
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

const list = (query = '', path = flags) => app.request(`${path}${query}`, { key: world.owner.key });

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
  flags = `/api/projects/${world.project.id}/feature_flags`;
  flagIds = [];
  for (const key of ['first', 'second', 'third']) {
    const res = await app.request(flags, { method: 'POST', key: world.owner.key, body: { key } });
    flagIds.push(res.body.id);
  }
});
afterAll(() => app.close());

describe('pagination (docs/README.md decision 5, §1.5)', () => {
  it('pages newest first with absolute next/previous URLs', async () => {
    const first = await list('?limit=1');
    expect(first.status).toBe(200);
    expect(Object.keys(first.body)).toEqual(['count', 'next', 'previous', 'results']);
    expect(first.body).toMatchObject({ count: 3, next: `${app.baseUrl}${flags}?limit=1&offset=1`, previous: null });
    expect(first.body.results.map((f: any) => f.key)).toEqual(['third']);

    const second = await list('?limit=1&offset=1');
    expect(second.body).toMatchObject({
      count: 3,
      next: `${app.baseUrl}${flags}?limit=1&offset=2`,
      previous: `${app.baseUrl}${flags}?limit=1`,
    });
    expect(second.body.results.map((f: any) => f.key)).toEqual(['second']);

    const last = await list('?limit=1&offset=2');
    expect(last.body).toMatchObject({ count: 3, next: null, previous: `${app.baseUrl}${flags}?limit=1&offset=1` });
    expect(last.body.results.map((f: any) => f.key)).toEqual(['first']);
  });

  it('answers a page past the end with no results and the true count', async () => {
    const res = await list('?limit=2&offset=10');
    expect(res.body).toEqual({ count: 3, next: null, previous: `${app.baseUrl}${flags}?limit=2&offset=8`, results: [] });
  });

  it('keeps the path as sent and re-serialises every parameter sorted, blanks kept', async () => {
    const res = await list('?search=&offset=0&zeta=a%20b&limit=1&active=true', `${flags}/`);
    expect(res.body.next).toBe(`${app.baseUrl}${flags}/?active=true&limit=1&offset=1&search=&zeta=a+b`);
    expect(res.body.previous).toBeNull();
  });

  it('keeps @current in the links', async () => {
    const res = await list('?limit=1', '/api/projects/@current/feature_flags');
    expect(res.body.next).toBe(`${app.baseUrl}/api/projects/@current/feature_flags?limit=1&offset=1`);
  });

  it('defaults to 100 with both links null when everything fits', async () => {
    const res = await list();
    expect(res.body).toMatchObject({ count: 3, next: null, previous: null });
    expect(res.body.results).toHaveLength(3);
  });

  // The effective limit shows in `previous` (offset - limit), so no thousand flags are needed.
  it.each([
    ['5000', 1000],
    ['1000', 1000],
    ['-3', 100],
    ['0', 100],
    ['x', 100],
    ['1.5', 100],
    ['', 100],
  ])('?limit=%s behaves as limit %i', async (limit, effective) => {
    const res = await list(`?limit=${limit}&offset=1500`);
    expect(res.status).toBe(200);
    expect(res.body.previous).toBe(`${app.baseUrl}${flags}?limit=${effective}&offset=${1500 - effective}`);
    expect(res.body.next).toBeNull();
  });

  it('pages by 1000 at most', async () => {
    const project = await app.factories.project(world.organization);
    await app.factories.sql(
      `insert into feature_flag (project_id, key, filters, created_at, updated_at, tags, analytics_dashboards)
       select ?, 'bulk-' || n, '{}', now(), now(), '{}', '{}' from generate_series(1, 1001) as n`,
      [project.id],
    );
    const path = `/api/projects/${project.id}/feature_flags`;
    const res = await app.request(`${path}?limit=5000`, { key: world.owner.key });
    expect(res.body.count).toBe(1001);
    expect(res.body.results).toHaveLength(1000);
    expect(res.body.next).toBe(`${app.baseUrl}${path}?limit=1000&offset=1000`);
    const rest = await app.request(`${path}?limit=5000&offset=1000`, { key: world.owner.key });
    expect(rest.body.results).toHaveLength(1);
    expect(rest.body.previous).toBe(`${app.baseUrl}${path}?limit=1000`);
  });

  it.each(['zz', '-5', '1.5', ''])('?offset=%s means offset 0', async (offset) => {
    const res = await list(`?limit=1&offset=${offset}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 3, previous: null, next: `${app.baseUrl}${flags}?limit=1&offset=1` });
    expect(res.body.results.map((f: any) => f.key)).toEqual(['third']);
  });

  it('regression: a limit of more than 9 digits was taken as invalid (100) instead of clamped to 1000', async () => {
    const res = await list('?limit=99999999999&offset=1500');
    expect(res.body.previous).toBe(`${app.baseUrl}${flags}?limit=1000&offset=500`);
  });

  it('regression: an offset of more than 9 digits was taken as invalid (first page) instead of past the end', async () => {
    const res = await list('?limit=1&offset=99999999999');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 3, next: null, results: [] });
  });

  it('takes the first of repeated parameters', async () => {
    const res = await list('?limit=1&limit=2');
    expect(res.body.results).toHaveLength(1);
    expect(res.body.next).toBe(`${app.baseUrl}${flags}?limit=1&offset=1`);
  });
});

describe('paths (§1.1)', () => {
  it.each([
    ['GET', ''],
    ['GET', '/'],
  ])('%s the list answers at "%s"', async (method, slash) => {
    const res = await app.request(`${flags}${slash}`, { method, key: world.owner.key });
    expect(res.status).toBe(200);
  });

  it('answers every flag route with and without the trailing slash, without redirecting', async () => {
    const id = flagIds[0];
    for (const slash of ['', '/']) {
      const created = await app.request(`${flags}${slash}`, {
        method: 'POST',
        key: world.owner.key,
        body: { key: `slash${slash ? '-yes' : '-no'}` },
      });
      expect(created.status).toBe(201);
      expect((await app.request(`${flags}/${id}${slash}`, { key: world.owner.key })).status).toBe(200);
      expect((await app.request(`${flags}/${id}${slash}`, { method: 'PATCH', key: world.owner.key, body: {} })).status).toBe(200);
      expect((await app.request(`${flags}/${id}${slash}`, { method: 'PUT', key: world.owner.key, body: { key: 'first' } })).status).toBe(
        200,
      );
      expect((await app.request(`${flags}/${id}${slash}`, { method: 'DELETE', key: world.owner.key })).status).toBe(405);
      await app.request(`${flags}/${created.body.id}`, { method: 'PATCH', key: world.owner.key, body: { deleted: true } });
    }
  });

  it.each(['abc', '0', '-1', '1.5', '99999999999', '2147483648', '%20', '1e3', '0x10'])(
    'answers flag id "%s" with 404 Not found. on every method',
    async (id) => {
      for (const method of ['GET', 'PATCH', 'PUT']) {
        const res = await app.request(`${flags}/${id}`, {
          method,
          key: world.owner.key,
          body: method === 'GET' ? undefined : { key: 'x' },
        });
        expect([method, res.status, res.body]).toEqual([method, 404, NOT_FOUND]);
      }
    },
  );

  it('answers an unknown flag id with 404', async () => {
    const res = await app.request(`${flags}/2147483647`, { key: world.owner.key });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(NOT_FOUND);
  });

  it.each(['/api/nothing', '/api/projects', `/api/projects/1/feature_flags/1/nothing`, '/'])(
    'answers an unknown path %s with 404 Not found., even without a key (a JSON client at / included: browsers get the console there)',
    async (path) => {
      const res = await app.request(path, { headers: { accept: 'application/json' } });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    },
  );

  it('answers an unsupported method on a known path with 405 and Allow', async () => {
    const onList = await app.request(flags, { method: 'PUT', key: world.owner.key, body: {} });
    expect(onList.status).toBe(405);
    expect(onList.body).toEqual(err('invalid_request', 'method_not_allowed', 'Method "PUT" not allowed.'));
    expect(onList.headers.get('allow')).toBe('GET, POST');

    const deleteList = await app.request(`${flags}/`, { method: 'DELETE', key: world.owner.key });
    expect(deleteList.status).toBe(405);
    expect(deleteList.body).toEqual(err('invalid_request', 'method_not_allowed', 'Method "DELETE" not allowed.'));

    const onFlag = await app.request(`${flags}/${flagIds[0]}`, { method: 'POST', key: world.owner.key, body: {} });
    expect(onFlag.status).toBe(405);
    expect(onFlag.body).toEqual(err('invalid_request', 'method_not_allowed', 'Method "POST" not allowed.'));
    expect(onFlag.headers.get('allow')).toBe('GET, PATCH, PUT');
  });

  it('authenticates and resolves the project before answering 405', async () => {
    const anonymous = await app.request(flags, { method: 'PUT', body: {} });
    expect(anonymous.status).toBe(401);
    const unknownProject = await app.request('/api/projects/999999/feature_flags', { method: 'PUT', key: world.owner.key, body: {} });
    expect(unknownProject.status).toBe(404);
    expect(unknownProject.body).toEqual(err('invalid_request', 'not_found', 'Project not found.'));
  });
});

describe('encoding (§1.2)', () => {
  it('answers JSON in UTF-8 with six-digit UTC timestamps', async () => {
    const res = await app.request(`${flags}/${flagIds[0]}`, { key: world.owner.key });
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.body.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
  });

  it.each([
    ['[1]', 'list'],
    ['"text"', 'str'],
    ['5', 'int'],
    ['true', 'bool'],
  ])('refuses the JSON body %s', async (body, typeName) => {
    const res = await app.request(flags, { method: 'POST', key: world.owner.key, body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(err('validation_error', 'invalid_input', `Invalid data. Expected a dictionary, but got ${typeName}.`));
  });

  it.each(['{bad', '{"key": "x",}', "{'key': 'x'}", '{"key": "x"} trailing'])(
    'answers malformed JSON %s with parse_error',
    async (body) => {
      const res = await app.request(flags, { method: 'POST', key: world.owner.key, body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(PARSE_ERROR);
    },
  );

  it('answers malformed JSON with parse_error on PATCH and PUT too', async () => {
    for (const method of ['PATCH', 'PUT']) {
      const res = await app.request(`${flags}/${flagIds[0]}`, { method, key: world.owner.key, body: '{bad' });
      expect([method, res.status, res.body]).toEqual([method, 400, PARSE_ERROR]);
    }
  });

  it('answers malformed JSON before authenticating (the key may be in the body)', async () => {
    const res = await app.request(flags, { method: 'POST', body: '{bad' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(PARSE_ERROR);
  });

  it('parses a DELETE body, then refuses the DELETE', async () => {
    const malformed = await app.request(`${flags}/${flagIds[0]}`, { method: 'DELETE', key: world.owner.key, body: '{bad' });
    expect(malformed.body).toEqual(PARSE_ERROR);
    const list = await app.request(`${flags}/${flagIds[0]}`, { method: 'DELETE', key: world.owner.key, body: [1] });
    expect([list.status, list.text]).toEqual([405, '']);
  });

  it('ignores a body sent with GET', async () => {
    const res = await raw('GET', flags, { authorization: `Bearer ${world.owner.key}`, 'content-type': 'application/json' }, '{bad');
    expect(res.status).toBe(200);
    const one = await raw(
      'GET',
      `${flags}/${flagIds[0]}`,
      { authorization: `Bearer ${world.owner.key}`, 'content-type': 'text/plain' },
      'hello',
    );
    expect(one.status).toBe(200);
  });

  it.each([
    ['text/plain', 'text/plain'],
    ['text/plain; charset=utf-8', 'text/plain'],
    ['application/xml', 'application/xml'],
    ['multipart/form-data; boundary=x', 'multipart/form-data'],
  ])('answers a %s body with 415', async (contentType, shown) => {
    const res = await app.request(flags, {
      method: 'POST',
      key: world.owner.key,
      body: '{"key":"x"}',
      headers: { 'content-type': contentType },
    });
    expect(res.status).toBe(415);
    expect(res.body).toEqual(err('invalid_request', 'unsupported_media_type', `Unsupported media type "${shown}" in request.`));
  });

  it('treats a request without a body as {}', async () => {
    const res = await app.request(`${flags}/${flagIds[1]}`, { method: 'PATCH', key: world.owner.key });
    expect(res.status).toBe(200);
  });

  it('regression: an empty JSON body was read as the text "" ("got str") instead of no body', async () => {
    const empty = await app.request(flags, {
      method: 'POST',
      key: world.owner.key,
      body: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual(err('validation_error', 'required', 'This field is required.', 'key'));
  });

  it('answers a body over 1 MiB with 413 and accepts one of exactly 1 MiB', async () => {
    const envelope = JSON.stringify({ key: 'size-limit', name: '' });
    const exact = JSON.stringify({ key: 'size-limit', name: 'n'.repeat(1_048_576 - envelope.length) });
    expect(Buffer.byteLength(exact)).toBe(1_048_576);
    const accepted = await app.request(flags, { method: 'POST', key: world.owner.key, body: exact });
    expect(accepted.status).toBe(201);

    const tooLarge = JSON.stringify({ key: 'too-large', name: 'n'.repeat(1_048_576) });
    for (const [body, contentType] of [
      [tooLarge, 'application/json'],
      [`key=too-large&name=${'n'.repeat(1_048_576)}`, 'application/x-www-form-urlencoded'],
    ]) {
      const res = await app.request(flags, { method: 'POST', key: world.owner.key, body, headers: { 'content-type': contentType } });
      expect(res.status).toBe(413);
      expect(res.body).toEqual(err('invalid_request', 'request_too_large', 'Request body exceeds 1048576 bytes.'));
    }
  });

  it('reads form bodies, with object and list fields as JSON text', async () => {
    const res = await app.request(flags, {
      method: 'POST',
      key: world.owner.key,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        key: 'form-flag',
        active: 'False',
        tags: '["Beta"]',
        filters: '{"groups":[{"rollout_percentage":30}]}',
      }).toString(),
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ key: 'form-flag', active: false, tags: ['beta'], rollout_percentage: 30 });
  });

  it('leaves too deeply nested JSON text of a form field as text', async () => {
    const res = await app.request(flags, {
      method: 'POST',
      key: world.owner.key,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ key: 'form-deep', filters: `{"groups":${'['.repeat(20000)}${']'.repeat(20000)}}` }).toString(),
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(err('validation_error', 'not_a_dict', 'Expected a dictionary of items but got type "str".', 'filters'));
  });

  it("regression: JSON nested 20000 deep overflowed the ORM serialiser's stack (500)", async () => {
    const deep = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
    for (const body of [
      `{"key":"deep-rollback","rollback_conditions":${deep(20000)}}`,
      `{"key":"deep-filters","filters":{"groups":[],"extra":${deep(20000)}}}`,
      deep(200000),
    ]) {
      const res = await app.request(flags, { method: 'POST', key: world.owner.key, body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(PARSE_ERROR);
    }
    // 1000 levels, the body object included, as Python's parser allows; one more is refused.
    const deepest = await app.request(flags, {
      method: 'POST',
      key: world.owner.key,
      body: `{"key":"nested-ok","rollback_conditions":${deep(999)}}`,
    });
    expect(deepest.status).toBe(201);
    expect(JSON.stringify(deepest.body.rollback_conditions)).toBe(deep(999));
    const tooDeep = await app.request(flags, {
      method: 'POST',
      key: world.owner.key,
      body: `{"key":"nested-no","rollback_conditions":${deep(1000)}}`,
    });
    expect(tooDeep.body).toEqual(PARSE_ERROR);
  });
});

describe('errors (§1.4)', () => {
  it('answers a body without a content type as 415, never 500', async () => {
    const res = await raw('POST', flags, { authorization: `Bearer ${world.owner.key}` }, '{"key":"x"}');
    expect(res.status).toBe(415);
    expect(res.body.code).toBe('unsupported_media_type');
  });
});
