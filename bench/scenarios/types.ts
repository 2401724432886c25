import type { BenchDatabase } from '../database';
import type { Side } from '../load';
import type { World } from '../seed';
import type { RunningService } from '../service';
import type { Settings } from '../settings';
import type { ServedDefinitions } from '../floors/definitions';
import type { ServedFlags } from '../floors/sql-floors';

/** `skipped`: the row could not run (its first note says why); its numbers are empty. */
export type Verdict = 'pass' | 'miss' | 'error' | 'skipped';

/** One line of the table: the service beside its floor. */
export interface Row {
  scenario: string;
  unit: string;
  floor: string;
  service: Side;
  floorSide: Side;
  ratio: number;
  target: { ratio: number; minThroughput?: number };
  verdict: Verdict;
  /** Peak resident set of the service while this row loaded it (MiB); null when the row does not run the service. */
  serviceRssMiB: number | null;
  notes: string[];
}

export interface FloorServer {
  url: string;
  pid: number;
  serveDefinitions(entries: ServedDefinitions[]): Promise<void>;
  serveFlags(served: ServedFlags): Promise<void>;
}

export interface BenchContext {
  settings: Settings;
  database: BenchDatabase;
  floorDatabaseUrl: string;
  service: RunningService;
  world: World;
  /** The bare-Koa floors' process, started on first use and stopped before the rows that need its database slot. */
  floorServer(): Promise<FloorServer>;
  stopFloorServer(): Promise<void>;
  log(line: string): void;
}

/** A group of rows; `id` is what BENCH_ONLY names. Later issues add theirs to scenarios/index.ts. */
export interface Scenario {
  id: string;
  run(context: BenchContext): Promise<Row[]>;
}
