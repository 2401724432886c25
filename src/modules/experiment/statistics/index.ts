/** Experiment statistics: pure functions of counts (no I/O, no randomness). See docs/experiment-results.md. */
export { funnelStatistics, funnelProbabilities, type FunnelStatistics, type FunnelVariant } from './funnel';
export { trendStatistics, trendProbabilities, type TrendStatistics, type TrendVariant } from './trend';
export { sampleRatioMismatch } from './sample-ratio';
export { twoProportionComparison } from './frequentist';
export { funnelSignificance, trendSignificance, type SignificanceCode } from './significance';
export { betaExpectedLoss, betaCredibleInterval, probBetaGreater, betaPosterior } from './beta';
export { gammaCredibleInterval, poissonPValue, probGammaGreater, gammaPosterior } from './gamma';
