import { betaCdf, betaCredibleInterval, betaLnDensity, betaPosterior, betaQuantile, probBetaGreater } from './beta';
import { probabilitiesOfBeingBest } from './best';
import { twoProportionComparison, type FrequentistComparison } from './frequentist';
import { funnelSignificance, type FunnelCounts, type SignificanceCode } from './significance';

export interface FunnelVariant extends FunnelCounts {
  key: string;
}

export interface FunnelStatistics {
  probability: Record<string, number>;
  significant: boolean;
  significance_code: SignificanceCode;
  expected_loss: number;
  credible_intervals: Record<string, [number, number]>;
  frequentist: Record<string, FrequentistComparison>;
}

/** Each variant's probability of being best: exact for two variants, the integral for more. Control = max(0, 1 − Σ tests). */
export function funnelProbabilities(variants: FunnelCounts[]): number[] {
  const posteriors = variants.map((v) => betaPosterior(v.success, v.failure));
  const tests =
    variants.length === 2
      ? [probBetaGreater(posteriors[1], posteriors[0])]
      : probabilitiesOfBeingBest(
          posteriors.map((p) => ({ cdf: betaCdf(p), quantile: betaQuantile(p), lnDensity: betaLnDensity(p) })),
          posteriors.slice(1).map((_, i) => i + 1),
        );
  return [Math.max(0, 1 - tests.reduce((a, b) => a + b, 0)), ...tests];
}

/** Everything statistical about a funnel result; `variants[0]` is control, then the present test variants. */
export function funnelStatistics(variants: FunnelVariant[]): FunnelStatistics {
  const probabilities = funnelProbabilities(variants);
  const { code, loss } = funnelSignificance(variants, probabilities);
  return {
    probability: Object.fromEntries(variants.map((v, i) => [v.key, probabilities[i]])),
    significant: code === 'significant',
    significance_code: code,
    expected_loss: loss,
    credible_intervals: Object.fromEntries(variants.map((v) => [v.key, betaCredibleInterval(v.success, v.failure)])),
    frequentist: Object.fromEntries(variants.slice(1).map((v) => [v.key, twoProportionComparison(variants[0], v)])),
  };
}
