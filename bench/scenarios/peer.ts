import { randomBytes } from 'node:crypto';
import { forkBench, freePort, nextMessage, stopChild } from '../children';
import { httpRunner, type HttpLoad, type Side } from '../load';
import { ensureUnleash, UNLEASH_VERSION } from '../peer/install';
import { peerApi, seedPeer } from '../peer/unleash-seed';
import { withClient } from '../pg';
import { alternate, logged, makeRow, type RowSpec } from './row';
import type { BenchContext, Row, Scenario } from './types';

const PEER = `Unleash ${UNLEASH_VERSION}`;
const LIST_PATH = '/api/admin/search/features?project=IS:default&limit=100';
const RETRIEVE_KEY = 'small-2';

const empty: Side = { throughput: 0, p50: NaN, p99: NaN, count: 0, seconds: 0, errors: 0, statuses: {}, cpuMsPerUnit: null };

/** A row that could not run: no numbers, the reason in its result. */
const skipped = (spec: RowSpec, why: string): Row => ({
  ...spec,
  service: empty,
  floorSide: empty,
  ratio: NaN,
  verdict: 'skipped',
  serviceRssMiB: null,
  notes: [`skipped: ${why}`],
});

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Unleash on a scratch database beside the service's; stopped and dropped by the returned function. */
async function startPeer(context: BenchContext, entry: string, token: string) {
  const base = process.env.DATABASE_URL!;
  const name = `flagship_bench_peer_${process.pid}_${Date.now().toString(36)}`;
  await withClient(base, (client) => client.query(`create database "${name}"`));
  const port = await freePort();
  const child = forkBench('peer/unleash-server.js', {
    PEER_ENTRY: entry,
    PEER_DATABASE_URL: Object.assign(new URL(base), { pathname: `/${name}` }).toString(),
    PEER_PORT: String(port),
    PEER_ADMIN_TOKEN: token,
    NODE_ENV: 'production',
    NODE_NO_WARNINGS: '1',
    TZ: 'UTC',
  });
  const stop = async () => {
    await stopChild(child);
    await withClient(base, (client) => client.query(`drop database if exists "${name}" with (force)`)).catch((error) =>
      context.log(`  dropping the peer's database: ${message(error)}`),
    );
  };
  try {
    // Its migrations run on a first start: a minute on a busy machine.
    await nextMessage(child, (m) => (m as { ready?: boolean }).ready, 180_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, stop };
}

/**
 * The service's admin reads beside the peer's (Unleash from the npm registry, installed on demand
 * outside the repository, on a scratch database of the same PostgreSQL, seeded with the service's
 * 100 flag fixtures through its admin API): its console's flag list (a page of up to 100 with the
 * total and creators) and one flag. Ratio = service / peer. `BENCH_PEER=none` skips it.
 */
export const peer: Scenario = {
  id: 'peer',
  async run(context) {
    const { world, settings } = context;
    const list: RowSpec = {
      scenario: `REST list, ${settings.smallProjectFlags} flags, vs the peer`,
      unit: 'req/s',
      floor: `${PEER}: GET ${LIST_PATH} (its console's list: page, total, creators)`,
      target: { ratio: 1.5 },
    };
    const retrieve: RowSpec = {
      scenario: 'REST retrieve one flag, vs the peer',
      unit: 'req/s',
      floor: `${PEER}: GET /api/admin/projects/default/features/${RETRIEVE_KEY} (strategies, variants, creator)`,
      target: { ratio: 1.0 },
    };
    const skipBoth = (why: string) => {
      context.log(`  peer skipped: ${why}`);
      return [skipped(list, why), skipped(retrieve, why)];
    };
    if (settings.peer === 'none') return skipBoth('BENCH_PEER=none');
    if (context.database.kind !== 'postgresql') return skipBoth('the peer needs PostgreSQL (DATABASE_URL is unset)');

    let entry: string;
    try {
      entry = await ensureUnleash(context.log);
    } catch (error) {
      return skipBoth(`unleash-server@${UNLEASH_VERSION} could not be installed: ${message(error)}`);
    }
    const token = `*:*.${randomBytes(24).toString('hex')}`;
    let running: Awaited<ReturnType<typeof startPeer>>;
    try {
      running = await startPeer(context, entry, token);
    } catch (error) {
      return skipBoth(`${PEER} did not start: ${message(error)}`);
    }
    try {
      const api = peerApi(running.url, token);
      try {
        const started = Date.now();
        await seedPeer(api, settings.smallProjectFlags, settings.ingestionUsers);
        context.log(`  seeded ${settings.smallProjectFlags} flags into ${PEER} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
        const page = (await api.request('GET', LIST_PATH)).body as { features?: unknown[]; total?: number };
        if (page.features?.length !== settings.smallProjectFlags || page.total !== settings.smallProjectFlags)
          throw new Error(`its list answered ${page.features?.length} features of ${page.total}`);
        const one = await api.request('GET', `/api/admin/projects/default/features/${RETRIEVE_KEY}`);
        if (one.status !== 200) throw new Error(`its retrieve answered ${one.status}`);
      } catch (error) {
        return skipBoth(`seeding ${PEER} failed: ${message(error)}`);
      }

      const auth = { Authorization: `Bearer ${world.keys[0]}` };
      const peerAuth = { Authorization: token };
      const rows: Row[] = [];
      const cases: Array<[RowSpec, HttpLoad, HttpLoad]> = [
        [
          list,
          { method: 'GET', path: `/api/projects/${world.small.id}/feature_flags/?limit=100`, headers: auth, expect: 200 },
          { method: 'GET', path: LIST_PATH, headers: peerAuth, expect: 200 },
        ],
        [
          retrieve,
          { method: 'GET', path: `/api/projects/${world.small.id}/feature_flags/${world.small.flagIds[2]}/`, headers: auth, expect: 200 },
          { method: 'GET', path: `/api/admin/projects/default/features/${RETRIEVE_KEY}`, headers: peerAuth, expect: 200 },
        ],
      ];
      for (const [spec, serviceLoad, peerLoad] of cases) {
        const sides = await alternate(
          context,
          httpRunner(running.url, peerLoad, settings.connections, running.pid),
          httpRunner(context.service.url, serviceLoad, settings.connections, context.service.pid),
          true,
        );
        const row = makeRow(spec, sides.service, sides.floor, sides.rss, ['the "floor" columns are the peer; ratio = service / peer']);
        rows.push(logged(context, row));
      }
      return rows;
    } finally {
      await running.stop();
    }
  },
};
