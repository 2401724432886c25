import { copyJson } from '../../src/validation/copy-json';
import { exceedsJsonDepth, MAX_FIELD_JSON_DEPTH, refuseUnstorableJson } from '../../src/validation/fields';
import { pyRepr } from '../../src/validation/python';
import { sameJson } from '../../src/validation/same-json';

/**
 * The walks every writer runs over a JSON field (issue 22, part 6): a value nested deeper than the
 * stack allows (an import's, or one stored before the depth limit) is copied, compared, printed or
 * refused, never a RangeError.
 */
const nested = (depth: number, inner: unknown = 1) => JSON.parse(`${'{"a":'.repeat(depth)}${JSON.stringify(inner)}${'}'.repeat(depth)}`);

describe('values deeper than the stack', () => {
  const deep = nested(100_000);

  it('copies, compares and prints them', () => {
    const copy = copyJson(deep);
    expect(copy).not.toBe(deep);
    expect(sameJson(copy, deep)).toBe(true);
    expect(sameJson(nested(100_000, 2), deep)).toBe(false);
    expect(pyRepr(nested(3))).toBe("{'a': {'a': {'a': 1}}}");
    expect(pyRepr(deep)).toHaveLength(100_000 * 7 + 1);
  });

  it('refuses them as a field, with the field named, and accepts the limit itself', () => {
    expect(() => refuseUnstorableJson(deep, 'rollback_conditions')).toThrow(
      expect.objectContaining({
        code: 'max_depth',
        attr: 'rollback_conditions',
        detail: 'Ensure this value is nested no more than 999 levels deep.',
      }),
    );
    expect(() => refuseUnstorableJson(nested(MAX_FIELD_JSON_DEPTH), 'filters')).not.toThrow();
    expect(exceedsJsonDepth(nested(MAX_FIELD_JSON_DEPTH + 1), MAX_FIELD_JSON_DEPTH)).toBe(true);
  });
});

describe('copyJson', () => {
  it('copies as structuredClone did: dates as dates, key order kept, `__proto__` kept as data', () => {
    const when = new Date('2024-01-02T03:04:05Z');
    const value = JSON.parse('{"b":[1,{"x":null}],"a":"s","__proto__":{"polluted":true}}');
    const copy = copyJson({ value, when, list: [when] });
    expect(copy).toEqual({ value, when, list: [when] });
    expect(Object.keys(copy.value)).toEqual(['b', 'a', '__proto__']);
    expect(Object.getPrototypeOf(copy.value)).toBe(Object.prototype);
    expect((copy.value as { polluted?: boolean }).polluted).toBeUndefined();
    expect(copy.when).not.toBe(when);
    expect(copy.when.getTime()).toBe(when.getTime());
    copy.value.b[1].x = 'changed';
    expect(value.b[1].x).toBeNull();
  });
});

describe('sameJson', () => {
  it.each([
    [{ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 }, true],
    [{ a: 1 }, { a: 1, b: 2 }, false],
    [[1, 2], [2, 1], false],
    [null, undefined, true],
    [{ a: undefined }, { b: undefined }, false],
    [new Date(5), new Date(5), true],
    [new Date(5), 5, false],
    [[], {}, false],
    ['1', 1, false],
  ])('%p and %p: %p', (a, b, same) => {
    expect(sameJson(a, b)).toBe(same);
  });
});
