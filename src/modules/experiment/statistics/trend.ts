import { probabilitiesOfBeingBest } from './best';
import { gammaCdf, gammaCredibleInterval, gammaLnDensity, gammaPosterior, gammaQuantile, probGammaGreater } from './gamma';
import { trendSignificance, type SignificanceCode, type TrendCounts } from './significance';

export interface TrendVariant extends TrendCounts {
  key: string;
}

export interface TrendStatistics {
  probability: Record<string, number>;
  significant: boolean;
  significance_code: SignificanceCode;
  p_value: number;
  credible_intervals: Record<string, [number, number]>;
}

/** Each variant's probability of the highest rate: exact for two variants, the integral for more. */
export function trendProbabilities(variants: TrendCounts[]): number[] {
  // A `sum` metric can be negative; the Poisson model needs a count of at least 0.
  const posteriors = variants.map((v) => gammaPosterior(Math.max(0, v.count), v.exposure));
  const tests =
    variants.length === 2
      ? [probGammaGreater(posteriors[1], posteriors[0])]
      : probabilitiesOfBeingBest(
          posteriors.map((p) => ({ cdf: gammaCdf(p), quantile: gammaQuantile(p), lnDensity: gammaLnDensity(p) })),
          posteriors.slice(1).map((_, i) => i + 1),
        );
  return [Math.max(0, 1 - tests.reduce((a, b) => a + b, 0)), ...tests];
}

export function trendStatistics(variants: TrendVariant[]): TrendStatistics {
  const probabilities = trendProbabilities(variants);
  const { code, pValue } = trendSignificance(variants, probabilities);
  return {
    probability: Object.fromEntries(variants.map((v, i) => [v.key, probabilities[i]])),
    significant: code === 'significant',
    significance_code: code,
    p_value: pValue,
    credible_intervals: Object.fromEntries(variants.map((v) => [v.key, gammaCredibleInterval(Math.max(0, v.count), v.absoluteExposure)])),
  };
}
