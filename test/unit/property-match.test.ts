import { matchProperty, numeric, str, type PropertyBag } from '../../src/evaluation/property-match';
import { regexProblem } from '../../src/evaluation/regex';
import { parseVersion } from '../../src/evaluation/semver';

const NOW = new Date('2024-06-15T12:00:00Z');

/** One filter on key `k` against a bag; `operator` undefined leaves it out (the `exact` default). */
function match(operator: string | undefined, value: unknown, bag: PropertyBag, now: Date = NOW): boolean {
  const filter: Record<string, unknown> = { key: 'k', type: 'person', value };
  if (operator !== undefined) filter.operator = operator;
  return matchProperty(filter, bag, now);
}

/** The property `k` is present with value `actual`. */
const matchValue = (operator: string | undefined, value: unknown, actual: unknown, now: Date = NOW) =>
  match(operator, value, { k: actual }, now);

describe('str (docs/evaluation.md §4.2)', () => {
  it.each([
    ['abc', 'abc'],
    ['', ''],
    [5, '5'],
    [1.0, '1'],
    [true, 'true'],
    [null, 'null'],
    [['a'], '["a"]'],
    [{ a: 1 }, '{"a":1}'],
  ])('str(%p) is %p', (value, expected) => {
    expect(str(value)).toBe(expected);
  });
});

describe('numeric (docs/evaluation.md §4.5)', () => {
  it.each([
    [5, 5],
    [-1.5, -1.5],
    ['23', 23],
    ['-1.5', -1.5],
    ['+7', 7],
    ['1.', 1],
    ['.5', 0.5],
    ['1e3', 1000],
    ['2.5E-1', 0.25],
    [Infinity, null],
    [true, null],
    [null, null],
    ['', null],
    [' 5', null],
    ['5 ', null],
    ['abc', null],
    ['Infinity', null],
    ['0x10', null],
    [[5], null],
  ])('numeric(%p) is %p', (value, expected) => {
    expect(numeric(value)).toBe(expected);
  });
});

