import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import path from 'node:path';

/**
 * The service as an operator starts it: its own process (the sources transpiled by
 * transpiledCli(), so no build is needed), its JSON log lines parsed as they come.
 */
export interface LogLine {
  pid: number;
  msg: string;
  [field: string]: unknown;
}

export class ServiceProcess {
  readonly lines: LogLine[] = [];
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly child: ChildProcess;
  private waiters: Array<() => void> = [];

  constructor(transpiledDir: string, env: NodeJS.ProcessEnv) {
    this.child = spawn(process.execPath, [path.join(transpiledDir, 'src/main.js')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let partial = '';
    this.child.stdout!.on('data', (chunk) => {
      const text = partial + String(chunk);
      const complete = text.split('\n');
      partial = complete.pop()!;
      for (const line of complete) {
        try {
          this.lines.push(JSON.parse(line) as LogLine);
        } catch {
          // not a log line
        }
      }
      this.notify();
    });
    this.child.stderr!.on('data', (chunk) => {
      this.stderr += chunk;
      this.notify();
    });
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve({ code, signal })));
    void this.exited.then(() => this.notify());
  }

  get pid(): number {
    return this.child.pid!;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Resolves with the lines `accept` takes once it takes any; rejects after `ms` with what was logged. */
  async waitFor(accept: (lines: LogLine[]) => boolean, ms = 30_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!accept(this.lines)) {
      if (Date.now() > deadline) {
        throw new Error(`waited ${ms} ms; log:\n${this.lines.map((l) => JSON.stringify(l)).join('\n')}\nstderr:\n${this.stderr}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 100);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  kill(signal: NodeJS.Signals) {
    if (this.running) this.child.kill(signal);
  }

  private notify() {
    const waiting = this.waiters;
    this.waiters = [];
    for (const wake of waiting) wake();
  }
}

/**
 * A port no one listens on, for a child service to take. Chosen below the kernel's ephemeral range
 * (32768 and up on Linux by default): a port the kernel handed out for a probe can, in the moment
 * before the child binds it, become the local end of another outgoing connection (to PostgreSQL, a
 * browser), and the child then fails with "already in use". Ports below that range are not handed
 * out; two test files picking the same one at random within that moment is what remains.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve, reject) => {
      const probe = createServer();
      probe.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? resolve(false) : reject(error)));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error('no free port between 20000 and 31999 in 100 attempts');
}

/** One request on a connection of its own (no keep-alive), so that the workers share connections in turn. */
export function requestOnce(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Whether a process with this pid still exists (a zombie counts as gone). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
