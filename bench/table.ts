import type { Row } from './scenarios/types';

const rate = (value: number) =>
  value >= 100_000 ? `${(value / 1000).toFixed(0)}k` : value >= 10_000 ? `${(value / 1000).toFixed(1)}k` : value.toFixed(0);
const ms = (value: number) =>
  Number.isNaN(value) ? '–' : value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
const target = ({ target, unit }: Row) => `≥ ${target.ratio}${target.minThroughput ? ` and ≥ ${target.minThroughput} ${unit}` : ''}`;

/** The run as one markdown table (latencies in ms; throughput in each row's unit). */
export function renderTable(rows: Row[], overallRssMiB: number | null): string {
  const header = ['scenario', 'unit', 'service', 'p50 / p99', 'floor', 'p50 / p99', 'ratio', 'target', 'result', 'peak RSS MiB'];
  const lines = rows.map((row) => [
    row.scenario,
    row.unit,
    row.verdict === 'skipped' ? '–' : rate(row.service.throughput),
    `${ms(row.service.p50)} / ${ms(row.service.p99)}`,
    row.verdict === 'skipped' ? '–' : rate(row.floorSide.throughput),
    `${ms(row.floorSide.p50)} / ${ms(row.floorSide.p99)}`,
    row.verdict === 'skipped' ? '–' : row.ratio.toFixed(2),
    target(row),
    row.verdict === 'skipped' ? (row.notes[0] ?? 'skipped') : row.verdict,
    row.serviceRssMiB === null ? '–' : row.serviceRssMiB.toFixed(0),
  ]);
  const widths = header.map((title, c) => Math.max(title.length, ...lines.map((line) => line[c].length)));
  const format = (cells: string[]) => `| ${cells.map((cell, c) => cell.padEnd(widths[c])).join(' | ')} |`;
  const out = [format(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...lines.map(format)];
  out.push('', `service peak RSS over the whole run (VmHWM): ${overallRssMiB === null ? 'unknown' : `${overallRssMiB.toFixed(0)} MiB`}`);
  for (const row of rows) for (const note of row.notes) out.push(`- ${row.scenario}: ${note}`);
  return out.join('\n');
}
