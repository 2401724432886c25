/**
 * `node dist/bench/experiment-results.js` (after `npm run build && tsc -p bench/tsconfig.json`):
 * experiment results over a large event table, next to a floor. Not part of `npm run bench`'s
 * HTTP rows: the question is how long one computation takes, not requests per second.
 *
 * It creates a scratch database beside DATABASE_URL (required), runs the migrations, bootstraps a
 * project and a launched experiment through the services, seeds BENCH_RESULTS_EVENTS events
 * (default 1,000,000) with one `generate_series` INSERT — a third `$feature_flag_called`, a third
 * `$pageview`, a third `$pageleave`, over BENCH_RESULTS_ACTORS distinct ids (default 100,000), each with
 * a person id as ingestion stores it, and 30 days, split 50/50 — then, for a funnel and a trend metric, times `GET …/results?refresh=1` over
 * HTTP (median of BENCH_RESULTS_ROUNDS, default 5) against the floor: one aggregate query over the
 * same rows (`count(*)`, `count(distinct distinct_id)` per event and variant), run with `pg` directly,
 * in alternation with the requests. Prints a table and the ratio service / floor. The scratch
 * database is dropped at the end.
 */
import 'reflect-metadata';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { createApp } from '../src/app';
import { openDatabase } from '../src/db/database';
import { createLogger } from '../src/http/logging';
import { OrganizationService } from '../src/modules/organization/organization.service';
import { PersonalApiKeyService } from '../src/modules/personal-api-key/personal-api-key.service';
import { ProjectService } from '../src/modules/project/project.service';
import { UserService } from '../src/modules/user/user.service';

const EVENTS = Number(process.env.BENCH_RESULTS_EVENTS ?? 1_000_000);
const ACTORS = Number(process.env.BENCH_RESULTS_ACTORS ?? Math.max(10, Math.round(EVENTS / 10)));
const ROUNDS = Number(process.env.BENCH_RESULTS_ROUNDS ?? 5);
const FLAG = 'bench-results';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const elapsed = async (action: () => Promise<unknown>) => {
  const started = process.hrtime.bigint();
  await action();
  return Number(process.hrtime.bigint() - started) / 1e6;
};

/**
 * The service and the floor in alternation, round after round (after one warm-up of each: plans,
 * caches), so load from elsewhere on the machine weighs on both alike.
 */
async function paired(action: () => Promise<unknown>, floor: () => Promise<unknown>): Promise<{ service: number[]; floor: number[] }> {
  await action();
  await floor();
  const times = { service: [] as number[], floor: [] as number[] };
  for (let i = 0; i < ROUNDS; i++) {
    times.service.push(await elapsed(action));
    times.floor.push(await elapsed(floor));
  }
  return times;
}

