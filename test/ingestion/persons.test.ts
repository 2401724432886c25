import type { World } from '../helpers/factories';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { capture, reader, uniqueId } from './capture-helpers';

let app: TestApp;
let world: World;
let read: ReturnType<typeof reader>;

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
  read = reader(app, world);
});
afterAll(() => app.close());

async function send(...batch: Array<Record<string, unknown>>) {
  const res = await capture(app, '/batch/', { api_key: world.project.apiToken, batch });
  expect(res.status).toBe(200);
}
const ev = (distinctId: string, properties: Record<string, unknown> = {}, event = 'x', extra: Record<string, unknown> = {}) => ({
  event,
  distinct_id: distinctId,
  properties,
  ...extra,
});

describe('person properties (docs/ingestion.md §3.2)', () => {
  it('applies $set in arrival order across distinct ids', async () => {
    const [u1, u2] = [uniqueId(), uniqueId()];
    await send(ev(u1, { $set: { plan: 'a' } }));
    await send(ev(u2, { $set: { plan: 'b' } }));
    await send(ev(u1, { $set: { plan: 'c' } }));
    expect((await read.personOf(u1)).properties).toEqual({ plan: 'c' });
    expect((await read.personOf(u2)).properties).toEqual({ plan: 'b' });
    expect((await read.events(`?distinct_id=${u1}`)).count).toBe(2);
  });

  it('runs $set_once, $set and $unset in that order, one request at a time', async () => {
    const d = uniqueId();
    const props = async () => (await read.personOf(d)).properties;
    await send(ev(d, { $set_once: { a: 1 } }));
    expect(await props()).toEqual({ a: 1 });
    await send(ev(d, { $set_once: { a: 2 } }));
    expect(await props()).toEqual({ a: 1 });
    await send(ev(d, { $set: { a: 3 } }));
    expect(await props()).toEqual({ a: 3 });
    await send(ev(d, { $set: { b: 1 }, $unset: ['a'] }));
    expect(await props()).toEqual({ b: 1 });
    await send(ev(d, {}, 'top', { $set: { c: 1 } }));
    expect(await props()).toEqual({ b: 1, c: 1 });
    await send(ev(d, { $unset: { b: true }, $set: 'not an object' }));
    expect(await props()).toEqual({ c: 1 });
  });

  it('composes the same updates within one request', async () => {
    const d = uniqueId();
    await send(
      ev(d, { $set_once: { a: 1 } }),
      ev(d, { $set_once: { a: 2 } }),
      ev(d, { $set: { a: 3, k: 'x' } }),
      ev(d, { $set: { b: 1 }, $unset: ['a', 'k'] }),
      ev(d, { $set_once: { k: 'again', b: 9 } }),
      ev(d, {}, 'top', { $set: { c: 1 }, $set_once: { c: 2 } }),
    );
    expect((await read.personOf(d)).properties).toEqual({ b: 1, k: 'again', c: 1 });
    await send(
      ev(d, { $set_once: { a: 'later', c: 0 }, $set: { z: 0, y: 0 } }),
      ev(d, { $unset: ['z', 'y'], $set_once: { y: 1 } }),
      ev(d, { $set_once: { z: 1 } }),
    );
    expect((await read.personOf(d)).properties).toEqual({ b: 1, k: 'again', c: 1, a: 'later', z: 1 });
  });

  it('keeps created_at from the first event and shows the person shape', async () => {
    const d = uniqueId();
    await send(ev(d, { $set: { email: 'p@example.com' } }, 'x', { timestamp: '2024-01-02T03:04:05Z' }));
    const person = await read.personOf(d);
    expect(Object.keys(person)).toEqual(['id', 'uuid', 'name', 'distinct_ids', 'properties', 'is_identified', 'created_at']);
    expect(person).toMatchObject({
      name: 'p@example.com',
      distinct_ids: [d],
      is_identified: false,
      created_at: '2024-01-02T03:04:05.000000Z',
    });
    expect(await read.get(`persons/${person.id}/`)).toEqual(person);
    expect(await read.get(`persons/${person.uuid}/`)).toEqual(person);
  });
});

