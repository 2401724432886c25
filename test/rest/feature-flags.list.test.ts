import { startTestApp, type TestApp } from '../helpers/test-app';
import type { Member, World } from '../helpers/factories';

/** docs/rest-api.md §3.5: the flag list, its order, count and filters. */

let app: TestApp;
let world: World;
let member: Member;
let flags: string;

const create = async (body: Record<string, unknown>, key = world.owner.key) => {
  const res = await app.request(flags, { method: 'POST', key, body });
  expect(res.status).toBe(201);
  return res.body;
};
const list = (query = '', key = world.owner.key) => app.request(`${flags}${query}`, { key });
const keys = async (query = '') => {
  const res = await list(query);
  expect(res.status).toBe(200);
  expect(res.body.count).toBe(res.body.results.length);
  return res.body.results.map((f: any) => f.key);
};
const multivariate = {
  variants: [
    { key: 'a', rollout_percentage: 50 },
    { key: 'b', rollout_percentage: 50 },
  ],
};

/** Newest first: each flag is created later than the one before. */
const ALL = ['deleted-one', 'multi', 'inactive', 'by-member', 'theme', 'red_button'];

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
  member = await app.factories.member(world.organization);
  flags = `/api/projects/${world.project.id}/feature_flags`;
  await create({ key: 'red_button', tags: ['beta'], filters: { groups: [], multivariate: null } });
  await create({ key: 'theme', name: 'Red theme', tags: ['Ops'] });
  await create({ key: 'by-member', name: 'percent_100%' }, member.key);
  await create({ key: 'inactive', active: false, tags: ['beta', 'other'] });
  await create({ key: 'multi', filters: { groups: [], multivariate } });
  const deleted = await create({ key: 'deleted-one', tags: ['beta'] });
  await app.request(`${flags}/${deleted.id}`, { method: 'PATCH', key: world.owner.key, body: { deleted: true } });
  // A flag of another project never shows.
  const other = await app.factories.project(world.organization);
  await app.request(`/api/projects/${other.id}/feature_flags`, { method: 'POST', key: world.owner.key, body: { key: 'elsewhere' } });
});
afterAll(() => app.close());

describe('order and count', () => {
  it('lists non-deleted flags of the project, newest first', async () => {
    expect(await keys()).toEqual(ALL.filter((k) => k !== 'deleted-one'));
  });

  it('orders by created_at, then id, both descending', async () => {
    const project = await app.factories.project(world.organization);
    const path = `/api/projects/${project.id}/feature_flags`;
    const post = (key: string, created_at: string) =>
      app.request(path, { method: 'POST', key: world.owner.key, body: { key, created_at } });
    await post('old', '2020-01-01T00:00:00Z');
    await post('tie-1', '2022-01-01T00:00:00Z');
    await post('tie-2', '2022-01-01T00:00:00Z');
    await post('older', '2019-01-01T00:00:00Z');
    const res = await app.request(path, { key: world.owner.key });
    expect(res.body.results.map((f: any) => f.key)).toEqual(['tie-2', 'tie-1', 'old', 'older']);
  });
});

describe('filters (§3.5)', () => {
  it.each([
    ['?search=RED', ['theme', 'red_button']],
    ['?search=red_', ['red_button']],
    ['?search=_', ['by-member', 'red_button']],
    ['?search=%25', ['by-member']],
    ['?search=%20%20RED%20', ['theme', 'red_button']],
    ['?search=nothing-matches', []],
    ['?active=true', ['multi', 'by-member', 'theme', 'red_button']],
    ['?active=false', ['inactive']],
    ['?active=FALSE', ['inactive']],
    ['?type=boolean', ['inactive', 'by-member', 'theme', 'red_button']],
    ['?type=multivariant', ['multi']],
    ['?type=experiment', []],
    ['?tags=%5B%22beta%22%5D', ['inactive', 'red_button']],
    ['?tags=%5B%22BETA%22%2C%22ops%22%5D', ['inactive', 'theme', 'red_button']],
    ['?search=red&tags=%5B%22beta%22%5D', ['red_button']],
    ['?active=true&type=boolean&search=e', ['by-member', 'theme', 'red_button']],
  ])('%s', async (query, expected) => {
    expect(await keys(query)).toEqual(expected);
  });

  it('filters by creator', async () => {
    expect(await keys(`?created_by_id=${member.user.id}`)).toEqual(['by-member']);
    expect(await keys(`?created_by_id=${world.owner.user.id}`)).toEqual(ALL.filter((k) => k !== 'deleted-one' && k !== 'by-member'));
    expect(await keys('?created_by_id=999999')).toEqual([]);
  });

  it.each([
    '?tags=oops',
    '?tags=%5B1%5D',
    '?tags=%5B%5D',
    '?tags=',
    '?active=maybe',
    '?active=',
    '?type=other',
    '?created_by_id=abc',
    '?search=',
    '?search=%20',
    '?unknown=1',
  ])('ignores the missing, empty or unrecognised value %s', async (query) => {
    expect(await keys(query)).toEqual(ALL.filter((k) => k !== 'deleted-one'));
  });

  it.each(['?search=%00', '?search=red%00', '?tags=%5B%22%5Cu0000%22%5D', '?created_by_id=%00', '?active=%00'])(
    'regression: a NUL in %s reached PostgreSQL (500); it is an unrecognised value, ignored',
    async (query) => {
      expect(await keys(query)).toEqual(ALL.filter((k) => k !== 'deleted-one'));
    },
  );
});

describe('who sees what', () => {
  it('shows can_edit true to every member under the default flag access level', async () => {
    const res = await list('', member.key);
    expect(res.body.results.length).toBeGreaterThan(0);
    for (const flag of res.body.results) expect([flag.key, flag.can_edit]).toEqual([flag.key, true]);
  });

  it('shows created_by null for a flag whose creator is unknown', async () => {
    const flag = await create({ key: 'orphan' });
    await app.factories.sql('update feature_flag set created_by_id = null where id = ?', [flag.id]);
    const listed = (await list()).body.results.find((f: any) => f.key === 'orphan');
    expect(listed).toMatchObject({ created_by: null, can_edit: true });
    const one = await app.request(`${flags}/${flag.id}`, { key: member.key });
    expect(one.body).toMatchObject({ created_by: null, can_edit: true });
    await app.request(`${flags}/${flag.id}`, { method: 'PATCH', key: world.owner.key, body: { deleted: true } });
  });

  it('embeds the creator as the document describes', async () => {
    const [flag] = (await list(`?created_by_id=${member.user.id}`)).body.results;
    expect(flag.created_by).toEqual({
      id: member.user.id,
      uuid: member.user.uuid,
      distinct_id: member.user.distinctId,
      first_name: 'User',
      email: member.user.email,
      is_email_verified: false,
    });
  });
});

describe('cost', () => {
  it('answers a page in a number of statements that does not grow with its size', async () => {
    const project = await app.factories.project(world.organization);
    const path = `/api/projects/${project.id}/feature_flags`;
    const post = (key: string, by: string) => app.request(path, { method: 'POST', key: by, body: { key } });
    await post('one', world.owner.key);
    await app.request(path, { key: member.key }); // the member's standing in the project, remembered for both pages
    const small = await app.countQueries(() => app.request(path, { key: member.key }));
    for (let i = 0; i < 12; i++) await post(`many-${i}`, i % 2 ? world.owner.key : member.key);
    const large = await app.countQueries(() => app.request(path, { key: member.key }));
    expect(large).toBe(small);
  });
});