describe('operators (docs/evaluation.md §4.3)', () => {
  // A filter value that is valid for each operator, so that only the absent key decides.
  it.each([
    ['exact', 'x', false],
    ['is_not', 'x', true],
    ['is_set', 'x', false],
    ['is_not_set', 'x', true],
    ['icontains', 'x', false],
    ['not_icontains', 'x', true],
    ['starts_with', 'x', false],
    ['not_starts_with', 'x', true],
    ['ends_with', 'x', false],
    ['not_ends_with', 'x', true],
    ['regex', 'x', false],
    ['not_regex', 'x', true],
    ['gt', 5, false],
    ['gte', 5, false],
    ['lt', 5, false],
    ['lte', 5, false],
    ['is_date_before', '2024-06-01', false],
    ['is_date_after', '2024-06-01', false],
    ['is_date_exact', '2024-06-01', false],
    ['semver_eq', '1.2.3', false],
    ['semver_neq', '1.2.3', false],
    ['semver_gt', '1.2.3', false],
    ['semver_gte', '1.2.3', false],
    ['semver_lt', '1.2.3', false],
    ['semver_lte', '1.2.3', false],
    ['semver_tilde', '1.2.3', false],
    ['semver_caret', '1.2.3', false],
    ['semver_wildcard', '1.*', false],
    ['no_such_operator', 'x', false],
  ])('%s with the key absent is %p', (operator, value, expected) => {
    expect(match(operator, value, { other: 'x' })).toBe(expected);
  });

  it('defaults to exact when the operator is missing', () => {
    expect(matchValue(undefined, 'Pro', 'pro')).toBe(true);
    expect(matchValue(undefined, 'Pro', 'basic')).toBe(false);
    expect(match(undefined, 'Pro', {})).toBe(false);
  });

  it('is false for an unknown operator with the key present', () => {
    expect(matchValue('no_such_operator', 'x', 'x')).toBe(false);
    expect(matchValue('EXACT', 'x', 'x')).toBe(false);
  });

  describe('a filter value absent or null is false, except for is_set/is_not_set', () => {
    it.each([
      ['exact', { k: null }],
      ['exact', { k: 'null' }],
      ['is_not', {}],
      ['is_not', { k: 'x' }],
      ['not_icontains', {}],
      ['not_starts_with', {}],
      ['not_ends_with', {}],
      ['not_regex', {}],
      ['icontains', { k: 'null' }],
      ['regex', { k: 'null' }],
    ])('%s with %p', (operator, bag) => {
      expect(match(operator, null, bag)).toBe(false);
      expect(matchProperty({ key: 'k', type: 'person', operator }, bag, NOW)).toBe(false);
    });

    it.each([
      ['is_set', { k: 'x' }, true],
      ['is_set', {}, false],
      ['is_not_set', {}, true],
      ['is_not_set', { k: 'x' }, false],
    ])('%s with %p is %p', (operator, bag, expected) => {
      expect(match(operator, null, bag)).toBe(expected);
      expect(matchProperty({ key: 'k', type: 'person', operator }, bag, NOW)).toBe(expected);
    });
  });

  it.each([
    ['is_set', true],
    ['is_not_set', false],
  ])('%s with the key present and null is %p', (operator, expected) => {
    expect(matchValue(operator, 'x', null)).toBe(expected);
  });

  describe('text operators, ASCII-case-insensitive', () => {
    it.each([
      ['icontains', 'RO', 'Pro', true],
      ['icontains', 'x', 'Pro', false],
      ['icontains', 'r', 'PRO', true],
      ['not_icontains', 'RO', 'Pro', false],
      ['not_icontains', 'x', 'Pro', true],
      ['icontains', '', 'Pro', true],
      ['icontains', 2, 'v2.0', true],
      ['starts_with', 'PR', 'pro', true],
      ['starts_with', 'ro', 'pro', false],
      ['starts_with', 'pr', 'PRO', true],
      ['not_starts_with', 'PR', 'pro', false],
      ['not_starts_with', 'ro', 'pro', true],
      ['ends_with', 'RO', 'pro', true],
      ['ends_with', 'pr', 'pro', false],
      ['ends_with', 'ro', 'PRO', true],
      ['not_ends_with', 'RO', 'pro', false],
      ['not_ends_with', 'pr', 'pro', true],
      // asciiLower folds A–Z only
      ['icontains', 'É', 'é', false],
      ['starts_with', 'é', 'École', false],
      ['not_icontains', 'É', 'é', true],
      // a null property value takes part as "null"
      ['icontains', 'nu', null, true],
      ['is_not', 'null', null, false],
      ['is_not', 'nil', null, true],
    ])('%s %p vs %p is %p', (operator, value, actual, expected) => {
      expect(matchValue(operator, value, actual)).toBe(expected);
    });
  });
});

describe('exact and is_not with the key present (docs/evaluation.md §4.4)', () => {
  describe('boolean-like filter values compare truthiness', () => {
    it.each([
      [true, true, true],
      [true, 'TRUE', true],
      [true, [true], true],
      [true, false, false],
      [true, 'yes', false],
      [true, 1, false],
      [false, false, true],
      [false, 'False', true],
      [false, 0, true],
      [false, 'no', true],
      [false, null, true],
      [false, true, false],
      [false, 'true', false],
      ['true', true, true],
      ['TRUE', 'true', true],
      ['False', 'anything', true],
      ['False', 'tRuE', false],
      [[true, 'TRUE'], true, true],
      [[true, 'false'], 'false', true],
      [[true, 'false'], true, false],
      [[], true, true],
      [[], [], true],
      [[], false, false],
    ])('exact %p vs %p is %p', (value, actual, expected) => {
      expect(matchValue('exact', value, actual)).toBe(expected);
      expect(matchValue('is_not', value, actual)).toBe(!expected);
    });
  });

  describe('other arrays match any item, case-insensitively', () => {
    it.each([
      [['US', 'CA'], 'us', true],
      [['US', 'CA'], 'Ca', true],
      [['US', 'CA'], 'MX', false],
      [[0, 1, 2, 3], '2', true],
      [[0, 1, 2, 3], 2, true],
      [[0, 1, 2, 3], 4, false],
      [['a', true], 'TRUE', true],
      [['a', true], false, false],
    ])('exact %p vs %p is %p', (value, actual, expected) => {
      expect(matchValue('exact', value, actual)).toBe(expected);
      expect(matchValue('is_not', value, actual)).toBe(!expected);
    });
  });

  describe('otherwise the stringified values compare case-insensitively', () => {
    it.each([
      ['Pro', 'pro', true],
      ['Pro', 'basic', false],
      [5, '5', true],
      ['5', 5, true],
      [1.0, '1', true],
      ['1.0', 1, false],
      ['value', '', false],
      ['value', null, false],
      ['null', null, true],
      ['["a"]', ['a'], true],
      ['["A"]', ['a'], true],
      ['a', ['a'], false],
    ])('exact %p vs %p is %p', (value, actual, expected) => {
      expect(matchValue('exact', value, actual)).toBe(expected);
      expect(matchValue('is_not', value, actual)).toBe(!expected);
    });
  });
});

