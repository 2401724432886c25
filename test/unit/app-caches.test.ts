import { CREDENTIAL_TTL_MS, createAppCaches, standingKey } from '../../src/app-caches';
import { TestClock } from '../helpers/clock';
import type { ProjectForUser } from '../../src/modules/project/project.store';

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

  it('does not remember a standing looked up before a change forgot them all (a read in flight)', () => {
    const { standings } = createAppCaches(new TestClock());
    const standing = { project: { id: 1 }, membershipLevel: 1, flagAccessLevel: null, roleLevel: 21 } as unknown as ProjectForUser;
    const before = standings.current;
    standings.remember('7 1', standing, before);
    expect(standings.get('7 1')).toBe(standing);
    const inFlight = standings.current;
    standings.forget();
    expect(standings.get('7 1')).toBeUndefined();
    standings.remember('7 1', standing, inFlight);
    expect(standings.get('7 1')).toBeUndefined();
    standings.remember('7 1', standing, standings.current);
    expect(standings.get('7 1')).toBe(standing);
  });

  it("forgets one user's standings in every project, and a lookup of theirs in flight, keeping everyone else's", () => {
    const { standings } = createAppCaches(new TestClock());
    const standing = { project: { id: 1 }, membershipLevel: 1, flagAccessLevel: null, roleLevel: null } as unknown as ProjectForUser;
    const keys = [standingKey(7, 1), standingKey(7, 2), standingKey(70, 1), standingKey(17, 1)];
    for (const key of keys) standings.remember(key, standing, standings.current);
    const inFlight = standings.current;
    standings.forgetUser(7);
    expect(keys.map((key) => standings.get(key) === standing)).toEqual([false, false, true, true]);
    standings.remember(standingKey(7, 3), standing, inFlight);
    expect(standings.get(standingKey(7, 3))).toBeUndefined();
  });
});
