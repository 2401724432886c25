import { MemorySlidingWindowStore, type BucketSpec } from '../../src/http/sliding-window';

/** The sliding-window log itself (docs/rest-api.md §1.6), on a clock the test moves. */

let now = 0;
let store: MemorySlidingWindowStore;

beforeEach(() => {
  now = 1_000_000;
  store = new MemorySlidingWindowStore(() => now);
});
afterEach(() => store.close());

const minute = (limit: number, key = 'k'): BucketSpec => ({ key, limit, windowMs: 60_000 });

describe('MemorySlidingWindowStore', () => {
  it('admits while fewer than the limit were admitted in the trailing window', () => {
    expect(store.hitNow([minute(3)])).toEqual({ admitted: true, buckets: [{ count: 1, waitMs: 0 }] });
    now += 10_000;
    expect(store.hitNow([minute(3)])).toEqual({ admitted: true, buckets: [{ count: 2, waitMs: 0 }] });
    now += 10_000;
    // Full after this one: the next place frees when the first request (20 s old) leaves, in 40 s.
    expect(store.hitNow([minute(3)])).toEqual({ admitted: true, buckets: [{ count: 3, waitMs: 40_000 }] });
    now += 5_000;
    expect(store.hitNow([minute(3)])).toEqual({ admitted: false, buckets: [{ count: 3, waitMs: 35_000 }] });
  });

  it('slides: requests leave one by one, not all at a window boundary', () => {
    for (const step of [0, 10_000, 10_000]) {
      now += step;
      store.hitNow([minute(3)]);
    }
    now += 40_000; // the first request (60 s ago) has left; the other two have not
    expect(store.hitNow([minute(3)]).admitted).toBe(true);
    expect(store.hitNow([minute(3)])).toEqual({ admitted: false, buckets: [{ count: 3, waitMs: 10_000 }] });
    now += 10_000;
    expect(store.hitNow([minute(3)]).admitted).toBe(true);
  });

  it('does not count refused requests', () => {
    store.hitNow([minute(1)]);
    for (let i = 0; i < 10; i += 1) expect(store.hitNow([minute(1)]).admitted).toBe(false);
    now += 60_000;
    expect(store.hitNow([minute(1)])).toEqual({ admitted: true, buckets: [{ count: 1, waitMs: 60_000 }] });
  });

  it('records a request in all its buckets or none', () => {
    const burst = minute(2, 'burst');
    const sustained: BucketSpec = { key: 'sustained', limit: 3, windowMs: 3_600_000 };
    store.hitNow([burst, sustained]);
    store.hitNow([burst, sustained]);
    // Burst is full: refused, and the sustained bucket is not charged for it.
    expect(store.hitNow([burst, sustained])).toEqual({
      admitted: false,
      buckets: [
        { count: 2, waitMs: 60_000 },
        { count: 2, waitMs: 0 },
      ],
    });
    now += 60_000;
    expect(store.hitNow([burst, sustained])).toEqual({
      admitted: true,
      buckets: [
        { count: 1, waitMs: 0 },
        { count: 3, waitMs: 3_540_000 },
      ],
    });
    expect(store.hitNow([burst, sustained]).admitted).toBe(false);
  });

  it('forgets idle keys', () => {
    store.hitNow([minute(3, 'a')]);
    store.hitNow([minute(3, 'b')]);
    expect(store.size).toBe(2);
    now += 61_000;
    store.sweep();
    expect(store.size).toBe(0);
  });
});
