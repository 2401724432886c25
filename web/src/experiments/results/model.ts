/**
 * The experiment result JSON (docs/experiment-results.md, "Reading the numbers") read into one
 * shape for funnels and trends, and the verdict said in words. Nothing here computes statistics: every
 * number shown comes from the result; only the rate (successes over entries, count over exposure) and
 * which test variant the rules compared are re-derived, the way the rules themselves derive them.
 */

/** The rules' constants (docs/experiment-results.md, "significance_code"): the result does not carry them. */
export const MIN_EXPOSURE = 100;
export const MIN_WIN_PROBABILITY = 0.9;
export const MAX_EXPECTED_LOSS = 0.01;
export const MAX_P_VALUE = 0.05;

export type Kind = 'funnel' | 'trend';

export interface VariantRow {
  key: string;
  control: boolean;
  /** Funnel: actors who entered (success + failure). Trend: `absolute_exposure`. */
  exposure: number;
  /** Funnel: converted actors. Trend: `count`. */
  value: number;
  /** Funnel: conversion rate. Trend: count per exposed actor. */
  rate: number;
  probability: number;
  interval: [number, number] | null;
  frequentist: Frequentist | null;
}

export interface Frequentist {
  pValue: number;
  relativeLift: number | null;
  interval: [number, number] | null;
  significant: boolean;
}

export interface ResultModel {
  kind: Kind;
  variants: VariantRow[];
  code: string;
  significant: boolean;
  expectedLoss: number | null;
  pValue: number | null;
  srm: boolean;
  srmPValue: number | null;
  /** Whether the result has a frequentist part (funnels). */
  hasFrequentist: boolean;
}

type Json = Record<string, unknown>;
const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const pair = (value: unknown): [number, number] | null =>
  Array.isArray(value) && value.length === 2 && num(value[0]) !== null && num(value[1]) !== null
    ? [value[0] as number, value[1] as number]
    : null;

export function readResult(result: Json): ResultModel {
  const variants = Array.isArray(result.variants) ? (result.variants as Json[]) : [];
  const probability = (result.probability ?? {}) as Json;
  const intervals = (result.credible_intervals ?? {}) as Json;
  const frequentist = (result.frequentist ?? null) as Json | null;
  const insight = String((result.filters as Json | undefined)?.insight ?? '').toUpperCase();
  const kind: Kind = insight === 'FUNNELS' || variants.some((v) => 'success_count' in v) ? 'funnel' : 'trend';
  const rows = variants.map((variant): VariantRow => {
    const key = String(variant.key);
    let exposure: number;
    let value: number;
    if (kind === 'funnel') {
      value = num(variant.success_count) ?? 0;
      exposure = value + (num(variant.failure_count) ?? 0);
    } else {
      value = num(variant.count) ?? 0;
      exposure = num(variant.absolute_exposure) ?? 0;
    }
    const f = frequentist?.[key] as Json | undefined;
    return {
      key,
      control: key === 'control',
      exposure,
      value,
      rate: exposure > 0 ? value / exposure : 0,
      probability: num(probability[key]) ?? 0,
      interval: pair(intervals[key]),
      frequentist: f
        ? {
            pValue: num(f.p_value) ?? 1,
            relativeLift: num(f.relative_lift),
            interval: pair(f.confidence_interval),
            significant: f.significant === true,
          }
        : null,
    };
  });
  return {
    kind,
    variants: rows,
    code: String(result.significance_code ?? ''),
    significant: result.significant === true,
    expectedLoss: num(result.expected_loss),
    pValue: num(result.p_value),
    srm: result.srm === true,
    srmPValue: num(result.srm_p_value),
    hasFrequentist: frequentist !== null && typeof frequentist === 'object',
  };
}

/** The test variant the rules compare with control: the highest rate, ties to the earlier one (flag order). */
export function bestTest(model: ResultModel): VariantRow | null {
  let best: VariantRow | null = null;
  for (const v of model.variants) if (!v.control && (best === null || v.rate > best.rate)) best = v;
  return best;
}

