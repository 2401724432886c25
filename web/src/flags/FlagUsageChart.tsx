import type { ReactNode } from 'react';
import { Chart, type ChartTable, type PlotModule } from '../charts/Chart';

/** One series of a tile's result, as `Insight.result` gives it (docs/dashboards.md, "What `result` means"). */
export interface UsageSeries {
  label: string;
  breakdownValue?: string | null;
  days: string[];
  data: number[];
  count: number;
  aggregatedValue: number;
}

/**
 * Series colours: dark enough for their direct labels to read on white (4.5:1 or more), told apart by
 * hue. Each line is also named by its label at its end, so colour is never the only cue.
 */
export const SERIES_COLOURS = ['#1f5fbf', '#b34700', '#1d6b34', '#7a3a9a', '#a3231c', '#4f5660', '#006d77', '#8a5a00'];

const LABEL_PX = 14;
const MARGIN_TOP = 26;
const MARGIN_BOTTOM = 30;

/** The numbers behind a usage chart: one row per day, one column per series. */
export function usageTable(series: UsageSeries[], unit: string): ChartTable {
  const days = series[0]?.days ?? [];
  return {
    columns: ['Day', ...series.map((s) => `${s.label} (${unit})`)],
    rows: days.map((day, i) => [day, ...series.map((s) => s.data[i] ?? 0)]),
  };
}

/** A y range that starts at 0 and gives whole-number ticks even for tiny counts. */
function topOf(series: UsageSeries[]): number {
  const max = Math.max(1, ...series.flatMap((s) => s.data));
  return max <= 5 ? max : Math.ceil(max * 1.05);
}

/**
 * Where each line's label sits: at its last value, nudged apart so labels of lines that end close
 * together do not overlap (in data units: LABEL_PX of the plotted height).
 */
function labelPositions(series: UsageSeries[], top: number, height: number): number[] {
  const gap = (top * LABEL_PX) / Math.max(1, height - MARGIN_TOP - MARGIN_BOTTOM);
  const order = series.map((s, i) => ({ i, y: s.data[s.data.length - 1] ?? 0 })).sort((a, b) => a.y - b.y);
  const placed: number[] = new Array<number>(series.length).fill(0);
  let previous = -Infinity;
  for (const { i, y } of order) {
    const at = Math.max(y, previous + gap);
    placed[i] = at;
    previous = at;
  }
  // Labels pushed past the top come back down together, keeping their gaps.
  const overflow = Math.max(0, previous - top);
  return placed.map((y) => y - overflow);
}

/** Lines over UTC days, one per series, each labelled at its end (SVG text: no HTML legend). */
export function drawUsage(plot: PlotModule, series: UsageSeries[], yLabel: string, { width, height }: { width: number; height: number }) {
  const points = series.flatMap((s) =>
    s.days.map((day, i) => ({ day: new Date(`${day}T00:00:00Z`), value: s.data[i] ?? 0, series: s.label })),
  );
  const top = topOf(series);
  const lastDay = new Date(`${series[0].days[series[0].days.length - 1]}T00:00:00Z`);
  const labels = labelPositions(series, top, height).map((y, i) => ({ day: lastDay, y, text: series[i].label, series: series[i].label }));
  const longest = Math.max(...series.map((s) => s.label.length));
  const drawn = plot.plot({
    width,
    height,
    marginTop: MARGIN_TOP,
    marginBottom: MARGIN_BOTTOM,
    marginLeft: 48,
    marginRight: Math.min(160, 16 + longest * 7),
    x: { type: 'utc', label: null },
    y: {
      domain: [0, top],
      grid: true,
      label: yLabel,
      ticks: Math.min(5, top),
      tickFormat: (d: number) => (Number.isInteger(d) ? d.toLocaleString('en') : ''),
    },
    color: { domain: series.map((s) => s.label), range: SERIES_COLOURS },
    marks: [
      plot.ruleY([0]),
      plot.lineY(points, { x: 'day', y: 'value', z: 'series', stroke: 'series', strokeWidth: 2 }),
      plot.dot(points, {
        x: 'day',
        y: 'value',
        fill: 'series',
        r: series[0].days.length > 31 ? 1.5 : 2.5,
        title: (d: { day: Date; value: number; series: string }) =>
          `${d.series}, ${d.day.toISOString().slice(0, 10)}: ${d.value.toLocaleString('en')}`,
      }),
      plot.text(labels, { x: 'day', y: 'y', text: 'text', fill: 'series', dx: 6, textAnchor: 'start', fontWeight: 'bold' }),
    ],
  });
  return drawn;
}

/** A tile's series as a named chart with its numbers. */
export function UsageChart({
  name,
  description,
  series,
  unit,
}: {
  name: string;
  description: ReactNode;
  series: UsageSeries[];
  unit: string;
}) {
  return (
    <Chart
      name={name}
      description={description}
      table={usageTable(series, unit)}
      draw={(plot, size) => drawUsage(plot, series, unit.charAt(0).toUpperCase() + unit.slice(1), size)}
    />
  );
}
