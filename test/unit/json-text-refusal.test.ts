import { jsonTextRefusal, MAX_JSON_DEPTH, MAX_JSON_KEY_LENGTH, MAX_JSON_SHAPES } from '../../src/validation/fields';

/** `count` objects, each with `keys` keys that no other object has (built as text: parsing it is the attack). */
function neverRepeating(count: number, keys: number): string {
  const objects: string[] = [];
  for (let i = 0; i < count; i++) objects.push(`{${Array.from({ length: keys }, (_, j) => `"k${i}_${j}":${j}`).join(',')}}`);
  return `[${objects.join(',')}]`;
}

describe('jsonTextRefusal: depth', () => {
  const nested = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;

  it('allows MAX_JSON_DEPTH levels and refuses one more, objects and arrays alike', () => {
    expect(jsonTextRefusal(nested(MAX_JSON_DEPTH))).toBeNull();
    expect(jsonTextRefusal(nested(MAX_JSON_DEPTH + 1))).toBe('depth');
    expect(jsonTextRefusal(`${'{"a":'.repeat(MAX_JSON_DEPTH + 1)}1${'}'.repeat(MAX_JSON_DEPTH + 1)}`)).toBe('depth');
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(jsonTextRefusal(JSON.stringify({ a: '['.repeat(5000), b: '\\"[[[' + '{'.repeat(5000) }))).toBeNull();
  });

  it('bounds text that is not JSON: an unterminated run of brackets is refused before its end', () => {
    expect(jsonTextRefusal('['.repeat(10_000_000))).toBe('depth');
  });
});

describe('jsonTextRefusal: object shapes', () => {
  it('counts a repeated sequence of keys once, at any depth', () => {
    const events = Array.from({ length: 5000 }, (_, i) => ({ event: 'e', distinct_id: `u${i}`, properties: { a: i, b: { a: 1 } } }));
    expect(jsonTextRefusal(JSON.stringify({ batch: events }), { shapes: 6 })).toBeNull();
    // batch; event, distinct_id, properties; a, b — six shapes, `b`'s object being the `a` shape again.
    expect(jsonTextRefusal(JSON.stringify({ batch: events }), { shapes: 5 })).toBe('shapes');
  });

  it('allows exactly MAX_JSON_SHAPES shapes and refuses one more', () => {
    expect(jsonTextRefusal(neverRepeating(MAX_JSON_SHAPES / 100, 100))).toBeNull();
    expect(jsonTextRefusal(`[${neverRepeating(MAX_JSON_SHAPES / 100, 100).slice(1, -1)},{"one more":1}]`)).toBe('shapes');
  });

  it('counts the same keys in another order as other shapes (V8 builds another hidden class for them)', () => {
    expect(jsonTextRefusal('[{"a":1,"b":2},{"b":1,"a":2}]', { shapes: 4 })).toBeNull();
    expect(jsonTextRefusal('[{"a":1,"b":2},{"b":1,"a":2}]', { shapes: 3 })).toBe('shapes');
  });

  it('reads a key through the spaces before its colon, and never a string value as a key', () => {
    expect(jsonTextRefusal('{ "a" \n\t: "b:c", "d" : ["e", "f:"], "g": {"h": "i"} }', { shapes: 4 })).toBeNull();
    expect(jsonTextRefusal('{ "a" \n\t: "b:c", "d" : ["e", "f:"], "g": {"h": "i"} }', { shapes: 3 })).toBe('shapes');
  });

  it('adds no shape for a key that is an array index, which V8 keeps among the elements', () => {
    const indexed = JSON.stringify(Array.from({ length: 60_000 }, (_, i) => ({ [String(i)]: i, 4294967294: 1 })));
    expect(jsonTextRefusal(indexed, { shapes: 0 })).toBeNull();
    for (const key of ['01', '-1', '1.5', '4294967295', '1e3', ''])
      expect({ key, refusal: jsonTextRefusal(`{"${key}":1}`, { shapes: 0 }) }).toEqual({ key, refusal: 'shapes' });
  });

  it('refuses 20 MB of never-repeating keys', () => {
    const text = neverRepeating(30_000, 100);
    expect(text.length).toBeGreaterThan(20_000_000);
    expect(jsonTextRefusal(text)).toBe('shapes');
  });
});

describe('jsonTextRefusal: key length', () => {
  it('allows a key of MAX_JSON_KEY_LENGTH characters as written and refuses a longer one; values may be longer', () => {
    expect(jsonTextRefusal(`{"${'k'.repeat(MAX_JSON_KEY_LENGTH)}":1}`)).toBeNull();
    expect(jsonTextRefusal(`{"${'k'.repeat(MAX_JSON_KEY_LENGTH + 1)}":1}`)).toBe('key');
    expect(jsonTextRefusal(`{"${'\\u0061'.repeat(MAX_JSON_KEY_LENGTH / 4)}":1}`)).toBe('key');
    expect(
      jsonTextRefusal(JSON.stringify({ k: 'v'.repeat(MAX_JSON_KEY_LENGTH * 10), list: ['x'.repeat(MAX_JSON_KEY_LENGTH * 2)] })),
    ).toBeNull();
  });
});
