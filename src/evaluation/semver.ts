/** docs/evaluation.md §4.8: versions as [major, minor, patch]; pre-release and build parts are ignored. */
type Version = [number, number, number];

/** Longest version text read; a longer one is unparseable. */
export const MAX_VERSION_LENGTH = 256;

export function parseVersion(text: string): Version | null {
  if (text.length > MAX_VERSION_LENGTH) return null;
  let s = text.trim();
  if (s.startsWith('v') || s.startsWith('V')) s = s.slice(1);
  const cut = s.search(/[-+]/);
  if (cut >= 0) s = s.slice(0, cut);
  const parts = s.split('.');
  if (parts.length < 1 || parts.length > 3 || !parts.every((p) => /^\d+$/.test(p))) return null;
  const numbers = parts.map(Number);
  while (numbers.length < 3) numbers.push(0);
  return numbers as Version;
}

function compare(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

const within = (v: Version, low: Version, high: Version) => compare(v, low) >= 0 && compare(v, high) < 0;

/** The half-open range `X.*`, `X.*.*`, `X.Y.*` or `*` stands for; null for other shapes. */
function wildcardRange(text: string): [Version, Version] | 'any' | null {
  if (text.length > MAX_VERSION_LENGTH) return null;
  const s = text.trim().replace(/^[vV]/, '');
  if (s === '*') return 'any';
  const m = /^(\d+)\.\*(?:\.\*)?$/.exec(s);
  if (m)
    return [
      [Number(m[1]), 0, 0],
      [Number(m[1]) + 1, 0, 0],
    ];
  const mm = /^(\d+)\.(\d+)\.\*$/.exec(s);
  if (mm)
    return [
      [Number(mm[1]), Number(mm[2]), 0],
      [Number(mm[1]), Number(mm[2]) + 1, 0],
    ];
  return null;
}

export type SemverOperator =
  | 'semver_eq'
  | 'semver_neq'
  | 'semver_gt'
  | 'semver_gte'
  | 'semver_lt'
  | 'semver_lte'
  | 'semver_tilde'
  | 'semver_caret'
  | 'semver_wildcard';

/** `actual` is the property's text, `expected` the filter value's; anything unparseable is false. */
export function matchSemver(operator: SemverOperator, actual: string, expected: string): boolean {
  const a = parseVersion(actual);
  if (!a) return false;
  if (operator === 'semver_wildcard') {
    const range = wildcardRange(expected);
    if (range === null) return false;
    return range === 'any' || within(a, range[0], range[1]);
  }
  const v = parseVersion(expected);
  if (!v) return false;
  const c = compare(a, v);
  switch (operator) {
    case 'semver_eq':
      return c === 0;
    case 'semver_neq':
      return c !== 0;
    case 'semver_gt':
      return c > 0;
    case 'semver_gte':
      return c >= 0;
    case 'semver_lt':
      return c < 0;
    case 'semver_lte':
      return c <= 0;
    case 'semver_tilde':
      return within(a, v, [v[0], v[1] + 1, 0]);
    case 'semver_caret': {
      const upper: Version = v[0] > 0 ? [v[0] + 1, 0, 0] : v[1] > 0 ? [0, v[1] + 1, 0] : [0, 0, v[2] + 1];
      return within(a, v, upper);
    }
  }
}
