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

const emoji = '😀';

/** Odd but well-formed events: each is stored (200) or refused whole (400), never a 500. */
const ODD: Array<[string, (d: string) => unknown]> = [
  ['null item', () => [null]],
  ['number distinct id', () => ({ event: 'x', distinct_id: 12345 })],
  ['$distinct_id', (d) => ({ event: 'x', $distinct_id: d })],
  ['a 300-emoji distinct id', () => ({ event: 'x', distinct_id: emoji.repeat(300) })],
  ['$groups as a string', (d) => ({ event: 'x', distinct_id: d, properties: { $groups: 'org' } })],
  [
    '$groups with odd keys',
    (d) => ({ event: 'x', distinct_id: d, properties: { $groups: { '': 'a', t: '', n: null, o: [1], long: 'k'.repeat(401) } } }),
  ],
  [
    'a numeric $group_type',
    (d) => ({ event: '$groupidentify', distinct_id: d, properties: { $group_type: 7, $group_key: 'k', $group_set: [1] } }),
  ],
  [
    '$set as a list, $unset as a string',
    (d) => ({ event: 'x', distinct_id: d, properties: { $set: [1, 2], $set_once: 'x', $unset: 'a' } }),
  ],
  [
    '__proto__ in $set',
    (d) => JSON.parse(`{"event":"x","distinct_id":"${d}","properties":{"$set":{"__proto__":{"a":1},"constructor":1}}}`),
  ],
  [
    'odd timestamps and offsets',
    (d) => [
      { event: 'x', distinct_id: d, timestamp: { a: 1 } },
      { event: 'x', distinct_id: d, timestamp: 1e300 },
      { event: 'x', distinct_id: d, timestamp: -5 },
      { event: 'x', distinct_id: d, timestamp: '99999-01-01T00:00:00Z' },
      { event: 'x', distinct_id: d, offset: '100' },
      { event: 'x', distinct_id: d, offset: 1e300 },
    ],
  ],
  ['odd sent_at', (d) => ({ batch: [{ event: 'x', distinct_id: d, timestamp: '2024-01-01T00:00:00Z' }], sent_at: [1] })],
  [
    'odd merge sources',
    (d) => [
      { event: '$identify', distinct_id: d, properties: { $anon_distinct_id: { a: 1 } } },
      { event: '$create_alias', distinct_id: d, properties: { alias: 42 } },
      { event: '$merge_dangerously', distinct_id: d, properties: { alias: [d] } },
      { event: '$identify', distinct_id: d, properties: { $anon_distinct_id: d } },
    ],
  ],

  [
    'huge numbers and deep-ish nesting',
    (d) => ({
      event: 'x',
      distinct_id: d,
      // eslint-disable-next-line no-loss-of-precision -- a number beyond double precision is the point
      properties: { n: 1e308, big: 123456789012345678901234567890, deep: JSON.parse('['.repeat(500) + ']'.repeat(500)) },
    }),
  ],
  [
    'an uppercase uuid repeated with another case',
    (d) => [
      { event: 'x', distinct_id: d, uuid: 'AAAAAAAA-AAAA-4AAA-8AAA-AAAAAAAAAAAA' },
      { event: 'x', distinct_id: d, uuid: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa' },
    ],
  ],
  ['an escaped lone surrogate key', (d) => JSON.parse(`{"event":"x","distinct_id":"${d}","properties":{"\\udc00":"\\ud800"}}`)],
  [
    'a merge chain in one request',
    (d) => [
      { event: 'x', distinct_id: `${d}-a` },
      { event: 'x', distinct_id: `${d}-b` },
      { event: 'x', distinct_id: `${d}-c` },
      { event: '$merge_dangerously', distinct_id: `${d}-b`, properties: { alias: `${d}-a` } },
      { event: '$merge_dangerously', distinct_id: `${d}-c`, properties: { alias: `${d}-b` } },
      { event: '$identify', distinct_id: `${d}-a`, properties: { $anon_distinct_id: `${d}-new` } },
    ],
  ],
];

it.each(ODD)('never answers 500: %s', async (_label, make) => {
  const d = uniqueId();
  const payload = make(d);
  const body =
    Array.isArray(payload) || (payload as { batch?: unknown }).batch === undefined
      ? { api_key: world.project.apiToken, batch: [payload].flat() }
      : { api_key: world.project.apiToken, ...(payload as object) };
  const res = await capture(app, '/batch/', body);
  expect([200, 400]).toContain(res.status);
  if (res.status === 400) expect(res.body.code).toBe('invalid_payload');
});

it('stores the odd values it accepts as described', async () => {
  const d = uniqueId();
  await capture(app, '/batch/', { api_key: world.project.apiToken, batch: [{ event: 'x', distinct_id: emoji.repeat(300) + d }] });
  const page = await read.events(`?distinct_id=${encodeURIComponent(emoji.repeat(200))}`);
  expect(page.count).toBeGreaterThanOrEqual(1);
  const chain = uniqueId();
  await capture(app, '/batch/', { api_key: world.project.apiToken, batch: ODD[ODD.length - 1][1](chain) as unknown[] });
  const person = await read.personOf(`${chain}-c`);
  expect(new Set(person.distinct_ids)).toEqual(new Set([`${chain}-a`, `${chain}-b`, `${chain}-c`, `${chain}-new`]));
  expect((await read.events(`?person_id=${person.uuid}`)).count).toBe(6);
});