// Shown precision, shared with the tests (test/browser/experiment-results.test.ts).
export const percent = (x: number, digits = 1) => `${(x * 100).toFixed(digits)}%`;
export const decimal = (x: number) => x.toFixed(3);
export const pValue = (p: number) => (p < 0.0001 ? '< 0.0001' : p.toFixed(4));
/** "p = 0.0123", or "p < 0.0001" (never "p = < 0.0001"), for sentences. */
export const pEquals = (p: number) => (p < 0.0001 ? 'p < 0.0001' : `p = ${pValue(p)}`);
export const signedPercent = (x: number) => `${x > 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
/** An expected loss (a difference of rates) in percentage points: 0.002 is 0.20 points. */
export const points = (x: number, digits = 2) => `${(x * 100).toFixed(digits)} percentage point${digits === 0 && x === 0.01 ? '' : 's'}`;
export const rateText = (kind: Kind, x: number) => (kind === 'funnel' ? percent(x) : decimal(x));

export interface Verdict {
  /** What the evidence says, in a sentence or two. */
  text: string;
  /** The rule that produced it, named. */
  rule: string;
  tone: 'wait' | 'unclear' | 'act';
}

/** Every `significance_code` in words, with the rule behind it (docs/experiment-results.md). */
export function verdictOf(model: ResultModel): Verdict {
  const { kind, variants } = model;
  const control = variants.find((v) => v.control);
  const tests = variants.filter((v) => !v.control);
  const best = bestTest(model);
  const exposureWord = kind === 'funnel' ? 'actors in the funnel' : 'exposures';
  const counts = variants.map((v) => `${v.key} has ${v.exposure}`).join(', ');
  const testShare = tests.reduce((sum, v) => sum + v.probability, 0);
  const leader = best && control && best.rate > control.rate ? best : (control ?? best);
  const other = leader === control ? best : control;
  switch (model.code) {
    case 'not_enough_exposure':
      return {
        tone: 'wait',
        rule: `Rule 1, minimum exposure: control and every test variant need at least ${MIN_EXPOSURE} ${exposureWord}.`,
        text: `Not enough exposure yet: each variant needs at least ${MIN_EXPOSURE} ${exposureWord} (${counts}). Wait for more data before reading the numbers.`,
      };
    case 'low_win_probability':
      return {
        tone: 'unclear',
        rule: `Rule 2, win probability: control or the test variants together must reach a ${percent(MIN_WIN_PROBABILITY, 0)} probability of being best.`,
        text: `No clear leader yet: control has a ${percent(control?.probability ?? 0)} probability of being best and the test variants together ${percent(testShare)}; neither reaches ${percent(MIN_WIN_PROBABILITY, 0)}.`,
      };
    case 'high_loss':
      return {
        tone: 'unclear',
        rule: `Rule 3, expected loss: choosing the leader must risk less than ${points(MAX_EXPECTED_LOSS, 0)} of conversion rate.`,
        text: `Too risky to call: ${leader?.key ?? 'the leader'} leads${other ? ` ${other.key}` : ''} (${percent(leader?.rate ?? 0)} against ${percent(other?.rate ?? 0)}), but choosing it could lose ${points(model.expectedLoss ?? 1)} of conversion rate on average, ${points(MAX_EXPECTED_LOSS, 0)} or more.`,
      };
    case 'high_p_value':
      return {
        tone: 'unclear',
        rule: `Rule 4, p-value: the difference between control and the best test variant must have p < ${MAX_P_VALUE}.`,
        text: `Could be chance: ${best?.key ?? 'the best test variant'} has ${rateText(kind, best?.rate ?? 0)} events per exposure against control's ${rateText(kind, control?.rate ?? 0)}, with ${pEquals(model.pValue ?? 1)} (not below ${MAX_P_VALUE}).`,
      };
    case 'significant': {
      const subject = leader?.key ?? 'the leader';
      const against = leader === control ? `the test variants (best: ${best?.key ?? 'none'})` : 'control';
      const oddsText =
        leader === control || tests.length === 1
          ? `${percent(leader?.probability ?? 0)} probability of being best`
          : `${percent(leader?.probability ?? 0)} probability of being best, the test variants together ${percent(testShare)}`;
      const evidence =
        kind === 'funnel'
          ? `expected loss ${points(model.expectedLoss ?? 0)} of conversion rate (under ${points(MAX_EXPECTED_LOSS, 0)})`
          : `${pEquals(model.pValue ?? 0)} (below ${MAX_P_VALUE})`;
      return {
        tone: 'act',
        rule:
          kind === 'funnel'
            ? `Every rule passed: enough exposure, a ${percent(MIN_WIN_PROBABILITY, 0)} win probability, expected loss under ${points(MAX_EXPECTED_LOSS, 0)}.`
            : `Every rule passed: enough exposure, a ${percent(MIN_WIN_PROBABILITY, 0)} win probability, p-value under ${MAX_P_VALUE}.`,
        text: `${subject} is likely better than ${against}: ${oddsText}, ${evidence}. You can act on it.`,
      };
    }
    default:
      return { tone: 'unclear', rule: `Verdict code: ${model.code || 'none'}.`, text: 'The service gave no verdict this console knows.' };
  }
}

/** The no-data detail (`no-results`) in words. */
export function noDataText(detail: string): string {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(detail) as Record<string, unknown>;
  } catch {
    return detail;
  }
  if (parsed['no-events']) return 'No exposure yet: no metric event has been recorded since the experiment started.';
  if (parsed['no-flag-info'] || (parsed['no-control-variant'] && parsed['no-test-variant']))
    return 'No exposure yet: metric events arrived, but none carries a variant of the flag.';
  if (parsed['no-control-variant']) return 'No exposure for control yet: the test variants have data, control has none.';
  if (parsed['no-test-variant']) return 'No exposure for the test variants yet: control has data, no test variant has.';
  return detail;
}
