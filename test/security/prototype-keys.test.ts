import type { World } from '../helpers/factories';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { capture, reader, uniqueId } from '../ingestion/capture-helpers';

/**
 * Names a caller chooses are data, never paths into Object.prototype (docs/remote-evaluation.md,
 * "The request"): group types and group properties named `__proto__` or `constructor`, sent with
 * the public token to every remote-evaluation path. Once a `/flags` request set
 * `Object.prototype.properties`, every later event without properties of any project carried its
 * `$set` into persons, and every list page past the end answered 500 until a restart.
 */
let app: TestApp;
let world: World;
let token: string;

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
  token = world.project.apiToken;
  // Group types of these names exist, so the request's groups are the project's groups.
  const groups = await capture(
    app,
    '/e/',
    `{"api_key":"${token}","event":"seen","distinct_id":"g","properties":{"$groups":{"__proto__":"acme","constructor":"c"}}}`,
  );
  expect(groups.status).toBe(200);
  const flag = await app.request(`/api/projects/${world.project.id}/feature_flags/`, {
    method: 'POST',
    key: world.owner.key,
    body: { key: 'everyone', filters: { groups: [{ properties: [], rollout_percentage: 100 }] } },
  });
  expect(flag.status).toBe(201);
});
afterAll(() => app.close());

const HOSTILE = '{"__proto__":"acme","constructor":"c"}';
const HOSTILE_PROPERTIES = '{"__proto__":{"$set":{"pwned":true},"x":1},"constructor":{"y":1},"toString":{"z":1}}';
const body = () => `{"token":"${token}","distinct_id":"${uniqueId()}","groups":${HOSTILE},"group_properties":${HOSTILE_PROPERTIES}}`;

const requests: Array<[string, () => Promise<{ status: number }>]> = [
  ['POST /flags?v=2', () => app.request('/flags/?v=2', { method: 'POST', body: body() })],
  ['POST /decide', () => app.request('/decide/?v=3', { method: 'POST', body: body() })],
  ['GET /decide?data=', () => app.request(`/decide/?v=3&data=${encodeURIComponent(Buffer.from(body()).toString('base64'))}`)],
];

it.each(requests)('%s answers and leaves Object.prototype as it was', async (_name, send) => {
  const res = await send();
  expect(res.status).toBe(200);
  expect(Object.getOwnPropertyNames(Object.prototype).filter((name) => ['properties', 'key', 'unread'].includes(name))).toEqual([]);
  expect(({} as Record<string, unknown>).properties).toBeUndefined();
});

it('answers a flag keyed __proto__ on /decide v3 like any other, with its payload', async () => {
  const flag = await app.request(`/api/projects/${world.project.id}/feature_flags/`, {
    method: 'POST',
    key: world.owner.key,
    body: { key: '__proto__', filters: { groups: [{ properties: [], rollout_percentage: 100 }], payloads: { true: '{"a":1}' } } },
  });
  expect(flag.status).toBe(201);
  const res = await app.request('/decide/?v=3', { method: 'POST', body: { token, distinct_id: uniqueId() } });
  expect(res.status).toBe(200);
  expect(Object.keys(res.body.featureFlags).sort()).toEqual(['__proto__', 'everyone']);
  expect(Object.entries(JSON.parse(res.text).featureFlagPayloads)).toEqual([['__proto__', '{"a":1}']]);
  await app.request(`/api/projects/${world.project.id}/feature_flags/${flag.body.id}/`, {
    method: 'PATCH',
    key: world.owner.key,
    body: { deleted: true },
  });
});

it('stores a later event without properties as sent, and still pages past the end', async () => {
  for (const [, send] of requests) expect((await send()).status).toBe(200);
  const id = uniqueId('after');
  expect((await capture(app, '/e/', { api_key: token, event: 'clean', distinct_id: id })).status).toBe(200);
  const read = reader(app, world);
  const [person] = (await read.persons(`?distinct_id=${id}`)).results;
  expect(person.properties).not.toHaveProperty('pwned');
  const [event] = (await read.events(`?distinct_id=${id}`)).results;
  expect(event.properties).not.toHaveProperty('x');
  const past = await app.request(`/api/projects/${world.project.id}/feature_flags/?offset=100`, { key: world.owner.key });
  expect([past.status, past.body.results]).toEqual([200, []]);
});
