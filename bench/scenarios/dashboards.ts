import { forkBench, nextMessage, stopChild } from '../children';
import { childRunner } from '../ipc-runner';
import { httpRunner } from '../load';
import { withClient } from '../pg';
import { alternate, logged, makeRow } from './row';
import type { Scenario } from './types';

const FLAG_KEY = 'bench-usage-dashboard';
/** Events seeded for the flag; `BENCH_DASHBOARD_EVENTS` makes a small run to try the row (the lead runs the full one). */
const eventCount = () => {
  const value = Number(process.env.BENCH_DASHBOARD_EVENTS ?? 1_000_000);
  if (!Number.isInteger(value) || value < 1 || value > 50_000_000)
    throw new Error('BENCH_DASHBOARD_EVENTS must be an integer in [1, 50000000]');
  return value;
};
const PERSONS = 10_000;
const CHUNK = 100_000;

/**
 * The usage dashboard's tile results over `BENCH_DASHBOARD_EVENTS` (default 1,000,000) stored
 * `$feature_flag_called` events of one flag, spread over the 31 days of its range, 10,000 persons and
 * three responses: `GET /api/projects/:id/dashboards/:id/` (both tiles: events by day and response,
 * distinct persons by day and response and over the range), one request at a time, against the floor
 * of one aggregate query over the same rows.
 */
export const dashboards: Scenario = {
  id: 'dashboards',
  async run(context) {
    const { world, service, floorDatabaseUrl, log } = context;
    const project = world.scratch;
    const total = eventCount();
    const created = await fetch(`${service.url}/api/projects/${project.id}/feature_flags/`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${world.keys[0]}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ key: FLAG_KEY }),
    });
    if (created.status !== 201) throw new Error(`creating the dashboard's flag answered ${created.status}: ${await created.text()}`);
    const { usage_dashboard: dashboardId } = (await created.json()) as { usage_dashboard: number };

    // The floors' server holds the embedded database's one floor slot; seeding and the floor below need it.
    await context.stopFloorServer();
    const started = Date.now();
    await withClient(floorDatabaseUrl, async (client) => {
      for (let first = 0; first < total; first += CHUNK) {
        const last = Math.min(total, first + CHUNK) - 1;
        // Stored as ingestion stores them (uuid, the person's uuid, properties as sent), spread evenly over the range's 31 UTC days.
        await client.query(
          `insert into event (project_id, uuid, event, distinct_id, properties, timestamp, person_id, created_at)
           select $1, gen_random_uuid(), '$feature_flag_called', 'user-' || (i % $3),
                  jsonb_build_object('$feature_flag', $2::text, '$feature_flag_response', (array['control', 'test', 'test-2'])[1 + i % 3],
                                     '$lib', 'posthog-node', '$lib_version', '5.70.0', '$feature/' || $2::text, 'control'),
                  date_trunc('day', now() at time zone 'UTC') at time zone 'UTC' - interval '30 days'
                    + (i % 31) * interval '1 day' + ((i / 31) % 1380) * interval '1 minute',
                  md5('bench-person-' || (i % $3))::uuid, now()
             from generate_series($4::int, $5::int) as i`,
          [project.id, FLAG_KEY, PERSONS, first, last],
        );
        log(`  seeded ${last + 1} of ${total} events`);
      }
      await client.query('vacuum analyze event');
    });
    log(`  seeded ${total} events by SQL in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const child = forkBench('floors/dashboards.js', { FLOOR_DATABASE_URL: floorDatabaseUrl, PROJECT_ID: String(project.id), FLAG_KEY });
    try {
      await nextMessage(child, (m) => (m as { ready?: boolean }).ready, 30_000);
      const load = {
        method: 'GET' as const,
        path: `/api/projects/${project.id}/dashboards/${dashboardId}/`,
        headers: { Authorization: `Bearer ${world.keys[0]}` },
        expect: 200,
      };
      const sides = await alternate(context, childRunner(child), httpRunner(service.url, load, 1, service.pid), true);
      const row = makeRow(
        {
          scenario: `GET usage dashboard, 2 tiles over ${total.toLocaleString('en-US')} events`,
          unit: 'reads/s',
          floor: 'pg: one aggregate query (events by day and response) over the same rows, one at a time',
          target: { ratio: 0.5 },
        },
        sides.service,
        sides.floor,
        sides.rss,
        ['one request at a time: p50/p99 are the latency of one read; ratio 0.5 = twice the floor'],
      );
      return [logged(context, row)];
    } finally {
      await stopChild(child);
    }
  },
};