describe('$identify, $create_alias, $merge_dangerously (§3.3)', () => {
  it('merges the anonymous person into the identified one', async () => {
    const [anon, user] = [uniqueId('anon'), uniqueId('user')];
    await send(ev(anon, { $set: { x: 'anon', y: 1 } }));
    await send(ev(user, { $set: { x: 'user' } }));
    const [anonPerson, userPerson] = [await read.personOf(anon), await read.personOf(user)];
    await send(ev(user, { $anon_distinct_id: anon }, '$identify'));
    const merged = await read.personOf(user);
    expect(merged).toMatchObject({
      id: userPerson.id,
      uuid: userPerson.uuid,
      distinct_ids: [anon, user],
      properties: { x: 'user', y: 1 },
      is_identified: true,
    });
    expect((await app.request(`${read.base}/persons/${anonPerson.id}/`, { key: world.owner.key })).status).toBe(404);
    expect((await app.request(`${read.base}/persons/${anonPerson.uuid}/`, { key: world.owner.key })).status).toBe(404);
    const anonEvents = await read.events(`?distinct_id=${anon}`);
    expect(anonEvents.results.map((e: any) => e.person_id)).toEqual([userPerson.uuid]);
    expect((await read.events(`?person_id=${userPerson.uuid}`)).count).toBe(3);
  });

  it('merges within one request in the same way', async () => {
    const [anon, user] = [uniqueId('anon'), uniqueId('user')];
    await send(
      ev(anon, { $set: { x: 'anon', y: 1 } }),
      ev(user, { $set: { x: 'user' } }),
      ev(user, { $anon_distinct_id: anon, $set: { z: 1 } }, '$identify'),
    );
    const merged = await read.personOf(user);
    expect(merged).toMatchObject({ distinct_ids: [anon, user], properties: { x: 'user', y: 1, z: 1 }, is_identified: true });
    expect(new Set((await read.events(`?person_id=${merged.uuid}`)).results.map((e: any) => e.distinct_id))).toEqual(new Set([anon, user]));
  });

  it('merges a stored anonymous person into one this request created', async () => {
    const [anon, user] = [uniqueId('anon'), uniqueId('user')];
    await send(ev(anon, { $set: { x: 'anon', y: 1 } }, 'x', { timestamp: '2024-01-01T00:00:00Z' }));
    const anonPerson = await read.personOf(anon);
    await send(ev(user, { $set: { x: 'user' } }), ev(user, { $anon_distinct_id: anon }, '$identify'), ev(anon, {}, 'after'));
    const merged = await read.personOf(anon);
    expect(merged).toMatchObject({
      distinct_ids: [anon, user],
      properties: { x: 'user', y: 1 },
      created_at: '2024-01-01T00:00:00.000000Z',
    });
    expect(merged.id).not.toBe(anonPerson.id);
    expect((await read.events(`?person_id=${merged.uuid}`)).count).toBe(4);
  });

  it('gives a new id to the existing person, either way round', async () => {
    const [anon, user, other] = [uniqueId('anon'), uniqueId('user'), uniqueId('other')];
    await send(ev(anon, { $set: { a: 1 } }));
    await send(ev(user, { $anon_distinct_id: anon }, '$identify'));
    expect(await read.personOf(user)).toMatchObject({ distinct_ids: [anon, user], properties: { a: 1 }, is_identified: true });
    await send(ev(user, { alias: other }, '$create_alias'));
    expect((await read.personOf(other)).distinct_ids).toEqual([anon, user, other]);
  });

  it('refuses to merge two identified persons unless dangerously', async () => {
    const [a, b, a0, b0] = [uniqueId('a'), uniqueId('b'), uniqueId('a0'), uniqueId('b0')];
    await send(
      ev(a, { $anon_distinct_id: a0, $set: { who: 'a' } }, '$identify'),
      ev(b, { $anon_distinct_id: b0, $set: { who: 'b', only: 'b' } }, '$identify'),
    );
    await send(ev(a, { $anon_distinct_id: b }, '$identify'));
    const [pa, pb] = [await read.personOf(a), await read.personOf(b)];
    expect(pa.id).not.toBe(pb.id);
    await send(ev(a, { alias: b }, '$merge_dangerously'));
    const merged = await read.personOf(b);
    expect(merged).toMatchObject({ id: pa.id, distinct_ids: [a, a0, b, b0], properties: { who: 'a', only: 'b' } });
    expect((await app.request(`${read.base}/persons/${pb.id}/`, { key: world.owner.key })).status).toBe(404);
  });

  it('aliases two new ids into one identified person, and never merges illegal ids', async () => {
    const [d1, d2] = [uniqueId('d1'), uniqueId('d2')];
    await send(ev(d1, { alias: d2 }, '$create_alias'));
    expect(await read.personOf(d2)).toMatchObject({ distinct_ids: [d1, d2], is_identified: true });
    const d = uniqueId();
    for (const illegal of ['undefined', 'Anonymous', '"null"', "'guest'", '[object Object]', ' ', '0']) {
      await send(ev(d, { $anon_distinct_id: illegal }, '$identify'));
      expect((await read.persons(`?distinct_id=${encodeURIComponent(illegal)}`)).count).toBe(0);
    }
    expect(await read.personOf(d)).toMatchObject({ distinct_ids: [d], is_identified: false });
  });
});