describe('numeric comparisons (docs/evaluation.md §4.5)', () => {
  it.each([
    ['gt', 1, '23', true],
    ['lt', '43', 42, true],
    ['lt', 1, '1', false],
    ['lte', 1, '1', true],
    ['gte', '1', 1, true],
    ['gte', '1', 0.5, false],
    ['gt', '1e2', 101, true],
    ['gt', '1e2', 100, false],
    ['lt', '-1', -1.5, true],
    // numeric only when both sides are numeric
    ['gt', 'abc', 'abd', false],
    ['lt', 'b', 'a', false],
    ['gt', 0, true, false],
    ['gte', 0, null, false],
    ['gt', 0, ' 5', false],
    ['gt', 0, '', false],
    ['lt', 'Infinity', 5, false],
    ['gt', 0, [5], false],
  ])('%s %p vs %p is %p', (operator, value, actual, expected) => {
    expect(matchValue(operator, value, actual)).toBe(expected);
  });
});

describe('dates (docs/evaluation.md §4.6)', () => {
  describe('against an absolute filter date', () => {
    it.each([
      // the property side as unix seconds, number or numeric string, fractions allowed
      ['is_date_exact', '2024-06-01T00:00:00Z', 1717200000, true],
      ['is_date_exact', '2024-06-01', '1717200000', true],
      ['is_date_exact', '2024-06-01T00:00:00.500Z', 1717200000.5, true],
      ['is_date_exact', '2024-06-01T00:00:00.500Z', '1717200000.5', true],
      ['is_date_exact', '2024-06-01', 1717200000.5, false],
      ['is_date_after', '2024-06-01', 1717200000.5, true],
      ['is_date_before', '2024-06-01', 1717199999.999, true],
      ['is_date_before', '2024-06-01', 1717200000, false],
      ['is_date_after', '2024-06-01', 1717200000, false],
      // the property side as a date string
      ['is_date_exact', '2024-06-01T10:00:00Z', '2024-06-01T12:00:00+02:00', true],
      ['is_date_exact', '2024-06-01T10:00:00Z', '2024-06-01 10:00', true],
      ['is_date_before', '2024-06-01T10:00:00Z', '2024-06-01T09:59:59.999Z', true],
      ['is_date_before', '2024-06-01T10:00:00Z', '2024-06-01T10:00:00Z', false],
      ['is_date_after', '2024-06-01T10:00:00Z', '2024-06-01T10:00:00.001Z', true],
      ['is_date_after', '2024-06-01', '2024-05-31', false],
      // an unparseable property value, or one that is neither number nor string
      ['is_date_before', '2024-06-01', 'June 1, 2024', false],
      ['is_date_after', '2024-06-01', 'not a date', false],
      ['is_date_before', '2024-06-01', true, false],
      ['is_date_before', '2024-06-01', null, false],
      ['is_date_before', '2024-06-01', ['2024-05-01'], false],
      // the filter value must be a parseable string
      ['is_date_exact', 1717200000, 1717200000, false],
      ['is_date_after', '1717200000', 1717200001, false],
      ['is_date_before', 'tomorrow', '2024-01-01', false],
      ['is_date_before', '2024-13-01', '2024-01-01', false],
    ])('%s %p vs %p is %p', (operator, value, actual, expected) => {
      expect(matchValue(operator, value, actual)).toBe(expected);
    });
  });

  describe('against a relative filter date, counted back from now (2024-06-15T12:00:00Z)', () => {
    it.each([
      ['is_date_after', '-7d', '2024-06-10', true],
      ['is_date_after', '7d', '2024-06-01', false],
      ['is_date_before', '-7d', '2024-06-01', true],
      ['is_date_before', '-7d', '2024-06-10', false],
      ['is_date_exact', '1d', '2024-06-14T12:00:00Z', true],
      ['is_date_exact', '6h', '2024-06-15T06:00:00Z', true],
      ['is_date_exact', '2w', '2024-06-01T12:00:00Z', true],
      ['is_date_exact', '1m', '2024-05-15T12:00:00Z', true],
      ['is_date_exact', '1y', '2023-06-15T12:00:00Z', true],
      ['is_date_exact', '1d', Date.parse('2024-06-14T12:00:00Z') / 1000, true],
      ['is_date_before', '1h', Date.parse('2024-06-15T11:00:00Z') / 1000 - 0.001, true],
      ['is_date_before', '10000d', '1990-01-01', false],
    ])('%s %p vs %p is %p', (operator, value, actual, expected) => {
      expect(matchValue(operator, value, actual)).toBe(expected);
    });

    it('uses the given now', () => {
      const later = new Date('2024-07-15T12:00:00Z');
      expect(matchValue('is_date_after', '-7d', '2024-06-10', later)).toBe(false);
    });

    it('clamps months to the target month end (31 Mar − 1m = 29 Feb 2024)', () => {
      expect(matchValue('is_date_exact', '1m', '2024-02-29T00:00:00Z', new Date('2024-03-31T00:00:00Z'))).toBe(true);
    });
  });
});

