import { Chart } from '../../charts/Chart';
import { percent, rateText, type Kind, type VariantRow } from './model';

const CONTROL = '#4f5660';
const TEST = '#1f5fbf';
const label = (v: VariantRow) => (v.control && v.key !== 'control' ? `${v.key} (control)` : v.key);

/** Each variant's probability of being best as a bar, control in grey; the numbers as a table. */
export function ProbabilityChart({ variants, name = 'Probability of being best' }: { variants: VariantRow[]; name?: string }) {
  const data = variants.map((v) => ({ label: label(v), probability: v.probability, control: v.control }));
  return (
    <Chart
      name={name}
      description="The chance that each variant is truly the best one, given the data so far; they add up to 100%."
      height={56 + 34 * variants.length}
      table={{ columns: ['Variant', 'Probability of being best'], rows: variants.map((v) => [label(v), percent(v.probability)]) }}
      draw={(Plot, { width, height }) =>
        Plot.plot({
          width,
          height,
          marginLeft: 130,
          marginRight: 60,
          x: { domain: [0, 1], label: 'Probability of being best', tickFormat: (d: number) => percent(d, 0), grid: true },
          y: { domain: data.map((d) => d.label), label: null },
          marks: [
            Plot.barX(data, { x: 'probability', y: 'label', fill: (d: (typeof data)[number]) => (d.control ? CONTROL : TEST) }),
            Plot.text(data, {
              x: 'probability',
              y: 'label',
              text: (d: (typeof data)[number]) => percent(d.probability),
              textAnchor: 'start',
              dx: 4,
              fill: 'currentColor',
            }),
            Plot.ruleX([0]),
          ],
        })
      }
    />
  );
}

/**
 * Each variant's 95% credible interval as a line from low to high with a dot at its observed rate;
 * control's rate is the dashed reference line, so overlap with control is seen at a glance.
 */
export function IntervalChart({ variants, kind }: { variants: VariantRow[]; kind: Kind }) {
  const data = variants
    .filter((v) => v.interval)
    .map((v) => ({ label: label(v), rate: v.rate, low: v.interval![0], high: v.interval![1], control: v.control }));
  const control = variants.find((v) => v.control);
  const what = kind === 'funnel' ? 'conversion rate' : 'events per exposed actor';
  const format = (x: number) => rateText(kind, x);
  return (
    <Chart
      name="Credible intervals"
      description={`Where each variant's true ${what} lies with 95% probability, with a dot at the observed ${what}; the dashed line is control's.`}
      height={70 + 40 * data.length}
      table={{
        columns: ['Variant', kind === 'funnel' ? 'Conversion rate' : 'Mean', '95% low', '95% high'],
        rows: data.map((d) => [d.label, format(d.rate), format(d.low), format(d.high)]),
      }}
      draw={(Plot, { width, height }) =>
        Plot.plot({
          width,
          height,
          marginLeft: 130,
          marginRight: 30,
          x: {
            label: kind === 'funnel' ? 'Conversion rate' : 'Events per exposed actor',
            tickFormat: kind === 'funnel' ? (d: number) => percent(d, 0) : undefined,
            grid: true,
            nice: true,
          },
          y: { domain: data.map((d) => d.label), label: null },
          marks: [
            control ? Plot.ruleX([control.rate], { stroke: CONTROL, strokeDasharray: '4,3' }) : null,
            Plot.ruleY(data, {
              y: 'label',
              x1: 'low',
              x2: 'high',
              stroke: (d: (typeof data)[number]) => (d.control ? CONTROL : TEST),
              strokeWidth: 3,
            }),
            Plot.dot(data, {
              x: 'rate',
              y: 'label',
              r: 5,
              fill: (d: (typeof data)[number]) => (d.control ? CONTROL : TEST),
              stroke: 'white',
            }),
            Plot.text(data, { x: 'rate', y: 'label', text: (d: (typeof data)[number]) => format(d.rate), dy: -12, fill: 'currentColor' }),
          ],
        })
      }
    />
  );
}

/** A secondary metric's value per variant as bars (the API answers no statistics for these). */
export function ValueChart({ name, rows, funnel }: { name: string; rows: Array<{ key: string; value: number }>; funnel: boolean }) {
  const data = rows.map((r) => ({
    label: r.key,
    value: r.value,
    control: r.key === 'control',
  }));
  const format = (x: number) => (funnel ? percent(x) : String(x));
  return (
    <Chart
      name={name}
      height={56 + 34 * rows.length}
      table={{ columns: ['Variant', funnel ? 'Conversion rate' : 'Value'], rows: data.map((d) => [d.label, format(d.value)]) }}
      draw={(Plot, { width, height }) =>
        Plot.plot({
          width,
          height,
          marginLeft: 130,
          marginRight: 60,
          x: { label: funnel ? 'Conversion rate' : 'Value', tickFormat: funnel ? (d: number) => percent(d, 0) : undefined, grid: true },
          y: { domain: data.map((d) => d.label), label: null },
          marks: [
            Plot.barX(data, { x: 'value', y: 'label', fill: (d: (typeof data)[number]) => (d.control ? CONTROL : TEST) }),
            Plot.text(data, {
              x: 'value',
              y: 'label',
              text: (d: (typeof data)[number]) => format(d.value),
              textAnchor: 'start',
              dx: 4,
              fill: 'currentColor',
            }),
            Plot.ruleX([0]),
          ],
        })
      }
    />
  );
}
