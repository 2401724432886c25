import { betaInc, erfc, gammaP, gammaPInv, lnBeta, lnGamma } from './special';

// Read once: inside a VM context (as Jest runs tests) every `Math.x` lookup is a slow global access.
const { exp, log, log1p, max, min, sqrt } = Math;

/**
 * Above this shape a Gamma is treated as the normal of the same mean and variance (skewness
 * 2/√shape < 0.002, so probabilities move by well under 0.001): exact sums and incomplete gamma
 * series grow with the shape, and a `sum` metric can count into the billions.
 */
export const NORMAL_SHAPE = 1e6;

const normalCdf = (z: number) => 0.5 * erfc(-z / Math.SQRT2);

/** A trend variant's posterior, λ ~ Gamma(shape = count + 1, rate = exposure). */
export interface GammaPosterior {
  shape: number;
  rate: number;
}

export const gammaPosterior = (count: number, exposure: number): GammaPosterior => ({ shape: count + 1, rate: exposure });

/** The exact sum for P(λ_B > λ_A): one term per unit of B's (integer) shape. */
function shapeSum(b: GammaPosterior, a: GammaPosterior): number {
  const lnRateB = log(b.rate);
  const lnRateA = log(a.rate);
  const lnSum = log(a.rate + b.rate);
  let total = 0;
  for (let k = 0; k < b.shape; k++) {
    total += exp(k * lnRateB + a.shape * lnRateA - (k + a.shape) * lnSum - log(k + a.shape) - lnBeta(k + 1, a.shape));
  }
  return total;
}

/**
 * P(λ_B > λ_A), exact: summed over the smaller shape, directly or as 1 − P(λ_A > λ_B). A result
 * within 1e-6 of 0 or 1 is taken from the sum for its small side (1 − x would cancel its digits).
 */
export function probGammaGreater(b: GammaPosterior, a: GammaPosterior): number {
  if (min(a.shape, b.shape) > NORMAL_SHAPE) {
    const difference = b.shape / b.rate - a.shape / a.rate;
    return normalCdf(difference / sqrt(b.shape / b.rate ** 2 + a.shape / a.rate ** 2));
  }
  const TINY = 1e-6;
  const clamp01 = (x: number) => min(1, max(0, x));
  if (b.shape <= a.shape) {
    const p = shapeSum(b, a);
    return clamp01(p > 1 - TINY && a.shape <= NORMAL_SHAPE ? 1 - shapeSum(a, b) : p);
  }
  const q = shapeSum(a, b);
  return clamp01(q > 1 - TINY && b.shape <= NORMAL_SHAPE ? shapeSum(b, a) : 1 - q);
}

export const gammaCdf = ({ shape, rate }: GammaPosterior) =>
  shape > NORMAL_SHAPE ? (x: number) => normalCdf((x * rate - shape) / sqrt(shape)) : (x: number) => gammaP(shape, x * rate);
export const gammaQuantile = ({ shape, rate }: GammaPosterior) =>
  shape > NORMAL_SHAPE ? (p: number) => (shape + sqrt(shape) * normalQuantile(p)) / rate : (p: number) => gammaPInv(p, shape) / rate;

export const gammaLnDensity = ({ shape, rate }: GammaPosterior) =>
  shape > NORMAL_SHAPE
    ? (x: number) => {
        const sd = sqrt(shape) / rate;
        const z = (x - shape / rate) / sd;
        return -0.5 * z * z - log(sd) - 0.5 * log(2 * Math.PI);
      }
    : (x: number) => shape * log(rate) + (shape === 1 ? 0 : (shape - 1) * log(x)) - rate * x - lnGamma(shape);

/** Φ⁻¹(p) by bisection on the normal CDF (deterministic, ~1e-12), used only past NORMAL_SHAPE. */
function normalQuantile(p: number): number {
  let lo = -40;
  let hi = 40;
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    if (normalCdf(mid) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** The central 95% credible interval of Gamma(count + 1, rate = absolute exposure). */
export function gammaCredibleInterval(count: number, absoluteExposure: number): [number, number] {
  const quantile = gammaQuantile(gammaPosterior(count, absoluteExposure));
  return [quantile(0.025), quantile(0.975)];
}

/**
 * The two-sided conditional Poisson test of control (count, exposure 1) against a test variant
 * (count, exposure ratio): given N = both counts, the test's count is Binomial(N, r), r = e_t/(1 + e_t).
 */
export function poissonPValue(controlCount: number, testCount: number, testExposure: number, controlExposure = 1): number {
  const r = testExposure / (controlExposure + testExposure);
  const n = controlCount + testCount;
  if (n > NORMAL_SHAPE) {
    // The same binomial tails through the incomplete beta function, without summing n terms.
    const low = testCount >= n ? 1 : betaInc(1 - r, n - testCount, testCount + 1);
    const high = testCount <= 0 ? 1 : betaInc(r, testCount, n - testCount + 1);
    return min(1, 2 * min(low, high));
  }
  const lnR = log(r);
  const ln1R = log1p(-r);
  const lnN = lnGamma(n + 1);
  const term = (i: number) => exp(lnN - lnGamma(i + 1) - lnGamma(n - i + 1) + (i === 0 ? 0 : i * lnR) + (n - i === 0 ? 0 : (n - i) * ln1R));
  let low = 0;
  for (let i = 0; i <= testCount; i++) low += term(i);
  let high = 0;
  for (let i = testCount; i <= n; i++) high += term(i);
  return min(1, 2 * min(low, high));
}
