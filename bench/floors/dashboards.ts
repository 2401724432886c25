/**
 * The dashboards floor, its own process: one aggregate query over the same rows the usage
 * dashboard's tiles read (the flag's `$feature_flag_called` events over the last 31 UTC days,
 * counted by day and response: the first tile's numbers alone), then `JSON.stringify`; one
 * request at a time on one connection, no HTTP. Runs on command over IPC.
 */
import { serveRuns } from '../ipc-runner';
import { createPool } from '../pg';

const pool = createPool(process.env.FLOOR_DATABASE_URL!, 1);
const projectId = Number(process.env.PROJECT_ID);
const flagKey = process.env.FLAG_KEY!;
const DAY_MS = 86_400_000;

const sql = `select (timestamp at time zone 'UTC')::date as day, properties ->> '$feature_flag_response' as response, count(*)::int as n
  from event
 where project_id = $1 and event = '$feature_flag_called' and properties ->> '$feature_flag' = $2 and timestamp >= $3 and timestamp < $4
 group by 1, 2`;

async function run(seconds: number) {
  const deadline = Date.now() + seconds * 1000;
  const latencies: number[] = [];
  let errors = 0;
  const started = process.hrtime.bigint();
  while (Date.now() < deadline) {
    const today = Math.floor(Date.now() / DAY_MS);
    const t0 = process.hrtime.bigint();
    try {
      const { rows } = await pool.query(sql, [projectId, flagKey, new Date((today - 30) * DAY_MS), new Date((today + 1) * DAY_MS)]);
      JSON.stringify(rows);
      latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
    } catch (error) {
      process.stderr.write(`dashboards floor: ${String(error)}\n`);
      errors++;
    }
  }
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  return { latencies, count: latencies.length, seconds: elapsed, errors, statuses: {} };
}

serveRuns(run, () => pool.end());
