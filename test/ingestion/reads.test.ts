import { startTestApp, type TestApp } from '../helpers/test-app';
import { capture, reader, uniqueId } from './capture-helpers';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

async function freshProject() {
  const world = await app.factories.world();
  const send = async (...batch: Array<Record<string, unknown>>) => {
    const res = await capture(app, '/batch/', { api_key: world.project.apiToken, batch });
    expect(res.status).toBe(200);
  };
  return { world, send, read: reader(app, world) };
}

describe('groups (docs/ingestion.md §4)', () => {
  it('registers types in order of first appearance, at most five', async () => {
    const { send, read } = await freshProject();
    const d = uniqueId();
    await send({ event: 'x', distinct_id: d, properties: { $groups: { organization: 'o1', company: 'c1' } } });
    const [first] = (await read.events(`?distinct_id=${d}`)).results;
    expect(first.properties).toMatchObject({ $group_0: 'o1', $group_1: 'c1' });
    await send({ event: 'y', distinct_id: d, properties: { $groups: { t3: 3, t4: 'k4', t5: 'k5', t6: 'k6', bad: { no: 1 } } } });
    const types = await read.get('groups_types/');
    expect(types).toEqual(
      ['organization', 'company', 't3', 't4', 't5'].map((group_type, group_type_index) => ({
        group_type,
        group_type_index,
        name_singular: null,
        name_plural: null,
      })),
    );
    const [second] = (await read.events(`?distinct_id=${d}&event=y`)).results;
    expect(second.properties).toMatchObject({ $group_2: '3', $group_3: 'k4', $group_4: 'k5' });
    expect(second.properties).not.toHaveProperty('$group_5');
  });

  it('upserts groups from $groupidentify and creates no person', async () => {
    const { send, read } = await freshProject();
    await send({
      event: '$groupidentify',
      distinct_id: '$organization_o1',
      properties: { $group_type: 'organization', $group_key: 'o1', $group_set: { name: 'A', n: 1 } },
      timestamp: '2024-05-01T00:00:00Z',
    });
    await send({
      event: '$groupidentify',
      distinct_id: '$organization_o1',
      properties: { $group_type: 'organization', $group_key: 'o1', $group_set: { name: 'B' } },
    });
    await send(
      {
        event: '$groupidentify',
        distinct_id: '$organization_o2',
        properties: { $group_type: 'organization', $group_key: 'o2', $group_set: 'nope' },
      },
      {
        event: '$groupidentify',
        distinct_id: '$organization_o2',
        properties: { $group_type: 'organization', $group_key: 'o2', $group_set: { a: 1 } },
      },
      {
        event: '$groupidentify',
        distinct_id: '$organization_o2',
        properties: { $group_type: 'organization', $group_key: 'o2', $group_set: { b: 2 } },
      },
      { event: '$groupidentify', distinct_id: 'whoever', properties: { $group_type: 'organization', $group_key: { bad: 1 } } },
    );
    const groups = await read.get('groups/?group_type_index=0');
    expect(groups.count).toBe(2);
    expect(groups.results[1]).toEqual({
      group_type_index: 0,
      group_key: 'o1',
      group_properties: { name: 'B', n: 1 },
      created_at: '2024-05-01T00:00:00.000000Z',
    });
    expect(groups.results[0]).toMatchObject({ group_key: 'o2', group_properties: { a: 1, b: 2 } });
    expect((await read.persons()).count).toBe(0);
    expect((await read.events('?event=$groupidentify')).count).toBe(6);
    expect((await read.get('groups/?group_type_index=0&search=O1')).results.map((g: any) => g.group_key)).toEqual(['o1']);
    expect(
      (await read.get(`groups/?group_type_index=0&search=${encodeURIComponent('"b": 2')}`)).results.map((g: any) => g.group_key),
    ).toEqual(['o2']);
  });
});

