import { betaExpectedLoss, betaPosterior } from './beta';
import { poissonPValue } from './gamma';

export type SignificanceCode = 'significant' | 'not_enough_exposure' | 'low_win_probability' | 'high_loss' | 'high_p_value';

export const MIN_EXPOSURE = 100;
export const MIN_WIN_PROBABILITY = 0.9;
export const LOSS_THRESHOLD = 0.01;
export const P_VALUE_THRESHOLD = 0.05;

export interface FunnelCounts {
  success: number;
  failure: number;
}

export interface TrendCounts {
  count: number;
  /** The exposure ratio against control (control = 1). */
  exposure: number;
  absoluteExposure: number;
}

const rate = ({ success, failure }: FunnelCounts) => (success + failure === 0 ? 0 : success / (success + failure));

/** The index of the highest value among the test variants (1..); ties go to the earlier one. */
function bestTest<T>(variants: T[], score: (v: T) => number): number {
  let best = 1;
  for (let i = 2; i < variants.length; i++) if (score(variants[i]) > score(variants[best])) best = i;
  return best;
}

const lowWinProbability = (probabilities: number[]) =>
  probabilities[0] < MIN_WIN_PROBABILITY && probabilities.slice(1).reduce((a, b) => a + b, 0) < MIN_WIN_PROBABILITY;

/**
 * The funnel significance rules, first match wins. `variants[0]` is control, the rest are the present
 * test variants in flag order; `probabilities` are their probabilities of being best, same order.
 */
export function funnelSignificance(variants: FunnelCounts[], probabilities: number[]): { code: SignificanceCode; loss: number } {
  const exposure = (v: FunnelCounts) => v.success + v.failure;
  if (variants.slice(1).some((v) => exposure(v) < MIN_EXPOSURE) || exposure(variants[0]) < MIN_EXPOSURE) {
    return { code: 'not_enough_exposure', loss: 1 };
  }
  if (lowWinProbability(probabilities)) return { code: 'low_win_probability', loss: 1 };
  const control = variants[0];
  const best = variants[bestTest(variants, rate)];
  const [c, b] = [betaPosterior(control.success, control.failure), betaPosterior(best.success, best.failure)];
  const loss = rate(best) > rate(control) ? betaExpectedLoss(c, b) : betaExpectedLoss(b, c);
  return { code: loss >= LOSS_THRESHOLD ? 'high_loss' : 'significant', loss };
}

/** The trend rules: the test variant with the highest count per exposure is compared with control. */
export function trendSignificance(variants: TrendCounts[], probabilities: number[]): { code: SignificanceCode; pValue: number } {
  if (variants.slice(1).some((v) => v.absoluteExposure < MIN_EXPOSURE) || variants[0].absoluteExposure < MIN_EXPOSURE) {
    return { code: 'not_enough_exposure', pValue: 1 };
  }
  if (lowWinProbability(probabilities)) return { code: 'low_win_probability', pValue: 1 };
  const best = variants[bestTest(variants, (v) => v.count / v.exposure)];
  const pValue = poissonPValue(Math.max(0, variants[0].count), Math.max(0, best.count), best.exposure, variants[0].exposure);
  return { code: pValue >= P_VALUE_THRESHOLD ? 'high_p_value' : 'significant', pValue };
}
