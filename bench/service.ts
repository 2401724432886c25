import { execFile, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DIST, freePort, sleep, spawnNode, stopChild } from './children';

export interface RunningService {
  url: string;
  pid: number;
  process: ChildProcess;
  env: NodeJS.ProcessEnv;
  /** Throws if the service is no longer running (a crash must not read as a row of zeros). */
  assertRunning(): void;
}

/**
 * The environment the service and its CLI share: production mode, no rate limits, quiet logs,
 * loopback only, one worker (the rows' targets are per worker; the `workers` row sets its own count).
 */
function serviceEnv(database: NodeJS.ProcessEnv, port: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    RATE_LIMIT_ENABLED: 'false',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(port),
    WEB_CONCURRENCY: '1',
  };
  delete env.DATABASE_URL;
  delete env.DATA_DIR;
  return { ...env, ...database };
}

/** The node arguments `npm start` runs the service with (package.json's `config.service_node_args`: V8's heap sizes). */
function startArgs(): string[] {
  const pkg = JSON.parse(readFileSync(path.join(DIST, '..', 'package.json'), 'utf8')) as { config?: { service_node_args?: string } };
  return (pkg.config?.service_node_args ?? '').split(' ').filter(Boolean);
}

/** Runs dist/src/main.js as its own process, with `npm start`'s node arguments, and waits (at most 120 s: a first embedded start is slow) for /_health. */
export async function startService(database: NodeJS.ProcessEnv): Promise<RunningService> {
  const port = await freePort();
  const env = serviceEnv(database, port);
  // BENCH_PROFILE=<dir>: the service writes a CPU profile there when it stops (`node --cpu-prof`).
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_PROFILE)}`] : [];
  // BENCH_NODE_ARGS: more options for the service's node (a heap setting being tried, say); V8 takes the last of two.
  const extra = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawnNode(path.join(DIST, 'src/main.js'), [], env, [...startArgs(), ...profile, ...extra]);
  const url = `http://127.0.0.1:${port}`;
  let exit: string | undefined;
  child.once('exit', (code, signal) => {
    exit = `code ${code}, signal ${signal}`;
    if (!stopping.has(child)) process.stderr.write(`the service (pid ${child.pid}) exited unexpectedly: ${exit}\n`);
  });
  const service: RunningService = {
    url,
    pid: child.pid!,
    process: child,
    env,
    assertRunning() {
      if (exit) throw new Error(`the service exited (${exit})`);
    },
  };
  for (let attempt = 0; attempt < 600; attempt++) {
    service.assertRunning();
    const ok = await fetch(`${url}/_health`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return service;
    await sleep(200);
  }
  await stopChild(child);
  throw new Error('the service did not answer /_health within 120 s');
}

const stopping = new WeakSet<ChildProcess>();

export function stopService(service: RunningService | undefined): Promise<void> {
  if (service) stopping.add(service.process);
  return stopChild(service?.process, 20_000);
}

/** One CLI command beside the running service (same env); its one JSON object. */
export function cli<T>(service: RunningService, args: string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [path.join(DIST, 'src/cli/main.js'), ...args],
      { env: service.env, timeout: 60_000 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`cli ${args[0]} failed: ${stderr || error.message}`));
        try {
          resolve(JSON.parse(stdout) as T);
        } catch {
          reject(new Error(`cli ${args[0]} printed no JSON: ${stdout}`));
        }
      },
    );
  });
}
