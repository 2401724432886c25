import { timestampOf } from '../../src/db/rows';

/** The general reading of a PostgreSQL timestamptz, which the UTC fast path must agree with. */
const general = (text: string) => new Date(text.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00'));

describe('timestampOf', () => {
  it('reads UTC timestamps as the general parse does, with any fraction', () => {
    const texts = [
      '2024-01-31 12:00:00+00',
      '2024-01-31 12:00:00.1+00',
      '2024-01-31 12:00:00.12+00',
      '2024-01-31 12:00:00.123+00',
      '2024-01-31 12:00:00.1239+00',
      '2024-01-31 12:00:00.999999+00',
      '2024-02-29 23:59:59.5+00',
      '1970-01-01 00:00:00+00',
      '0099-12-31 23:59:59+00',
      '9999-12-31 23:59:59.999999+00',
    ];
    for (const text of texts) expect([text, timestampOf(text).toISOString()]).toEqual([text, general(text).toISOString()]);
    // Date.UTC maps two-digit years to 19xx; the fast path must not.
    expect(timestampOf('0099-12-31 23:59:59+00').getUTCFullYear()).toBe(99);
  });

  it('reads other offsets and Dates as before', () => {
    expect(timestampOf('2024-01-31 12:00:00+05:30').toISOString()).toBe('2024-01-31T06:30:00.000Z');
    expect(timestampOf('2024-01-31 12:00:00.25-03').toISOString()).toBe('2024-01-31T15:00:00.250Z');
    const date = new Date();
    expect(timestampOf(date)).toBe(date);
  });
});