describe('regex (docs/evaluation.md §4.7)', () => {
  it.each([
    ['regex', 'ro', 'pro', true],
    ['regex', '^pro$', 'pro', true],
    ['regex', '^pro$', 'pro plus', false],
    ['regex', 'pro', 'Pro', false],
    ['regex', '[Pp]ro', 'Pro', true],
    ['regex', '', 'anything', true],
    ['regex', '', '', true],
    ['regex', 4, 4, true],
    ['regex', '^\\d+$', 42, true],
    ['regex', 'nul', null, true],
    // RE2 reads these differently from JavaScript: `\A` is the start of the text, `.` a code point.
    ['regex', '\\A', 'A', true],
    ['regex', '\\A', 'xyz', true],
    ['regex', '^.$', '😀', true],
    ['not_regex', 'pro', 'Pro', true],
    ['not_regex', '[Pp]ro', 'Pro', false],
    ['not_regex', '', 'anything', false],
  ])('%s %p vs %p is %p', (operator, value, actual, expected) => {
    expect(matchValue(operator, value, actual)).toBe(expected);
  });

  it('uses no m flag: ^ does not match after a newline', () => {
    expect(matchValue('regex', '^b', 'a\nb')).toBe(false);
    expect(matchValue('regex', 'b$', 'b\na')).toBe(false);
  });

  // Not JavaScript, not RE2 (lookaround, back-reference), too long, too complex.
  it.each(['?*', '(?i)abc', '(?P<n>a)', 'a++', '[', '(abc', 'a(?=b)', '(a)\\1', 'a'.repeat(1001), '(?:a{1,100}b){20}'])(
    'a pattern that cannot be evaluated (%p) is false for regex and not_regex',
    (pattern) => {
      for (const actual of ['abc', 'ABC', 'a', '?*', 'xyz', 'ab', 'aa']) {
        expect(matchValue('regex', pattern, actual)).toBe(false);
        expect(matchValue('not_regex', pattern, actual)).toBe(false);
      }
    },
  );

  it('decides the catastrophic pattern `^(a+)+$` in linear time, for any length up to the bound', () => {
    expect(matchValue('regex', '^(a+)+$', `${'a'.repeat(29)}!`)).toBe(false);
    expect(matchValue('regex', '^(a+)+$', `${'a'.repeat(9_999)}!`)).toBe(false);
    expect(matchValue('regex', '^(a+)+$', 'a'.repeat(10_000))).toBe(true);
    expect(matchValue('not_regex', '^(a+)+$', `${'a'.repeat(9_999)}!`)).toBe(true);
  });

  it('leaves a value too long to match undecided: false for regex and not_regex', () => {
    const long = 'a'.repeat(10_001);
    expect(matchValue('regex', 'a', long)).toBe(false);
    expect(matchValue('not_regex', 'b', long)).toBe(false);
    // A complex pattern (program size near 1,000) takes values up to 1,000 characters only.
    const complex = '(?:[ab]{0,40}c){12}';
    expect(matchValue('regex', complex, 'c'.repeat(900))).toBe(true);
    expect(matchValue('regex', complex, 'c'.repeat(2_000))).toBe(false);
    expect(matchValue('not_regex', complex, 'd'.repeat(2_000))).toBe(false);
  });
});

