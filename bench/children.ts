import { fork, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/** Where `npm run build` and the bench's tsc put their output (dist/, beside bench/ and src/). */
export const DIST = path.resolve(__dirname, '..');

// The tests' own choice of port, below the kernel's ephemeral range (see there).
export { freePort } from '../test/helpers/service-process';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Children write to our stderr only: stdout carries nothing but the table.
const STDIO = ['ignore', 2, 2] as const;

/** Starts one of the bench's own compiled scripts (dist/bench/…) with an IPC channel. */
export function forkBench(script: string, env: NodeJS.ProcessEnv): ChildProcess {
  return fork(path.join(DIST, 'bench', script), [], { env: { ...process.env, ...env }, stdio: [...STDIO, 'ipc'] });
}

export function spawnNode(script: string, args: string[], env: NodeJS.ProcessEnv, nodeArgs: string[] = []): ChildProcess {
  return spawn(process.execPath, [...nodeArgs, script, ...args], { env, stdio: [...STDIO] });
}

/** The next IPC message of `child` that `accept` takes, or an error if the child exits or `ms` pass first. */
export function nextMessage<T>(child: ChildProcess, accept: (message: unknown) => T | undefined, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`no answer from child ${child.pid} within ${ms} ms`)), ms);
    const onMessage = (message: unknown) => {
      const taken = accept(message);
      if (taken !== undefined) finish(undefined, taken);
    };
    const onExit = (code: number | null) => finish(new Error(`child ${child.pid} exited (${code}) before answering`));
    function finish(error?: Error, value?: T) {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve(value as T);
    }
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the child is gone. */
export async function stopChild(child: ChildProcess | undefined, graceMs = 10_000): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}