async function main() {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('DATABASE_URL is required (a PostgreSQL server; the scratch database is made beside it)');
  const scratch = `bench_results_${process.pid}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${scratch}`);
  const url = new URL(adminUrl);
  url.pathname = `/${scratch}`;
  const database = await openDatabase({ databaseUrl: url.toString() });
  process.env.RATE_LIMIT_ENABLED = 'false';
  const { app, stop } = await createApp({ orm: database.orm, logger: createLogger('warn'), changesUrl: url.toString() });
  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- Koa's handler settles every request's errors itself
  const server = createServer(app.callback()).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const floor = new Client({ connectionString: url.toString() });
  try {
    const { project, key } = await database.orm.em.fork().transactional(async (em) => {
      const organization = OrganizationService.create(em, 'Bench');
      const project = ProjectService.create(em, organization, 'Bench');
      await em.flush();
      const user = await UserService.create(em, { email: 'bench@example.com', firstName: 'Bench' });
      await OrganizationService.addMember(em, organization, user, 'owner');
      return { project, key: (await PersonalApiKeyService.create(em, user)).key };
    });
    const call = async (path: string, init: RequestInit = {}): Promise<any> => {
      const res = await fetch(`${base}/api/projects/${project.id}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      });
      const body = await res.json();
      if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
      return body;
    };
    const start = new Date(Date.now() - 31 * 86_400_000);
    const funnel = await call('/experiments/', {
      method: 'POST',
      body: JSON.stringify({
        name: 'funnel',
        feature_flag_key: FLAG,
        start_date: start.toISOString(),
        filters: {
          insight: 'funnels',
          events: [
            { id: '$pageview', order: 0 },
            { id: '$pageleave', order: 1 },
          ],
        },
      }),
    });
    const trend = await call('/experiments/', {
      method: 'POST',
      body: JSON.stringify({
        name: 'trend',
        feature_flag_key: FLAG,
        start_date: start.toISOString(),
        filters: { insight: 'trends', events: [{ id: '$pageview', order: 0 }] },
      }),
    });

    await floor.connect();
    const seeding = process.hrtime.bigint();
    await floor.query(
      `insert into event (project_id, uuid, event, distinct_id, properties, timestamp, person_id, created_at)
       select $1, gen_random_uuid(),
              -- every 3rd actor never leaves through $pageleave, so the funnel has failures
              case when i % 3 = 2 and ((i / 3) % $3) % 3 = 0 then '$pageexit' else (array['$feature_flag_called', '$pageview', '$pageleave'])[1 + i % 3] end,
              'user-' || (i / 3) % $3,
              case when i % 3 = 0
                then jsonb_build_object('$feature_flag', $4::text, '$feature_flag_response', case when ((i / 3) % $3) % 2 = 0 then 'control' else 'test' end,
                                        '$feature/' || $4::text, case when ((i / 3) % $3) % 2 = 0 then 'control' else 'test' end)
                else jsonb_build_object('$feature/' || $4::text, case when ((i / 3) % $3) % 2 = 0 then 'control' else 'test' end, '$current_url', 'https://example.com/' || i % 50)
              end,
              $5::timestamptz + (i % 2592000) * interval '1 second' + (i % 3) * interval '1 second',
              md5('person-' || (i / 3) % $3)::uuid, now()
         from generate_series(0, $2 - 1) as i`,
      [project.id, EVENTS, ACTORS, FLAG, start],
    );
    await floor.query('analyze event');
    const seedSeconds = Number(process.hrtime.bigint() - seeding) / 1e9;

    const floorQuery = () =>
      floor.query(
        `select event, properties ->> $2 as variant, count(*), count(distinct distinct_id)
           from event where project_id = $1 and event = any($3::text[]) and timestamp >= $4 and timestamp <= now()
          group by 1, 2`,
        [project.id, `$feature/${FLAG}`, ['$pageview', '$pageleave', '$feature_flag_called'], start],
      );
    const rows = [
      { name: `funnel results, ${EVENTS.toLocaleString('en')} events`, path: `/experiments/${funnel.id}/results/?refresh=1` },
      { name: `trend results, ${EVENTS.toLocaleString('en')} events`, path: `/experiments/${trend.id}/results/?refresh=1` },
      { name: 'cached results (no refresh)', path: `/experiments/${trend.id}/results/` },
    ];
    const measured = [];
    for (const row of rows) measured.push({ ...row, ...(await paired(() => call(row.path), floorQuery)) });
    const sample = await call(`/experiments/${funnel.id}/results/`);
    console.log(
      `seeded ${EVENTS} events over ${ACTORS} ids in ${seedSeconds.toFixed(1)} s; funnel variants ${JSON.stringify(sample.result.variants)}`,
    );
    console.log('floor: one aggregate query over the same rows, timed in alternation with each scenario');
    console.log('| scenario | median ms | min ms | floor median ms | ratio to floor |');
    console.log('|---|---|---|---|---|');
    for (const row of measured) {
      console.log(
        `| ${row.name} | ${median(row.service).toFixed(1)} | ${Math.min(...row.service).toFixed(1)} | ${median(row.floor).toFixed(1)} | ${(median(row.service) / median(row.floor)).toFixed(2)} |`,
      );
    }
  } finally {
    await floor.end().catch(() => undefined);
    server.close();
    await stop();
    await database.close();
    if (!process.env.BENCH_RESULTS_KEEP) await admin.query(`drop database if exists ${scratch} with (force)`).catch(() => undefined);
    await admin.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
