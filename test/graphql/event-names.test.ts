import type { World } from '../helpers/factories';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { capture } from '../ingestion/capture-helpers';

/** `eventNames` (docs/graphql.md, "Event names"): the names the console offers when a metric names an event. */

let app: TestApp;
let world: World;
let projectId: string;

const NAMES = `query($p: ID!, $search: String, $limit: Int) { eventNames(projectId: $p, search: $search, limit: $limit) }`;
const names = (variables: Record<string, unknown> = {}, key = world.owner.key) => app.graphql(NAMES, { p: projectId, ...variables }, key);

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
  projectId = String(world.project.id);
  const batch = [
    { event: 'signup', distinct_id: 'a', timestamp: '2024-01-01T00:00:00Z' },
    { event: 'signup', distinct_id: 'b', timestamp: '2024-01-05T00:00:00Z' },
    { event: 'Purchase', distinct_id: 'a', timestamp: '2024-01-03T00:00:00Z' },
    { event: 'purchase_failed', distinct_id: 'a', timestamp: '2024-01-04T00:00:00Z' },
    { event: '$pageview', distinct_id: 'c', timestamp: '2024-01-02T00:00:00Z' },
    { event: 'a%_b', distinct_id: 'c', timestamp: '2023-12-01T00:00:00Z' },
    { event: 'why?', distinct_id: 'c', timestamp: '2023-11-01T00:00:00Z' },
  ].map((e) => ({ properties: {}, ...e }));
  const res = await capture(app, '/batch/', { api_key: world.project.apiToken, batch });
  expect(res.status).toBe(200);
  // Another project's events are never offered.
  const other = await app.factories.world();
  await capture(app, '/batch/', { api_key: other.project.apiToken, batch: [{ event: 'elsewhere', distinct_id: 'z', properties: {} }] });
});
afterAll(() => app.close());

describe('eventNames', () => {
  it('lists each stored name once, most recently seen first, then by name', async () => {
    const res = await names();
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ eventNames: ['signup', 'purchase_failed', 'Purchase', '$pageview', 'a%_b', 'why?'] });
  });

  it('narrows to a case-insensitive substring, read literally, and bounds the count', async () => {
    expect((await names({ search: 'PURCH' })).body.data).toEqual({ eventNames: ['purchase_failed', 'Purchase'] });
    expect((await names({ search: '%_' })).body.data).toEqual({ eventNames: ['a%_b'] });
    expect((await names({ search: '.*' })).body.data).toEqual({ eventNames: [] });
    // A `?` is text, not a placeholder; a NUL is refused at the field before any statement.
    expect((await names({ search: 'y?' })).body.data).toEqual({ eventNames: ['why?'] });
    const nul = await names({ search: 'a\u0000' });
    expect(nul.body.errors![0].extensions).toMatchObject({ attr: 'search', reason: 'null_characters_not_allowed' });
    expect((await names({ limit: 2 })).body.data).toEqual({ eventNames: ['signup', 'purchase_failed'] });
    // Past 1000 or below 1: clamped / the default, as for other lists.
    expect((await names({ limit: 100_000 })).body.data.eventNames).toHaveLength(6);
    expect((await names({ limit: 0 })).body.data.eventNames).toHaveLength(6);
  });

  it('refuses a search past 200 characters at the field, and keys without query:read', async () => {
    const long = await names({ search: 'x'.repeat(201) });
    expect(long.body.errors![0].extensions).toMatchObject({ attr: 'search', reason: 'max_length' });
    expect((await names({ search: 'x'.repeat(200) })).body.data).toEqual({ eventNames: [] });

    const flagsOnly = await app.factories.key(world.owner.user, { scopes: ['feature_flag:read'] });
    const refused = await names({}, flagsOnly);
    expect(refused.body.errors![0].extensions.code).toBe('FORBIDDEN');
    const reader = await app.factories.key(world.owner.user, { scopes: ['query:read'] });
    expect((await names({}, reader)).body.data.eventNames).toHaveLength(6);
  });
});
