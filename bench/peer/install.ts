import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * The peer, Unleash, from the npm registry: installed on demand with npm into a cache directory
 * outside the repository (never a dependency of the project), reused by later runs.
 */
export const UNLEASH_VERSION = '7.5.1';

/** `BENCH_PEER_CACHE`, else `$XDG_CACHE_HOME/flagship-bench/unleash-<version>` (`$HOME/.cache/…` without it). */
export function peerDirectory(): string {
  if (process.env.BENCH_PEER_CACHE) return path.resolve(process.env.BENCH_PEER_CACHE);
  const cache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(cache, 'flagship-bench', `unleash-${UNLEASH_VERSION}`);
}

const packageDir = (dir: string) => path.join(dir, 'node_modules', 'unleash-server');

function installedVersion(dir: string): string | null {
  try {
    return (JSON.parse(readFileSync(path.join(packageDir(dir), 'package.json'), 'utf8')) as { version?: string }).version ?? null;
  } catch {
    return null;
  }
}

function npmInstall(dir: string, log: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--omit=dev', '--loglevel=error'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr = `${stderr}${chunk.toString()}`.slice(-2000)));
    // Bounded: a registry that stalls must not hold the bench for ever.
    const timer = setTimeout(() => child.kill('SIGTERM'), 15 * 60_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolve();
      log(stderr);
      reject(new Error(`npm install exited with ${code ?? signal}: ${stderr.trim().split('\n').pop() ?? ''}`));
    });
  });
}

/**
 * The path of Unleash's server module, installing unleash-server@7.5.1 first when the cache does not
 * hold it (into a temporary directory beside it, renamed when complete, so an interrupted install
 * never looks installed). Throws with the reason when it cannot.
 */
export async function ensureUnleash(log: (line: string) => void): Promise<string> {
  const dir = peerDirectory();
  if (installedVersion(dir) !== UNLEASH_VERSION) {
    const partial = `${dir}.partial-${process.pid}`;
    log(`  installing unleash-server@${UNLEASH_VERSION} into ${dir} (once; takes minutes)`);
    await rm(partial, { recursive: true, force: true });
    await mkdir(partial, { recursive: true });
    await writeFile(
      path.join(partial, 'package.json'),
      `${JSON.stringify({ private: true, description: 'the bench peer, installed by flagship bench/', dependencies: { 'unleash-server': UNLEASH_VERSION } }, null, 2)}\n`,
    );
    try {
      await npmInstall(partial, log);
      if (installedVersion(partial) !== UNLEASH_VERSION) throw new Error(`npm did not install unleash-server@${UNLEASH_VERSION}`);
      await rm(dir, { recursive: true, force: true });
      await rename(partial, dir);
    } finally {
      await rm(partial, { recursive: true, force: true });
    }
  }
  const entry = path.join(packageDir(dir), 'dist', 'lib', 'server-impl.js');
  if (!existsSync(entry)) throw new Error(`${entry} is missing`);
  return entry;
}
