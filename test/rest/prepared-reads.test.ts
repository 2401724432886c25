import { startTestApp, type TestApp } from '../helpers/test-app';
import type { World } from '../helpers/factories';

/**
 * docs/operations.md ("The route table"): the access check, a flag read and the unfiltered flag list
 * are prepared once per connection. A newer version of the service may add columns while this one still runs (a rolling
 * deploy, a second worker migrating first); its prepared reads keep answering. A retrieve runs
 * only those two statements, on the pool: no EntityManager fork, no unit of work.
 */
let app: TestApp;
let world: World;

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
});
afterAll(() => app.close());

it('keeps answering a retrieve, by id and by key, after columns are added to its tables', async () => {
  const flags = `/api/projects/${world.project.id}/feature_flags`;
  const created = await app.request(flags, { method: 'POST', key: world.owner.key, body: { key: 'prepared-read' } });
  expect(created.status).toBe(201);
  const read = () => app.request(`${flags}/${created.body.id}/`, { key: world.owner.key });
  const byKey = () =>
    app.graphql(
      `query($p: ID!) { featureFlag(projectId: $p, key: "prepared-read") { id } }`,
      { p: String(world.project.id) },
      world.owner.key,
    );
  // The unfiltered list is prepared too, and its page past the end counts with a prepared statement.
  const list = () => app.request(`${flags}/?limit=2`, { key: world.owner.key });
  const pastTheEnd = () => app.request(`${flags}/?offset=500`, { key: world.owner.key });
  const [listed, beyond] = [await list(), await pastTheEnd()];
  expect([listed.status, beyond.status, beyond.body.count, beyond.body.results]).toEqual([200, 200, listed.body.count, []]);
  const before = await read();
  expect(before.status).toBe(200);
  expect((await byKey()).body).toEqual({ data: { featureFlag: { id: created.body.id } } });

  await app.factories.sql('alter table project add column added_later integer');
  await app.factories.sql('alter table feature_flag add column added_later integer');
  try {
    const after = await read();
    expect([after.status, after.body]).toEqual([200, before.body]);
    expect((await list()).body).toEqual(listed.body);
    expect((await pastTheEnd()).body).toEqual(beyond.body);
    expect((await byKey()).body).toEqual({ data: { featureFlag: { id: created.body.id } } });
  } finally {
    await app.factories.sql('alter table project drop column added_later');
    await app.factories.sql('alter table feature_flag drop column added_later');
  }
});

it('answers a retrieve without forking an EntityManager, where a write forks one', async () => {
  const flags = `/api/projects/${world.project.id}/feature_flags`;
  const created = await app.request(flags, { method: 'POST', key: world.owner.key, body: { key: 'no-fork-read' } });
  const forks = jest.spyOn(app.orm.em, 'fork');
  try {
    const read = await app.request(`${flags}/${created.body.id}/`, { key: world.owner.key });
    expect([read.status, read.body.key]).toEqual([200, 'no-fork-read']);
    expect(forks).not.toHaveBeenCalled();
    const patched = await app.request(`${flags}/${created.body.id}/`, { method: 'PATCH', key: world.owner.key, body: { name: 'renamed' } });
    expect([patched.status, patched.body.name]).toEqual([200, 'renamed']);
    expect(forks).toHaveBeenCalled();
  } finally {
    forks.mockRestore();
  }
});
