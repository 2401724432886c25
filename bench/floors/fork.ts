import type { ChildProcess } from 'node:child_process';
import { forkBench, nextMessage } from '../children';
import type { FloorServer } from '../scenarios/types';
import type { ServedDefinitions } from './definitions';
import type { ServedFlags } from './sql-floors';

/**
 * Starts the floors' server (floors/server.js) on `databaseUrl` with a pool of `poolSize` per
 * process; `processes` > 1 runs that many behind one port (node:cluster, as the service's
 * WEB_CONCURRENCY), for the workers rows' floor. Resolves once every process listens.
 */
export async function forkFloor(
  databaseUrl: string,
  poolSize: number,
  processes = 1,
): Promise<{ child: ChildProcess; server: FloorServer }> {
  const child = forkBench('floors/server.js', {
    FLOOR_DATABASE_URL: databaseUrl,
    FLOOR_POOL: String(poolSize),
    FLOOR_PROCESSES: String(processes),
  });
  const port = await nextMessage(child, (m) => (m as { ready?: number }).ready, 30_000);
  const served = async (message: { definitions: ServedDefinitions[] } | { flags: ServedFlags }) => {
    const acked = nextMessage(child, (m) => (m as { ack?: boolean }).ack, 10_000);
    child.send(message);
    await acked;
  };
  return {
    child,
    server: {
      url: `http://127.0.0.1:${port}`,
      pid: child.pid!,
      serveDefinitions: (entries) => served({ definitions: entries }),
      serveFlags: (flags) => served({ flags }),
    },
  };
}
