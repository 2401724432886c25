import { readFileSync } from 'node:fs';

/** A field of /proc/<pid>/status in MiB (VmRSS now, VmHWM the peak so far); null off Linux or once the process is gone. */
export function statusMiB(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Polls a process's resident set while a scenario runs; `peak()` is the largest value seen. */
export class RssWatch {
  private max: number | null = null;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pid: number,
    intervalMs = 50,
  ) {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  private sample() {
    const rss = statusMiB(this.pid, 'VmRSS');
    if (rss !== null) this.max = Math.max(this.max ?? 0, rss);
  }

  stop(): number | null {
    clearInterval(this.timer);
    this.sample();
    return this.max;
  }
}

/** A process's children, e.g. a primary's workers (Linux's /proc/<pid>/task/<pid>/children). */
export function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

function ownCpuTicks(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

/**
 * CPU time (user + system) a process and its children (a primary's workers) have used, in clock
 * ticks (10 ms on Linux); null once the process is gone.
 */
export function cpuTicks(pid: number): number | null {
  const own = ownCpuTicks(pid);
  if (own === null) return null;
  return childrenOf(pid).reduce((sum, child) => sum + (ownCpuTicks(child) ?? 0), own);
}

/**
 * Waits (at most `maxMs`) until a process and its children (a primary's workers) stop using CPU.
 * When autocannon stops, requests it already sent are still being served; without this pause they
 * would run into the next measurement.
 */
export async function quiesce(pid: number, maxMs = 15_000): Promise<void> {
  const deadline = Date.now() + maxMs;
  let before = cpuTicks(pid);
  while (before !== null && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = cpuTicks(pid);
    // Two ticks in 250 ms (8% of a core at 100 Hz) is an idle Node process's timers and GC.
    if (now === null || now - before <= 2) return;
    before = now;
  }
}
