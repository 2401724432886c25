import { RequestWork } from '../../src/http/request-work';
import { withConnection } from '../../src/modules/experiment/results/results.store';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * docs/graphql.md, "Computing work stops with its request": when a request ends while an experiment result's
 * statement is in flight, the statement is cancelled and its transaction rolled back. On the
 * embedded database, which runs one transaction at a time, the cancel cannot land until that
 * transaction ends; the rollback waits for it a bounded time, so the database is never left stalled.
 */
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

it('leaves the database serving after a computation stopped mid-statement', async () => {
  const world = await app.factories.world();
  const work = new RequestWork();
  const em = app.orm.em.fork();
  const computation = withConnection(em, work, async (sql) => {
    const inFlight = sql('select pg_sleep(0.3)');
    setTimeout(() => void work.stop(), 50);
    await inFlight;
    return sql('select 1');
  });
  await expect(computation).rejects.toThrow();
  const flags = await app.request(`/api/projects/${world.project.id}/feature_flags/`, { key: world.owner.key });
  expect(flags.status).toBe(200);
}, 20_000);