describe('read endpoints (§6)', () => {
  it('checks scopes, requires group_type_index and paginates', async () => {
    const { world, send, read } = await freshProject();
    const d = uniqueId();
    await send(...Array.from({ length: 3 }, (_, i) => ({ event: 'purchase', distinct_id: d, properties: { i } })), {
      event: 'other',
      distinct_id: d,
    });
    const narrow = await app.factories.key(world.owner.user, { scopes: ['feature_flag:read'] });
    for (const [path, scope] of [
      ['persons/', 'person:read'],
      ['events/', 'query:read'],
      ['groups/?group_type_index=0', 'group:read'],
      ['groups_types/', 'group:read'],
    ]) {
      const res = await app.request(`${read.base}/${path}`, { key: narrow });
      expect(res.status).toBe(403);
      expect(res.body.detail).toBe(`API key missing required scope '${scope}'`);
    }
    expect((await app.request(`${read.base}/persons/`)).status).toBe(401);
    const other = await app.factories.world();
    expect((await app.request(`${read.base}/events/`, { key: other.owner.key })).status).toBe(403);
    for (const query of ['', '?group_type_index=5', '?group_type_index=x']) {
      const res = await app.request(`${read.base}/groups/${query}`, { key: world.owner.key });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        type: 'validation_error',
        code: 'invalid_input',
        detail: 'You must pass ?group_type_index= in this URL. To get a list of valid group types, call /api/:project_id/groups_types/.',
        attr: 'group_type_index',
      });
    }
    const page = await read.events('?event=purchase&limit=1');
    expect(page.count).toBe(3);
    expect(page.results).toHaveLength(1);
    expect(page.next).toMatch(/[?&]offset=1/);
    expect(page.previous).toBeNull();
    const last = await read.get('events/?event=purchase&limit=1&offset=2');
    expect(last.next).toBeNull();
    expect((await read.get('events/?event=purchase&limit=1&offset=9')).count).toBe(3);
    expect((await app.request(`${read.base}/events/`, { method: 'POST', key: world.owner.key, body: {} })).status).toBe(405);
    expect((await app.request(`${read.base}/persons/1/`, { method: 'DELETE', key: world.owner.key })).status).toBe(405);
  });

  it('filters events by name, distinct id, person and time, newest first', async () => {
    const { world, send, read } = await freshProject();
    const [d1, d2] = [uniqueId(), uniqueId()];
    await send(
      { event: 'a', distinct_id: d1, timestamp: '2024-01-01T00:00:00Z' },
      { event: 'b', distinct_id: d1, timestamp: '2024-01-02T00:00:00Z' },
      { event: 'a', distinct_id: d2, timestamp: '2024-01-03T00:00:00Z' },
      { event: 'a', distinct_id: d2, timestamp: '2024-01-03T00:00:00Z', properties: { second: true } },
    );
    const all = await read.events();
    expect(all.results.map((e: any) => [e.event, e.timestamp])).toEqual([
      ['a', '2024-01-03T00:00:00.000Z'],
      ['a', '2024-01-03T00:00:00.000Z'],
      ['b', '2024-01-02T00:00:00.000Z'],
      ['a', '2024-01-01T00:00:00.000Z'],
    ]);
    expect(all.results[0].properties).toEqual({ second: true });
    expect(Object.keys(all.results[0])).toEqual(['id', 'event', 'distinct_id', 'properties', 'timestamp', 'person_id', 'created_at']);
    expect((await read.events('?event=a')).count).toBe(3);
    expect((await read.events(`?distinct_id=${d1}`)).count).toBe(2);
    expect((await read.events('?after=2024-01-01T00:00:00Z&before=2024-01-03')).results.map((e: any) => e.event)).toEqual(['b']);
    const person = await read.personOf(d1);
    expect((await read.events(`?person_id=${person.uuid.toUpperCase()}`)).count).toBe(2);
    for (const [query, attr] of [
      ['?after=yesterday', 'after'],
      ['?before=2024-13-01', 'before'],
      ['?person_id=nope', 'person_id'],
    ]) {
      const res = await app.request(`${read.base}/events/${query}`, { key: world.owner.key });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ type: 'validation_error', code: 'invalid_input', attr });
    }
  });

  it('lists persons newest first, by distinct id or search; unknown ids are 404', async () => {
    const { world, send, read } = await freshProject();
    const [d1, d2] = [uniqueId('alpha'), uniqueId('beta')];
    await send({ event: 'x', distinct_id: d1, timestamp: '2024-01-01T00:00:00Z', properties: { $set: { email: 'Alpha@Example.com' } } });
    await send({ event: 'x', distinct_id: d2, timestamp: '2024-02-01T00:00:00Z', properties: { $set: { plan: 'pro' } } });
    const persons = await read.persons();
    expect(persons.results.map((p: any) => p.name)).toEqual([d2, 'Alpha@Example.com']);
    expect((await read.persons('?search=alpha@example')).results.map((p: any) => p.distinct_ids)).toEqual([[d1]]);
    expect((await read.persons('?search=BETA')).results.map((p: any) => p.distinct_ids)).toEqual([[d2]]);
    expect((await read.persons('?search=%25')).count).toBe(0);
    for (const id of ['999999999', '00000000-0000-4000-8000-000000000000', 'nope', '99999999999999999999']) {
      expect((await app.request(`${read.base}/persons/${id}/`, { key: world.owner.key })).status).toBe(404);
    }
    const other = await freshProject();
    const mine = await read.personOf(d1);
    expect((await app.request(`${other.read.base}/persons/${mine.id}/`, { key: other.world.owner.key })).status).toBe(404);
  });

  it('answers the same through GraphQL', async () => {
    const { world, send } = await freshProject();
    const d = uniqueId();
    await send({ event: '$pageview', distinct_id: d, properties: { $set: { email: 'g@example.com' }, $groups: { org: 'o' } } });
    await send({
      event: '$groupidentify',
      distinct_id: '$org_o',
      properties: { $group_type: 'org', $group_key: 'o', $group_set: { name: 'O' } },
    });
    const res = await app.graphql(
      `query($p: ID!, $d: String) {
        persons(projectId: $p, distinctId: $d) { count results { id uuid name distinctIds properties isIdentified } }
        events(projectId: $p, distinctId: $d, limit: 1) { count results { uuid event distinctId timestamp personId properties } }
        groupTypes(projectId: $p) { groupType groupTypeIndex }
        groups(projectId: $p, groupTypeIndex: 0) { count results { groupKey groupProperties } }
      }`,
      { p: String(world.project.id), d },
      world.owner.key,
    );
    expect(res.body.errors).toBeUndefined();
    const { persons, events, groupTypes, groups } = res.body.data;
    expect(persons.results[0]).toMatchObject({
      name: 'g@example.com',
      distinctIds: [d],
      properties: { email: 'g@example.com' },
      isIdentified: false,
    });
    expect(events.results[0]).toMatchObject({
      event: '$pageview',
      distinctId: d,
      personId: persons.results[0].uuid,
      properties: { $group_0: 'o' },
    });
    expect(groupTypes).toEqual([{ groupType: 'org', groupTypeIndex: 0 }]);
    expect(groups.results).toEqual([{ groupKey: 'o', groupProperties: { name: 'O' } }]);
    const person = await app.graphql(
      `query($p: ID!, $id: String!) { person(projectId: $p, id: $id) { uuid } }`,
      { p: String(world.project.id), id: String(persons.results[0].id) },
      world.owner.key,
    );
    expect(person.body.data.person.uuid).toBe(persons.results[0].uuid);
    const missing = await app.graphql(
      `query($p: ID!) { groups(projectId: $p) { count } }`,
      { p: String(world.project.id) },
      world.owner.key,
    );
    expect(missing.body.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', attr: 'group_type_index' } });
    const narrow = await app.factories.key(world.owner.user, { scopes: ['person:read'] });
    const forbidden = await app.graphql(`query($p: ID!) { events(projectId: $p) { count } }`, { p: String(world.project.id) }, narrow);
    expect(forbidden.body.errors?.[0]).toMatchObject({
      message: "API key missing required scope 'query:read'",
      extensions: { code: 'FORBIDDEN' },
    });
  });

  it('loads a page of persons with a fixed number of statements', async () => {
    const { world, send } = await freshProject();
    await send(...Array.from({ length: 30 }, (_, i) => ({ event: 'x', distinct_id: uniqueId(`p${i}`) })));
    const list = () => app.request(`/api/projects/${world.project.id}/persons/`, { key: world.owner.key });
    await list(); // the key's first use also records last_used_at
    const statements = await app.countQueries(list);
    // key + project access, the page with its window count, the distinct ids of all 30 persons.
    expect(statements).toBeLessThanOrEqual(4);
  });
});
