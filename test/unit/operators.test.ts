import { isPropertyOperator, parseRelativeOrAbsoluteDate, PROPERTY_OPERATORS } from '../../src/evaluation/operators';

describe('property operators (docs/evaluation.md §4.3)', () => {
  it('lists every documented operator once', () => {
    expect([...PROPERTY_OPERATORS].sort()).toEqual(
      [
        'exact',
        'is_not',
        'is_set',
        'is_not_set',
        'icontains',
        'not_icontains',
        'starts_with',
        'not_starts_with',
        'ends_with',
        'not_ends_with',
        'regex',
        'not_regex',
        'gt',
        'gte',
        'lt',
        'lte',
        'is_date_before',
        'is_date_after',
        'is_date_exact',
        'semver_eq',
        'semver_neq',
        'semver_gt',
        'semver_gte',
        'semver_lt',
        'semver_lte',
        'semver_tilde',
        'semver_caret',
        'semver_wildcard',
        'in',
        'not_in',
      ].sort(),
    );
  });

  it.each([
    ['exact', true],
    ['not_in', true],
    ['semver_wildcard', true],
    ['foo', false],
    ['EXACT', false],
    ['', false],
    [null, false],
    [5, false],
  ])('isPropertyOperator(%p) is %p', (value, expected) => {
    expect(isPropertyOperator(value)).toBe(expected);
  });
});

describe('parseRelativeOrAbsoluteDate (docs/evaluation.md §4.6)', () => {
  const now = new Date('2024-03-31T12:34:56.789Z');
  const parse = (value: string, at: Date = now) => parseRelativeOrAbsoluteDate(value, at)?.toISOString() ?? null;

  describe('relative dates count back from now; the sign is ignored', () => {
    it.each([
      ['6h', '2024-03-31T06:34:56.789Z'],
      ['-6h', '2024-03-31T06:34:56.789Z'],
      ['30d', '2024-03-01T12:34:56.789Z'],
      ['-30d', '2024-03-01T12:34:56.789Z'],
      ['0d', '2024-03-31T12:34:56.789Z'],
      ['2w', '2024-03-17T12:34:56.789Z'],
      ['0005d', '2024-03-26T12:34:56.789Z'],
      // months and years on the calendar, clamped once to the target month's end
      ['1m', '2024-02-29T12:34:56.789Z'],
      ['2m', '2024-01-31T12:34:56.789Z'],
      ['13m', '2023-02-28T12:34:56.789Z'],
      ['3m', '2023-12-31T12:34:56.789Z'],
      ['1y', '2023-03-31T12:34:56.789Z'],
      ['9999h', new Date(now.getTime() - 9999 * 3_600_000).toISOString()],
    ])('%s → %s', (value, expected) => {
      expect(parse(value)).toBe(expected);
    });

    it('clamps a leap day minus a year to 28 Feb', () => {
      expect(parse('1y', new Date('2024-02-29T00:00:00.000Z'))).toBe('2023-02-28T00:00:00.000Z');
      expect(parse('4y', new Date('2024-02-29T00:00:00.000Z'))).toBe('2020-02-29T00:00:00.000Z');
    });

    it('accepts N up to 9999 only', () => {
      expect(parse('9999y')).not.toBeNull();
      expect(parse('10000d')).toBeNull();
      expect(parse('-10000h')).toBeNull();
    });
  });

  describe('absolute dates', () => {
    it.each([
      ['2024-06-01T10:00:00Z', '2024-06-01T10:00:00.000Z'],
      ['2024-06-01T10:00:00z', '2024-06-01T10:00:00.000Z'],
      ['2024-06-01t10:00:00Z', '2024-06-01T10:00:00.000Z'],
      ['2024-06-01T10:00:00.5+02:00', '2024-06-01T08:00:00.500Z'],
      ['2024-06-01T10:00:00.123456-05:30', '2024-06-01T15:30:00.123Z'],
      ['2024-06-01 10:00:00+00:00', '2024-06-01T10:00:00.000Z'],
      ['2024-06-01', '2024-06-01T00:00:00.000Z'],
      ['2024-02-29', '2024-02-29T00:00:00.000Z'],
      ['2024-06-01T10:00', '2024-06-01T10:00:00.000Z'],
      ['2024-06-01 10:00', '2024-06-01T10:00:00.000Z'],
      ['2024-06-01T10:00:30', '2024-06-01T10:00:30.000Z'],
      ['2024-06-01 10:00:30.123', '2024-06-01T10:00:30.123Z'],
      ['2024-06-01T10:00:30.1', '2024-06-01T10:00:30.100Z'],
      ['0099-01-01', '0099-01-01T00:00:00.000Z'],
    ])('%s → %s', (value, expected) => {
      expect(parse(value)).toBe(expected);
    });
  });

  describe('anything else is null', () => {
    it.each([
      '6hed',
      '1234-02-993284',
      '',
      'now',
      '30D',
      '30 d',
      '1.5d',
      '+30d',
      'd',
      ' 2024-06-01',
      '2024-06-01 ',
      '2024-6-1',
      '20240601',
      '2024-13-01',
      '2024-00-10',
      '2023-02-29',
      '2024-04-31',
      '2024-06-01T24:00:00Z',
      '2024-06-01T10:60:00Z',
      '2024-06-01T10:00:60Z',
      '2024-06-01T10:00:00+24:00',
      '2024-06-01T10:00:00+02',
      '2024-06-01T10:00Z',
      '2024-06-01T10',
      '2024-06-01T10:00:00.',
      'June 1, 2024',
      '1717200000',
    ])('%p', (value) => {
      expect(parse(value)).toBeNull();
    });
  });
});
