import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Row } from './scenarios/types';

/** bench/results/ in the source tree (this file runs from dist/bench/). */
export const RESULTS_DIR = path.resolve(__dirname, '..', '..', 'bench', 'results');

export function machine(database: { kind: string; version: string }, loadAtStart: number[]) {
  const cpus = os.cpus();
  return {
    cpu_model: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    memory_mib: Math.round(os.totalmem() / 2 ** 20),
    load_average_at_start: loadAtStart,
    load_average_at_end: loadAverage(),
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    database,
  };
}

/** The commit measured, and whether src/ had uncommitted changes (read-only git commands; null outside a checkout). */
export function revision(): { commit: string; src_dirty: boolean } | null {
  try {
    const git = (...args: string[]) =>
      execFileSync('git', ['--no-optional-locks', ...args], {
        cwd: path.dirname(RESULTS_DIR),
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim();
    return { commit: git('rev-parse', 'HEAD'), src_dirty: git('status', '--porcelain', '--', '../src').length > 0 };
  } catch {
    return null;
  }
}

/** 1, 5 and 15 minutes: the machine is shared, and a loaded one moves every number. */
export const loadAverage = () => os.loadavg().map((n) => Number(n.toFixed(2)));

const round = (value: number, digits = 3) => (Number.isFinite(value) ? Number(value.toFixed(digits)) : null);

function rowJson(row: Row) {
  const side = (s: Row['service']) => ({
    throughput: round(s.throughput, 1),
    p50_ms: round(s.p50),
    p99_ms: round(s.p99),
    count: s.count,
    seconds: s.seconds,
    errors: s.errors,
    statuses: s.statuses,
  });
  return {
    scenario: row.scenario,
    unit: row.unit,
    floor: row.floor,
    service: side(row.service),
    floor_side: side(row.floorSide),
    ratio: round(row.ratio),
    target: row.target,
    result: row.verdict,
    service_peak_rss_mib: row.serviceRssMiB === null ? null : round(row.serviceRssMiB, 1),
    notes: row.notes,
  };
}

/** Writes bench/results/<timestamp>.json and bench/results/latest.json; returns the first path. */
export async function writeResults(report: Record<string, unknown>, rows: Row[], startedAt: Date): Promise<string> {
  await mkdir(RESULTS_DIR, { recursive: true });
  const json = `${JSON.stringify({ ...report, rows: rows.map(rowJson) }, null, 2)}\n`;
  const file = path.join(RESULTS_DIR, `${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  await writeFile(file, json);
  await writeFile(path.join(RESULTS_DIR, 'latest.json'), json);
  return file;
}