describe('regexProblem: why a pattern is refused when saved', () => {
  it.each([
    ['(unclosed', 'ECMAScript'],
    ['(?i)abc', 'ECMAScript'],
    ['a(?=b)', 'RE2'],
    ['(a)\\1', 'RE2'],
    ['a'.repeat(1001), 'RE2'],
    ['(?:a{1,100}b){20}', 'RE2'],
  ])('%p is refused by %s', (pattern, dialect) => {
    expect(regexProblem(pattern)).toEqual({ dialect, reason: expect.any(String) });
  });

  it('accepts patterns both dialects read', () => {
    for (const pattern of ['', '^pro$', '@example\\.com$', '[Pp]ro', '^\\d{3}-\\d{4}$', '(a|b)+c'])
      expect(regexProblem(pattern)).toBeNull();
  });
});

describe('numbers, dates and versions are read in one pass, with length caps', () => {
  it('a 60,000-digit text followed by x is no number; 1,000 digits still are', () => {
    expect(numeric(`${'1'.repeat(60_000)}x`)).toBeNull();
    expect(numeric('1'.repeat(60_000))).toBeNull();
    expect(numeric('1'.repeat(300))).toBe(Number('1'.repeat(300)));
    expect(matchValue('gt', '5', `${'9'.repeat(60_000)}x`)).toBe(false);
  });

  it('a date or version text past its cap is no date or version', () => {
    expect(matchValue('is_date_before', '2024-01-01', `2023-01-01T00:00:00.${'1'.repeat(60)}Z`)).toBe(false);
    expect(matchValue('is_date_before', '2024-01-01', '2023-01-01T00:00:00.1Z')).toBe(true);
    expect(parseVersion(`1.2.${'3'.repeat(300)}`)).toBeNull();
  });

  it('icontains folds ASCII only, also on long non-ASCII text', () => {
    expect(matchValue('icontains', 'ÉCOLE', 'une école')).toBe(false);
    expect(matchValue('icontains', 'ÉCOLE', 'une École')).toBe(true);
    expect(matchValue('icontains', 'abc', `${'É'.repeat(20_000)}xABCx`)).toBe(true);
  });
});

