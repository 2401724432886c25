import { gzipSync } from 'node:zlib';
import { forkBench, nextMessage, stopChild } from '../children';
import { captureEvent, uuidv7 } from '../fixtures';
import { childRunner } from '../ipc-runner';
import { httpRunner } from '../load';
import { alternate, logged, makeRow } from './row';
import type { Scenario } from './types';

/** Capture: gzipped batches of 100 events to POST /batch/, against 100-row multi-row INSERTs of the same rows. */
export const ingestion: Scenario = {
  id: 'ingestion',
  async run(context) {
    const { settings, world, service } = context;
    const { connections, ingestionBatch: batch, ingestionUsers: users } = settings;
    // The floor below needs the database slot the floors' server holds on the embedded database.
    await context.stopFloorServer();
    const child = forkBench('floors/ingestion.js', {
      FLOOR_DATABASE_URL: context.floorDatabaseUrl,
      FLOOR_POOL: String(context.database.floorPoolSize),
      PROJECT_ID: String(world.small.id),
      BATCH: String(batch),
      USERS: String(users),
      CONNECTIONS: String(connections),
    });
    const floor = childRunner(child);

    let next = 0;
    const body = () => {
      const first = (next += batch) - batch;
      const events = Array.from({ length: batch }, (_, r) => ({ ...captureEvent(first + r, users), uuid: uuidv7() }));
      return gzipSync(JSON.stringify({ api_key: world.small.apiToken, batch: events, sent_at: new Date().toISOString() }));
    };
    const load = {
      method: 'POST' as const,
      path: '/batch/',
      headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      makeBody: body,
      expect: 200,
      perRequest: batch,
    };
    try {
      await nextMessage(child, (m) => (m as { ready?: boolean }).ready, 30_000);
      const sides = await alternate(context, floor, httpRunner(service.url, load, connections, service.pid), true);
      const row = makeRow(
        {
          scenario: `POST /batch/, ${batch} events per batch`,
          unit: 'events/s',
          floor: `pg: ${batch}-row INSERTs of the same rows, no HTTP`,
          target: { ratio: 0.5 },
        },
        sides.service,
        sides.floor,
        sides.rss,
        ['latency per batch'],
      );
      return [logged(context, row)];
    } finally {
      await stopChild(child);
    }
  },
};
