import { httpRunner, merge, type HttpLoad, type Runner, type Sample, type Side } from '../load';
import { RssWatch } from '../proc';
import type { BenchContext, Row } from './types';

export interface RowSpec {
  scenario: string;
  unit: string;
  floor: string;
  target: Row['target'];
}

/** Ratio service/floor and the verdict: any failed request or error on either side makes the row an error, not a number. */
export function makeRow(spec: RowSpec, service: Side, floorSide: Side, serviceRssMiB: number | null, notes: string[] = []): Row {
  const ratio = service.throughput / floorSide.throughput;
  const errors = service.errors + floorSide.errors > 0 || service.count === 0 || floorSide.count === 0;
  const met = ratio >= spec.target.ratio && (spec.target.minThroughput === undefined || service.throughput >= spec.target.minThroughput);
  if (service.errors) notes.push(`service: ${service.errors} unexpected responses or errors ${JSON.stringify(service.statuses)}`);
  if (floorSide.errors) notes.push(`floor: ${floorSide.errors} unexpected responses or errors ${JSON.stringify(floorSide.statuses)}`);
  return { ...spec, service, floorSide, ratio, verdict: errors ? 'error' : met ? 'pass' : 'miss', serviceRssMiB, notes };
}

/**
 * Both sides warmed up, then measured in alternating rounds (floor, service, floor, service…) that
 * add up to the measured duration per side: the machine is shared, and load from elsewhere then
 * weighs on both sides alike. `watchService` samples the service's resident set meanwhile.
 */
export async function alternate(
  context: BenchContext,
  floor: Runner,
  service: Runner,
  watchService: boolean,
): Promise<{ floor: Side; service: Side; rss: number | null }> {
  const { warmupSeconds, durationSeconds, rounds } = context.settings;
  context.service.assertRunning();
  const watch = watchService ? new RssWatch(context.service.pid) : null;
  try {
    await floor.warm(warmupSeconds);
    await service.warm(warmupSeconds);
    const floorSamples: Sample[] = [];
    const serviceSamples: Sample[] = [];
    for (let round = 0; round < rounds; round++) {
      floorSamples.push(await floor.run(durationSeconds / rounds));
      serviceSamples.push(await service.run(durationSeconds / rounds));
    }
    context.service.assertRunning();
    return { floor: merge(floorSamples), service: merge(serviceSamples), rss: watch?.stop() ?? null };
  } finally {
    watch?.stop();
  }
}

/** An HTTP row: the same load against the floors' server and the service. */
export async function httpRow(context: BenchContext, spec: RowSpec, load: (side: 'floor' | 'service') => HttpLoad): Promise<Row> {
  const floor = await context.floorServer();
  const { connections } = context.settings;
  const sides = await alternate(
    context,
    httpRunner(floor.url, load('floor'), connections, floor.pid),
    httpRunner(context.service.url, load('service'), connections, context.service.pid),
    true,
  );
  return logged(context, makeRow(spec, sides.service, sides.floor, sides.rss));
}

/** A progress line per finished row (a full run takes minutes). */
export function logged(context: BenchContext, row: Row): Row {
  const rate = (side: Side) => side.throughput.toFixed(0);
  const cpu = (side: Side) => (side.cpuMsPerUnit === null ? '?' : side.cpuMsPerUnit.toFixed(3));
  context.log(
    `  ${row.scenario}: ${rate(row.service)} vs ${rate(row.floorSide)} ${row.unit}, ratio ${row.ratio.toFixed(2)} (${row.verdict}); ` +
      `CPU ms per ${row.unit.replace(/s?\/s$/, '')} ${cpu(row.service)} vs ${cpu(row.floorSide)}`,
  );
  return row;
}