describe('semver (docs/evaluation.md §4.8)', () => {
  describe('parseVersion', () => {
    it.each([
      ['1.2.3', [1, 2, 3]],
      ['v1.2.3', [1, 2, 3]],
      ['V1.2.3', [1, 2, 3]],
      [' 1.2.3 ', [1, 2, 3]],
      ['1.2.3-beta', [1, 2, 3]],
      ['1.2.3+build.7', [1, 2, 3]],
      ['1.2-rc.1+b', [1, 2, 0]],
      ['1', [1, 0, 0]],
      ['3.8', [3, 8, 0]],
      ['3.08.0', [3, 8, 0]],
      ['007', [7, 0, 0]],
      ['', null],
      ['v', null],
      ['vv1.2.3', null],
      ['1.2.3.4', null],
      ['1..2', null],
      ['1.2.', null],
      ['.1', null],
      ['1.2.x', null],
      ['*', null],
      ['a.b.c', null],
      ['-1.2.3', null],
      ['1. 2', null],
    ])('parseVersion(%p) is %p', (text, expected) => {
      expect(parseVersion(text)).toEqual(expected);
    });
  });

  it.each([
    // examples
    ['semver_gt', '1.2.3', 'v1.10.0', true],
    ['semver_eq', '3.8', '3.08.0', true],
    ['semver_caret', '0.2.3', '0.3.0', false],
    // tuple comparison; pre-release and build parts ignored
    ['semver_eq', '1.2.3', '1.2.3-beta', true],
    ['semver_eq', '1.2.3', '1.2.4', false],
    ['semver_eq', '1', 1, true],
    ['semver_eq', 1.2, '1.2.0', true],
    ['semver_neq', '1.2.3', '1.2.4', true],
    ['semver_neq', '1.2.3', '1.2.3+build', false],
    ['semver_gt', '1.2.3', '1.2.3', false],
    ['semver_gt', '1.10.0', '1.9.9', false],
    ['semver_gte', '1.2.3', '1.2.3', true],
    ['semver_gte', '1.2.3', '1.2.2', false],
    ['semver_lt', '2.0.0', '1.99.99', true],
    ['semver_lt', '2.0.0', '2.0.0', false],
    ['semver_lte', '2.0.0', '2.0.0', true],
    ['semver_lte', '2.0.0', '2.0.1', false],
    // tilde: [X.Y.Z, X.(Y+1).0)
    ['semver_tilde', '1.2.3', '1.2.3', true],
    ['semver_tilde', '1.2.3', '1.2.99', true],
    ['semver_tilde', '1.2.3', '1.3.0', false],
    ['semver_tilde', '1.2.3', '1.2.2', false],
    ['semver_tilde', '1.2', '1.2.0', true],
    // caret: below (X+1).0.0, else 0.(Y+1).0, else 0.0.(Z+1)
    ['semver_caret', '1.2.3', '1.2.3', true],
    ['semver_caret', '1.2.3', '1.99.0', true],
    ['semver_caret', '1.2.3', '2.0.0', false],
    ['semver_caret', '1.2.3', '1.2.2', false],
    ['semver_caret', '0.2.3', '0.2.99', true],
    ['semver_caret', '0.2.3', '0.2.2', false],
    ['semver_caret', '0.0.3', '0.0.3', true],
    ['semver_caret', '0.0.3', '0.0.4', false],
    // wildcard
    ['semver_wildcard', '1.*', '1.0.0', true],
    ['semver_wildcard', '1.*', '1.99.5', true],
    ['semver_wildcard', '1.*', '2.0.0', false],
    ['semver_wildcard', '1.*', '0.9.9', false],
    ['semver_wildcard', '1.*.*', '1.5.0', true],
    ['semver_wildcard', '1.*.*', '2.0.0', false],
    ['semver_wildcard', '1.2.*', '1.2.0', true],
    ['semver_wildcard', '1.2.*', '1.2.99', true],
    ['semver_wildcard', '1.2.*', '1.3.0', false],
    ['semver_wildcard', '1.2.*', '1.1.9', false],
    ['semver_wildcard', '*', '0.0.0', true],
    ['semver_wildcard', '*', 'v9.9.9-rc', true],
    ['semver_wildcard', '*', 'latest', false],
    ['semver_wildcard', '1.2.3', '1.2.3', false],
    ['semver_wildcard', '1.*.3', '1.0.3', false],
    ['semver_wildcard', '*.*', '1.0.0', false],
    // an unparseable side is false, semver_neq included
    ['semver_neq', '1.2.3', 'abc', false],
    ['semver_neq', 'abc', '1.2.3', false],
    ['semver_neq', '1.2.3.4', '1.2.3', false],
    ['semver_eq', '1.2.3', null, false],
    ['semver_lt', '1.2.3', '', false],
    ['semver_gt', '1.2.3', '1.2.3.4', false],
    ['semver_tilde', 'x', '1.2.3', false],
    ['semver_caret', '1.2.3', 'v', false],
  ])('%s %p vs %p is %p', (operator, value, actual, expected) => {
    expect(matchValue(operator, value, actual)).toBe(expected);
  });
});
