import { erfc } from './special';
import type { FunnelCounts } from './significance';

export interface FrequentistComparison {
  p_value: number;
  relative_lift: number | null;
  confidence_interval: [number, number] | null;
  significant: boolean;
}

const Z_975 = 1.959963984540054;

/**
 * A test variant against control as two proportions: the pooled two-sided z-test, and the relative
 * lift with a 95% delta-method interval. No multiple-comparison correction.
 */
export function twoProportionComparison(control: FunnelCounts, test: FunnelCounts): FrequentistComparison {
  const nc = control.success + control.failure;
  const nt = test.success + test.failure;
  const pc = nc === 0 ? 0 : control.success / nc;
  const pt = nt === 0 ? 0 : test.success / nt;
  const pooled = nc + nt === 0 ? 0 : (control.success + test.success) / (nc + nt);
  const se0 = nc === 0 || nt === 0 ? 0 : Math.sqrt(pooled * (1 - pooled) * (1 / nc + 1 / nt));
  const pValue = se0 === 0 ? 1 : Math.min(1, erfc(Math.abs((pt - pc) / se0) / Math.SQRT2));
  let lift: number | null = null;
  let interval: [number, number] | null = null;
  if (pc > 0 && nt > 0) {
    lift = pt / pc - 1;
    const seRel = Math.sqrt((pt * (1 - pt)) / (pc * pc * nt) + (pc * (1 - pc) * pt * pt) / (pc ** 4 * nc));
    interval = [lift - Z_975 * seRel, lift + Z_975 * seRel];
  }
  return { p_value: pValue, relative_lift: lift, confidence_interval: interval, significant: pValue < 0.05 };
}
