import {
  applyUpdate,
  composeUpdates,
  mergedUpdate,
  updateFromProperties,
  type PropertyUpdate,
} from '../../src/modules/ingestion/person-properties';
import { isIllegalDistinctId } from '../../src/modules/ingestion/ingestion.persons';
import { eventTimestamp, parseTimestamp } from '../../src/modules/ingestion/capture.timestamp';

const KEYS = ['a', 'b', 'c', 'd'];

/** A small deterministic generator, so a failure is reproducible. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function randomUpdate(next: () => number): PropertyUpdate {
  const pick = () => Object.fromEntries(KEYS.filter(() => next() < 0.3).map((k) => [k, Math.floor(next() * 10)]));
  return updateFromProperties({ $set_once: pick(), $set: pick(), $unset: KEYS.filter(() => next() < 0.2) });
}

describe('person property updates (docs/ingestion.md §3.2)', () => {
  it('applies $set_once, then $set, then $unset', () => {
    const update = updateFromProperties({ $set_once: { a: 1, b: 1 }, $set: { b: 2, c: 2 }, $unset: ['c'] });
    expect(applyUpdate({ a: 0 }, update)).toEqual({ a: 0, b: 2 });
    expect(applyUpdate({}, updateFromProperties({ $unset: { x: 1 }, $set: 'no' }))).toEqual({});
  });

  it('keeps __proto__ as an ordinary key', () => {
    const update = updateFromProperties(JSON.parse('{"$set": {"__proto__": {"polluted": true}}}'));
    const result = applyUpdate({}, update);
    expect(Object.keys(result)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('composes like applying the updates one after another (2 000 random cases)', () => {
    const next = random(42);
    for (let i = 0; i < 2000; i++) {
      const start = Object.fromEntries(KEYS.filter(() => next() < 0.5).map((k) => [k, 'p']));
      const [first, second, third] = [randomUpdate(next), randomUpdate(next), randomUpdate(next)];
      const stepwise = applyUpdate(applyUpdate(applyUpdate(start, first), second), third);
      expect(applyUpdate(start, composeUpdates(composeUpdates(first, second), third))).toEqual(stepwise);
    }
  });

  it("merges two new persons as the target's properties over the source's, whichever is larger (2 000 random cases)", () => {
    const next = random(7);
    for (let i = 0; i < 2000; i++) {
      const [target, source] = [randomUpdate(next), randomUpdate(next)];
      if (next() < 0.5) composeUpdates(source, updateFromProperties({ $set: { e: 1, f: 2, g: 3, h: 4 } }));
      const expected = { ...applyUpdate({}, source), ...applyUpdate({}, target) };
      expect(applyUpdate({}, mergedUpdate(target, source))).toEqual(expected);
    }
  });
});

describe('illegal distinct ids (docs/ingestion.md §3.3)', () => {
  it.each([
    '',
    '  ',
    'anonymous',
    'GUEST',
    'distinct_id',
    'Email',
    'undefined',
    'True',
    '[object Object]',
    'NaN',
    'None',
    'null',
    '0',
    '"null"',
    "'undefined'",
  ])('%j is illegal', (id) => expect(isIllegalDistinctId(id)).toBe(true));
  it.each(['user-1', 'NULL', 'nan', '00', 'anon-1'])('%j is legal', (id) => expect(isIllegalDistinctId(id)).toBe(false));
});

describe('event timestamps (docs/ingestion.md §2.2)', () => {
  const now = new Date('2024-06-01T12:00:00.000Z');
  it.each([
    ['2024-01-01T00:00:00Z', '2024-01-01T00:00:00.000Z'],
    ['2024-01-01T00:00:00.123456+02:00', '2023-12-31T22:00:00.123Z'],
    ['2024-01-01 00:00:00', '2024-01-01T00:00:00.000Z'],
    ['2024-01-01', '2024-01-01T00:00:00.000Z'],
    ['2024-02-30T00:00:00Z', null],
    ['yesterday', null],
  ])('parses %s', (text, expected) => expect(parseTimestamp(text)?.toISOString() ?? null).toBe(expected));

  it('corrects skew, takes epoch ms and offsets, and falls back to now', () => {
    const sentAt = new Date('2024-01-01T00:00:10Z');
    expect(eventTimestamp({ timestamp: '2024-01-01T00:00:00Z' }, false, sentAt, now).toISOString()).toBe('2024-06-01T11:59:50.000Z');
    expect(eventTimestamp({ timestamp: '2024-01-01T00:00:00Z' }, true, sentAt, now).toISOString()).toBe('2024-01-01T00:00:00.000Z');
    expect(eventTimestamp({ timestamp: Date.parse('2024-05-01T00:00:00Z') }, false, null, now).toISOString()).toBe(
      '2024-05-01T00:00:00.000Z',
    );
    expect(eventTimestamp({ timestamp: '2024-01-01T00:00:00Z', offset: 1000 }, false, sentAt, now).toISOString()).toBe(
      '2024-06-01T11:59:59.000Z',
    );
    expect(eventTimestamp({ timestamp: '2024-06-02T12:00:00Z' }, false, null, now)).toBe(now);
    expect(eventTimestamp({ timestamp: '1969-12-31T00:00:00Z' }, false, null, now)).toBe(now);
    expect(eventTimestamp({ timestamp: 'garbage' }, false, null, now)).toBe(now);
  });
});
