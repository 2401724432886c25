import { CREDENTIAL_TTL_MS, createAppCaches } from '../../src/app-caches';
import { TestClock } from '../helpers/clock';

/**
 * docs/operations.md, "Time and caches": a lookup is remembered for CREDENTIAL_TTL_MS on the app's
 * clock, and the first read after the clock passes it misses, however soon that read comes.
 */
describe('the app caches', () => {
  it('forget an entry on the first read after its time to live, with no timer in between', () => {
    const clock = new TestClock();
    const { tokens } = createAppCaches(clock);
    tokens.set('phc_a', 1);
    expect(tokens.get('phc_a')).toBe(1);
    clock.advance(CREDENTIAL_TTL_MS - 1);
    expect(tokens.get('phc_a')).toBe(1);
    clock.advance(2);
    expect(tokens.get('phc_a')).toBeUndefined();
  });
});
