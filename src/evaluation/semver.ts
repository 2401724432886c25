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

/** The version text read last: every flag's filter on one property reads the same text. */
let lastVersion: { text: string; version: Version | null } = { text: '', version: null };

function propertyVersion(text: string): Version | null {
  if (text !== lastVersion.text) lastVersion = { text, version: parseVersion(text) };
  return lastVersion.version;
}

/**
 * The test `operator` makes of a property's text against `expected` (the filter value's text), the
 * filter side parsed once; anything unparseable is false.
 */
export function semverTest(operator: SemverOperator, expected: string): (actual: string) => boolean {
  if (operator === 'semver_wildcard') {
    const range = wildcardRange(expected);
    if (range === null) return () => false;
    return (actual) => {
      const a = propertyVersion(actual);
      return a !== null && (range === 'any' || within(a, range[0], range[1]));
    };
  }
  const v = parseVersion(expected);
  if (!v) return () => false;
  const test = versionTest(operator, v);
  return (actual) => {
    const a = propertyVersion(actual);
    return a !== null && test(a);
  };
}

function versionTest(operator: Exclude<SemverOperator, 'semver_wildcard'>, v: Version): (a: Version) => boolean {
  switch (operator) {
    case 'semver_eq':
      return (a) => compare(a, v) === 0;
    case 'semver_neq':
      return (a) => compare(a, v) !== 0;
    case 'semver_gt':
      return (a) => compare(a, v) > 0;
    case 'semver_gte':
      return (a) => compare(a, v) >= 0;
    case 'semver_lt':
      return (a) => compare(a, v) < 0;
    case 'semver_lte':
      return (a) => compare(a, v) <= 0;
    case 'semver_tilde': {
      const upper: Version = [v[0], v[1] + 1, 0];
      return (a) => within(a, v, upper);
    }
    case 'semver_caret': {
      const upper: Version = v[0] > 0 ? [v[0] + 1, 0, 0] : v[1] > 0 ? [0, v[1] + 1, 0] : [0, 0, v[2] + 1];
      return (a) => within(a, v, upper);
    }
  }
}
