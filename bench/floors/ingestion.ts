/**
 * The ingestion floor, its own process (today's bench:ingestion floor): the same events as stored
 * rows, one 100-row multi-row INSERT per batch, over as many pooled connections as the load has
 * workers, straight into PostgreSQL (no HTTP, no parsing, no persons). Runs on command over IPC.
 */
import { randomUUID } from 'node:crypto';
import { captureEvent, uuidv7 } from '../fixtures';
import { serveRuns } from '../ipc-runner';
import { createPool } from '../pg';

const env = (name: string) => Number(process.env[name]);

const [projectId, batch, users, workers] = [env('PROJECT_ID'), env('BATCH'), env('USERS'), env('CONNECTIONS')];
const pool = createPool(process.env.FLOOR_DATABASE_URL!, env('FLOOR_POOL'));
const personOf = new Map(Array.from({ length: users }, (_, u) => [`user-${u}`, randomUUID()]));
const placeholders = Array.from(
  { length: batch },
  (_, r) => `(${Array.from({ length: 8 }, (_, c) => `$${r * 8 + c + 1}`).join(', ')})`,
).join(', ');
const insert = `insert into event (project_id, uuid, event, distinct_id, properties, timestamp, person_id, created_at) values ${placeholders}`;
let next = 0;

async function run(seconds: number) {
  const deadline = Date.now() + seconds * 1000;
  const latencies: number[] = [];
  let errors = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (Date.now() < deadline) {
        const now = new Date();
        const first = (next += batch) - batch;
        const values = Array.from({ length: batch }, (_, r) => captureEvent(first + r, users)).flatMap((row) => [
          projectId,
          uuidv7(),
          row.event,
          row.distinct_id,
          JSON.stringify(row.properties),
          row.timestamp,
          personOf.get(row.distinct_id),
          now,
        ]);
        const t0 = process.hrtime.bigint();
        try {
          await pool.query(insert, values);
          latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
        } catch {
          errors++;
        }
      }
    }),
  );
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  return { latencies, count: latencies.length * batch, seconds: elapsed, errors, statuses: {} };
}

serveRuns(run, () => pool.end());
