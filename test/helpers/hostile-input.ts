/**
 * The hostile-input corpus every writer is fed: the route walk (test/rest/no-server-errors.test.ts)
 * sends it over HTTP, test/operations/cli-import-hostile.test.ts through `flags:import`.
 */

/** Values sent as one field of a body. */
export const HOSTILE_VALUES: unknown[] = [
  null,
  true,
  -1,
  1e308,
  'x'.repeat(5000),
  '\u0000',
  [],
  [[[]]],
  {},
  { nested: { deeper: [1, { x: null }] } },
  '2024-02-30T00:00',
];

/** Whole bodies, as text. */
export const HOSTILE_BODIES = ['{bad', '[1]', '"text"', '123', 'null', '{"a":'.repeat(50)];

/** Text PostgreSQL cannot store (test/security/unstorable-input.test.ts): a lone high or low surrogate, NUL. */
export const UNSTORABLE_VALUES: unknown[] = ['\ud800', 'x\udc00', { 'k\ud800': 1 }, ['a', { k: 'v\u0000' }], { 'k\u0000': true }];

/** JSON text of `depth` nested arrays around a 1 (test/security/body-cost.test.ts counts depth so). */
export const nestedArraysText = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
