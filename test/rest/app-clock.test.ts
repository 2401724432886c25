import pino from 'pino';
import { createApp } from '../../src/app';
import { TestClock } from '../helpers/clock';
import { startTestApp, type TestApp } from '../helpers/test-app';
import type { World } from '../helpers/factories';
import { capture, uniqueId } from '../ingestion/capture-helpers';

/**
 * docs/operations.md ("Time and caches"): what the service stamps on rows, and "now" where a rule
 * reads it, come from the app's clock. The test's clock stands still until moved, so every stamp
 * below is known to the millisecond, and none is the system's time (the clock is moved years ahead).
 * (The activity log's entries are stamped by the database on purpose: see the same section.)
 */

const DAY_MS = 86_400_000;

let app: TestApp;
let world: World;
let flags: string;

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
  flags = `/api/projects/${world.project.id}/feature_flags`;
  app.clock.advance(3 * 365 * DAY_MS);
});
afterAll(() => app.close());

const clockTime = () => new Date(app.clock.now()).toISOString();
const sameInstant = (text: unknown) => new Date(String(text)).toISOString();

it('stamps a created flag and its change with the clock', async () => {
  const created = await app.request(flags, { method: 'POST', key: world.owner.key, body: { key: 'clocked' } });
  expect(created.status).toBe(201);
  expect(sameInstant(created.body.created_at)).toBe(clockTime());
  const createdAt = clockTime();

  app.clock.advance(90 * 60_000);
  const changed = await app.request(`${flags}/${created.body.id}/`, { method: 'PATCH', key: world.owner.key, body: { name: 'Renamed' } });
  expect(changed.status).toBe(200);
  const [row] = await app.factories.sql(`select created_at, updated_at from feature_flag where id = ?`, [created.body.id]);
  expect([sameInstant(row.created_at), sameInstant(row.updated_at)]).toEqual([createdAt, clockTime()]);
});

it('stamps an event sent without a timestamp with the clock, as its arrival', async () => {
  const distinctId = uniqueId();
  const res = await capture(app, '/batch/', { api_key: world.project.apiToken, batch: [{ event: 'clocked', distinct_id: distinctId }] });
  expect(res.status).toBe(200);
  const rows = await app.factories.sql(`select timestamp, created_at from event where distinct_id = ?`, [distinctId]);
  expect(rows.map((event) => [sameInstant(event.timestamp), sameInstant(event.created_at)])).toEqual([[clockTime(), clockTime()]]);
});

it("counts a condition's relative date back from the clock", async () => {
  const created = await app.request(flags, {
    method: 'POST',
    key: world.owner.key,
    body: {
      key: 'seen-this-week',
      filters: {
        groups: [{ properties: [{ key: 'seen', type: 'person', operator: 'is_date_after', value: '-7d' }], rollout_percentage: 100 }],
      },
    },
  });
  expect(created.status).toBe(201);
  const seen = new Date(app.clock.now() - 3 * DAY_MS).toISOString();
  const enabled = async () => {
    const res = await app.request('/flags?v=2', {
      method: 'POST',
      body: { token: world.project.apiToken, distinct_id: uniqueId(), person_properties: { seen } },
    });
    expect(res.status).toBe(200);
    return res.body.flags['seen-this-week'].enabled as boolean;
  };
  expect(await enabled()).toBe(true);
  app.clock.advance(5 * DAY_MS); // `seen` is now 8 days before the clock
  expect(await enabled()).toBe(false);
});

it('refuses a second clock for the rows of one ORM', async () => {
  await expect(createApp({ orm: app.orm, clock: new TestClock(), logger: pino({ level: 'silent' }) })).rejects.toThrow(
    'This ORM already stamps rows with another clock: give every app on one ORM the same clock.',
  );
});
