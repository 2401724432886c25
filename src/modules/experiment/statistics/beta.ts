import { betaInc, betaIncInv, lnBeta } from './special';

// Read once: inside a VM context (as Jest runs tests) every `Math.x` lookup is a slow global access.
const { exp, log, log1p, max, min } = Math;

/** A funnel variant's posterior, θ ~ Beta(alpha, beta) with alpha = success + 1, beta = failure + 1. */
export interface BetaPosterior {
  alpha: number;
  beta: number;
}

export const betaPosterior = (success: number, failure: number): BetaPosterior => ({ alpha: success + 1, beta: failure + 1 });

/** Evan Miller's exact sum for P(θ_B > θ_A): one term per unit of B's (integer) alpha. */
function millerSum(b: BetaPosterior, a: BetaPosterior): number {
  const lnBa = lnBeta(a.alpha, a.beta);
  let total = 0;
  for (let i = 0; i < b.alpha; i++) {
    total += exp(lnBeta(a.alpha + i, a.beta + b.beta) - log(b.beta + i) - lnBeta(1 + i, b.beta) - lnBa);
  }
  return total;
}

const flip = (p: BetaPosterior): BetaPosterior => ({ alpha: p.beta, beta: p.alpha });
const clamp01 = (x: number) => min(1, max(0, x));

/** P(θ_B > θ_A) by Miller's sum over B's alpha or, since θ_B > θ_A ⟺ 1 − θ_A > 1 − θ_B, over A's beta. */
const greaterBySum = (b: BetaPosterior, a: BetaPosterior) => (b.alpha <= a.beta ? millerSum(b, a) : millerSum(flip(a), flip(b)));

/**
 * P(θ_B > θ_A), exact: directly (min(B's alpha, A's beta) terms) or as 1 − P(θ_A > θ_B)
 * (min(A's alpha, B's beta) terms), whichever is shorter. A result within 1e-6 of 0 or 1 is taken
 * from the sum for its small side, since 1 − x loses a tiny probability's digits to cancellation:
 * every probability and its complement keep ~1e-13 relative precision.
 */
export function probBetaGreater(b: BetaPosterior, a: BetaPosterior): number {
  const TINY = 1e-6;
  if (min(b.alpha, a.beta) <= min(a.alpha, b.beta)) {
    const p = greaterBySum(b, a);
    return clamp01(p > 1 - TINY ? 1 - greaterBySum(a, b) : p);
  }
  const q = greaterBySum(a, b);
  return clamp01(q > 1 - TINY ? greaterBySum(b, a) : 1 - q);
}

/** E[max(0, θ_X − θ_Y)], in closed form through two probabilities of the sum above. */
export function betaExpectedLoss(x: BetaPosterior, y: BetaPosterior): number {
  const meanX = x.alpha / (x.alpha + x.beta);
  const meanY = y.alpha / (y.alpha + y.beta);
  const loss =
    meanX * probBetaGreater({ alpha: x.alpha + 1, beta: x.beta }, y) - meanY * probBetaGreater(x, { alpha: y.alpha + 1, beta: y.beta });
  return max(0, loss);
}

export const betaCdf = (posterior: BetaPosterior) => (x: number) => betaInc(x, posterior.alpha, posterior.beta);
export const betaLnDensity =
  ({ alpha, beta }: BetaPosterior) =>
  (x: number) =>
    (alpha === 1 ? 0 : (alpha - 1) * log(x)) + (beta === 1 ? 0 : (beta - 1) * log1p(-x)) - lnBeta(alpha, beta);
export const betaQuantile = (posterior: BetaPosterior) => (p: number) => betaIncInv(p, posterior.alpha, posterior.beta);

/** The central 95% credible interval of Beta(success + 1, failure + 1). */
export function betaCredibleInterval(success: number, failure: number): [number, number] {
  const quantile = betaQuantile(betaPosterior(success, failure));
  return [quantile(0.025), quantile(0.975)];
}
