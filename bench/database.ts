import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { withClient } from './pg';

/** Where the service under test keeps its data for one run, and how the floors reach the same database. */
export interface BenchDatabase {
  kind: 'postgresql' | 'embedded';
  /** DATABASE_URL or DATA_DIR for the service and its CLI. */
  serviceEnv: NodeJS.ProcessEnv;
  /** A connection string for the floors; for the embedded database, only once the service serves it. */
  floorUrl(): Promise<string>;
  /** Floors get as many connections as the load has, except on the embedded database (a handful of socket slots, one session). */
  floorPoolSize: number;
  drop(): Promise<void>;
}

/** A scratch database beside DATABASE_URL's (created here, dropped at the end). */
async function scratchPostgres(base: string): Promise<BenchDatabase> {
  const name = `flagship_bench_${process.pid}_${Date.now().toString(36)}`;
  const url = Object.assign(new URL(base), { pathname: `/${name}` }).toString();
  await withClient(base, (client) => client.query(`create database "${name}"`));
  return {
    kind: 'postgresql',
    serviceEnv: { DATABASE_URL: url },
    floorUrl: async () => url,
    floorPoolSize: 10,
    drop: () => withClient(base, (client) => client.query(`drop database if exists "${name}" with (force)`)).then(() => undefined),
  };
}

/** A fresh DATA_DIR; the service opens the embedded database there and publishes its socket in socket.json. */
async function scratchEmbedded(): Promise<BenchDatabase> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'flagship-bench-'));
  return {
    kind: 'embedded',
    serviceEnv: { DATA_DIR: dataDir },
    floorUrl: async () => (JSON.parse(await readFile(path.join(dataDir, 'socket.json'), 'utf8')) as { url: string }).url,
    floorPoolSize: 1,
    drop: () => rm(dataDir, { recursive: true, force: true, maxRetries: 5 }),
  };
}

export const openBenchDatabase = (databaseUrl: string | undefined) => (databaseUrl ? scratchPostgres(databaseUrl) : scratchEmbedded());
