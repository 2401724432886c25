import { availableParallelism } from 'node:os';
import { personProperties, remoteDistinctId } from '../fixtures';
import { stopChild } from '../children';
import { forkFloor } from '../floors/fork';
import { httpRunner, type HttpLoad, type Side } from '../load';
import { wrkAvailable, wrkRunner } from '../wrk';
import { childrenOf, RssWatch } from '../proc';
import { startService, stopService, type RunningService } from '../service';
import { alternate, logged, makeRow } from './row';
import { servedAnswers } from './flags-lookup';
import type { BenchContext, Row, Scenario } from './types';

/**
 * WEB_CONCURRENCY (docs/operations.md#workers): the same service as N worker processes (N = the
 * machine's cores) against one worker, the bench's own service, on the same database, both under the
 * same load in alternating rounds; the "floor" column is the one-worker service, so the ratio is N
 * workers over one. PostgreSQL only: the embedded database runs in one process.
 */
export const workers: Scenario = {
  id: 'workers',
  async run(context) {
    if (context.database.kind !== 'postgresql') {
      context.log('  skipped: several workers need PostgreSQL (DATABASE_URL); the embedded database runs in one process');
      return [];
    }
    const count = availableParallelism();
    // The row measures how the service uses the cores: a generator of its own in C (wrk, one thread)
    // leaves them to it where autocannon, parsing every answer in this process, takes one.
    const generator = wrkAvailable() ? 'wrk' : 'autocannon';
    const runner = generator === 'wrk' ? wrkRunner : httpRunner;
    const { small } = context.world;
    const { settings } = context;
    const started = Date.now();
    let cluster: RunningService | undefined;
    try {
      cluster = await startService({ ...context.database.serviceEnv, WEB_CONCURRENCY: String(count) });
      const startMs = Date.now() - started;
      let next = 0;
      const subjectBody = (i: number) =>
        JSON.stringify({
          token: small.apiToken,
          distinct_id: remoteDistinctId(i, settings.ingestionUsers),
          person_properties: personProperties(i),
        });
      // The /flags row also measures its floor as N processes against one: what more processes can
      // add on this machine when PostgreSQL and the load generator share its cores.
      const loads: Array<[string, HttpLoad, boolean]> = [
        [
          `GET /flags/definitions, ${settings.smallProjectFlags} flags, 200`,
          {
            method: 'GET',
            path: `/flags/definitions?token=${small.apiToken}`,
            headers: { Authorization: `Bearer ${small.secretToken}` },
            expect: 200,
          },
          false,
        ],
        [
          `POST /flags/?v=2, ${settings.smallProjectFlags} flags, one subject`,
          {
            method: 'POST',
            path: '/flags/?v=2',
            headers: { 'Content-Type': 'application/json' },
            makeBody: () => subjectBody(next++ % settings.ingestionUsers),
            expect: 200,
          },
          true,
        ],
      ];
      const rows: Row[] = [];
      for (const [name, load, withFloor] of loads) {
        const pids = childrenOf(cluster.pid);
        const watches = pids.map((pid) => new RssWatch(pid));
        const sides = await alternate(
          context,
          runner(context.service.url, load, settings.connections, context.service.pid),
          runner(cluster.url, load, settings.connections, cluster.pid),
          false,
        );
        cluster.assertRunning();
        const peaks = watches.map((watch) => watch.stop()).filter((peak): peak is number => peak !== null);
        const row = makeRow(
          {
            scenario: `${name}: ${count} workers vs 1`,
            unit: 'req/s',
            floor: 'the same service, one worker (WEB_CONCURRENCY=1), same database',
            target: { ratio: 1.3 },
          },
          sides.service,
          sides.floor,
          peaks.length ? Math.max(...peaks) : null,
          [
            `${pids.length} workers (pids ${pids.join(', ')}); peak RSS per worker ${peaks.map((p) => p.toFixed(0)).join(', ')} MiB; the load generator (${generator === 'wrk' ? 'wrk, one thread' : 'autocannon in the bench process: install wrk to leave the cores to the service'}) shares the machine's ${count} cores`,
            `first worker answered /_health ${startMs} ms after the start`,
          ],
        );
        if (withFloor) row.notes.push(await floorProcesses(context, subjectBody, load, runner, count));
        rows.push(logged(context, row));
      }
      return rows;
    } finally {
      await stopService(cluster);
    }
  },
};

/**
 * The `/flags` floor (node:http + pg: the body parsed, the one person lookup, as many bytes) as
 * `count` processes against one, under the same load: a note on the workers row, not a row of its
 * own, since it measures the machine rather than the service.
 */
async function floorProcesses(
  context: BenchContext,
  subjectBody: (i: number) => string,
  load: HttpLoad,
  runner: typeof wrkRunner,
  count: number,
): Promise<string> {
  const served = await servedAnswers(context, subjectBody, context.settings.ingestionUsers);
  const one = await context.floorServer();
  await one.serveFlags(served);
  const { child, server: many } = await forkFloor(context.floorDatabaseUrl, context.database.floorPoolSize, count);
  try {
    await many.serveFlags(served);
    const { connections } = context.settings;
    const sides = await alternate(
      context,
      runner(one.url, load, connections, one.pid),
      runner(many.url, load, connections, many.pid),
      false,
    );
    const rate = (side: Side) => side.throughput.toFixed(0);
    const errors = sides.service.errors + sides.floor.errors;
    if (errors) return `the /flags floor as ${count} processes against one: ${errors} unexpected answers or errors, no ratio`;
    return `the /flags floor measured the same way: ${count} processes ${rate(sides.service)} req/s vs one ${rate(sides.floor)}, ratio ${(sides.service.throughput / sides.floor.throughput).toFixed(2)}`;
  } finally {
    await stopChild(child);
  }
}