describe('personless events and concurrency (§3.4, §5)', () => {
  it('stores a personless event with no person', async () => {
    const ghost = uniqueId('ghost');
    await send(ev(ghost, { $process_person_profile: false, $set: { a: 1 } }));
    expect(await read.personOf(ghost)).toBeNull();
    const [stored] = (await read.events(`?distinct_id=${ghost}`)).results;
    expect(stored.person_id).toBeNull();
    await send(ev(ghost, { $set: { b: 2 } }));
    const person = await read.personOf(ghost);
    expect(person.properties).toEqual({ b: 2 });
    await send(ev(ghost, { $process_person_profile: false }, 'later'));
    expect((await read.events(`?distinct_id=${ghost}&event=later`)).results[0].person_id).toBe(person.uuid);
  });

  it('creates exactly one person for 20 concurrent requests from a new id', async () => {
    const race = uniqueId('race');
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        capture(app, '/batch/', { api_key: world.project.apiToken, batch: [ev(race, { $set: { [`k${i}`]: i } })] }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    const persons = await read.persons(`?distinct_id=${race}`);
    expect(persons.count).toBe(1);
    expect(persons.results[0].properties).toEqual(Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, i])));
    expect((await read.events(`?distinct_id=${race}`)).count).toBe(20);
  });

  it('merges and creates under concurrency without losing ids or events', async () => {
    const anon = Array.from({ length: 8 }, () => uniqueId('anon'));
    const user = uniqueId('user');
    const responses = await Promise.all(
      anon.map((a, i) =>
        capture(app, '/batch/', {
          api_key: world.project.apiToken,
          batch: [ev(a, { $set: { [`a${i}`]: i } }), ev(user, { $anon_distinct_id: a }, '$identify')],
        }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(8).fill(200));
    const person = await read.personOf(user);
    expect(new Set(person.distinct_ids)).toEqual(new Set([...anon, user]));
    expect(Object.keys(person.properties)).toHaveLength(8);
    const events = await read.events(`?person_id=${person.uuid}`);
    expect(events.count).toBe(16);
  });

  it('makes what a 200 stored visible to the very next request, persons and flag evaluation alike', async () => {
    const flag = await app.request(`${read.base}/feature_flags/`, {
      method: 'POST',
      key: world.owner.key,
      body: { key: 'for-odd-i', filters: { groups: [{ properties: [{ key: 'i', type: 'person', value: [1, 3], operator: 'exact' }] }] } },
    });
    expect(flag.status).toBe(201);
    for (let i = 0; i < 5; i++) {
      const d = uniqueId();
      await send(ev(d, { $set: { i } }));
      expect((await read.personOf(d)).properties).toEqual({ i });
      const reasons = await read.get(`feature_flags/evaluation_reasons?distinct_id=${d}`);
      expect(reasons['for-odd-i'].value).toBe(i % 2 === 1);
    }
  });
});
