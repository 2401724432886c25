import { gammaQ } from './special';

export const SRM_THRESHOLD = 0.001;

/**
 * The sample-ratio-mismatch chi-square test: exposed actors per variant against the flag's rollout
 * weights. Variants with a weight ≤ 0 leave with their counts; zero counts stay in (a starved
 * variant is the mismatch this test is for). P(χ²_{K−1} > X²) = Q((K−1)/2, X²/2); X² is answered too.
 */
export function sampleRatioMismatch(counts: number[], weights: number[]): { srm: boolean; srmPValue: number; chiSquare: number } {
  const kept = counts.map((n, i) => ({ n, w: weights[i] })).filter(({ w }) => Number.isFinite(w) && w > 0);
  const total = kept.reduce((sum, { n }) => sum + n, 0);
  if (kept.length < 2 || total === 0) return { srm: false, srmPValue: 1, chiSquare: 0 };
  const weightSum = kept.reduce((sum, { w }) => sum + w, 0);
  const chiSquare = kept.reduce((sum, { n, w }) => {
    const expected = (total * w) / weightSum;
    return sum + (n - expected) ** 2 / expected;
  }, 0);
  const srmPValue = gammaQ((kept.length - 1) / 2, chiSquare / 2);
  return { srm: srmPValue < SRM_THRESHOLD, srmPValue, chiSquare };
}
