/** A posterior reduced to what the probability of being best needs. */

// Read once: inside a VM context (as Jest runs tests) every `Math.x` lookup is a slow global access.
const { ceil, exp, floor, max } = Math;
export interface Distribution {
  cdf(x: number): number;
  quantile(p: number): number;
  /** ln of the density; only its values inside the central 1 − 2e-12 of the mass are used. */
  lnDensity(x: number): number;
}

/** The fewest trapezoid panels of the integral (docs/experiment-results.md). */
export const INTEGRATION_NODES = 2000;
/** Simpson intervals of each tabulated CDF. */
const TABLE_INTERVALS = 4096;
const TAIL = 1e-12;

/**
 * A CDF tabulated over [Q(1e-12), Q(1 − 1e-12)]: exact at both ends, Simpson's rule on the density
 * in between (4096 intervals, each a few thousandths of a standard deviation wide), the small drift
 * spread linearly so the right end is exact too. Read by linear interpolation, forwards (F) and
 * backwards (Q). Interpolation error ≤ h²·max|f′|/8, below 1e-5 for these posteriors.
 */
class TabulatedCdf {
  private readonly lo: number;
  private readonly h: number;
  private readonly values: Float64Array;

  constructor(d: Distribution) {
    this.lo = d.quantile(TAIL);
    const hi = d.quantile(1 - TAIL);
    this.h = (hi - this.lo) / TABLE_INTERVALS;
    const values = new Float64Array(TABLE_INTERVALS + 1);
    const density = (x: number) => {
      const value = exp(d.lnDensity(x));
      return Number.isFinite(value) ? value : 0;
    };
    values[0] = d.cdf(this.lo);
    let left = density(this.lo);
    for (let j = 0; j < TABLE_INTERVALS; j++) {
      const x = this.lo + j * this.h;
      const right = density(x + this.h);
      values[j + 1] = values[j] + (this.h / 6) * (left + 4 * density(x + this.h / 2) + right);
      left = right;
    }
    const drift = d.cdf(hi) - values[TABLE_INTERVALS];
    for (let j = 1; j <= TABLE_INTERVALS; j++) values[j] += (drift * j) / TABLE_INTERVALS;
    this.values = values;
  }

  cdf(x: number): number {
    if (!(this.h > 0)) return x < this.lo ? 0 : 1;
    const position = (x - this.lo) / this.h;
    if (position <= 0) return 0;
    if (position >= TABLE_INTERVALS) return 1;
    const j = floor(position);
    return this.values[j] + (position - j) * (this.values[j + 1] - this.values[j]);
  }

  quantile(u: number): number {
    const values = this.values;
    if (u <= values[0]) return this.lo;
    if (u >= values[TABLE_INTERVALS]) return this.lo + TABLE_INTERVALS * this.h;
    let low = 0;
    let high = TABLE_INTERVALS;
    while (high - low > 1) {
      const mid = (low + high) >> 1;
      if (values[mid] <= u) low = mid;
      else high = mid;
    }
    const span = values[high] - values[low];
    return this.lo + (low + (span > 0 ? (u - values[low]) / span : 0)) * this.h;
  }
}

/**
 * The rule's share of the error budget: the bounds of all the integrals together stay below it, so
 * control's 1 − Σ P_test is off by no more than that (plus the tables' few 1e-5).
 */
const RULE_ERROR_BUDGET = 2.5e-4;

/**
 * P(X_v > max of the others) for each v in `which`: ∫₀¹ g(u) du with g(u) = Π_{w≠v} F_w(Q_v(u)),
 * F and Q read from tabulated CDFs, by the trapezoidal rule. g is non-decreasing, so on each panel
 * the integral lies between the panel's end values and the rule is off by at most half their gap:
 * over N equal panels, (g(1) − g(0)) / (2N) in all. N is at least INTEGRATION_NODES and large
 * enough that these bounds, summed over `which`, stay within RULE_ERROR_BUDGET, whatever the shape
 * of g (a very narrow variant makes it a step). Deterministic (no sampling); 20 variants take tens
 * of milliseconds instead of the seconds that exact incomplete-beta calls at every node would.
 */
export function probabilitiesOfBeingBest(distributions: Distribution[], which: number[]): number[] {
  const tables = distributions.map((d) => new TabulatedCdf(d));
  return which.map((v) => {
    const others = tables.filter((_, w) => w !== v);
    const g = (u: number) => {
      const x = tables[v].quantile(u);
      let product = 1;
      for (const other of others) {
        product *= other.cdf(x);
        if (product === 0) break;
      }
      return product;
    };
    const first = g(0);
    const last = g(1);
    const panels = max(INTEGRATION_NODES, ceil(((last - first) * which.length) / (2 * RULE_ERROR_BUDGET)));
    let total = (first + last) / 2;
    for (let m = 1; m < panels; m++) total += g(m / panels);
    return total / panels;
  });
}
