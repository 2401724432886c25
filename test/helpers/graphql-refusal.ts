import type { ApiResponse } from './test-app';

/**
 * The extensions of a request GraphQL refused before any resolver ran because its variables do not
 * fit the schema: a required (non-null) field missing or null, or a value its type cannot hold (a
 * number for an enum). src/graphql/errors.ts turns Apollo's code into `reason`: variable coercion is
 * Apollo's BAD_USER_INPUT, an inline literal that does not fit is GRAPHQL_VALIDATION_FAILED.
 */
export const VARIABLE_REFUSAL = { code: 'BAD_USER_INPUT', type: 'validation_error', reason: 'bad_user_input', attr: null };
export const VALIDATION_REFUSAL = { ...VARIABLE_REFUSAL, reason: 'graphql_validation_failed' };

/**
 * Asserts that GraphQL refused the request's variables: HTTP 400, no data, one error whose message
 * names the field (`message`) and whose extensions are VARIABLE_REFUSAL (or `extensions`).
 */
export function expectInputRefused(
  res: ApiResponse<{ data?: unknown; errors?: any[] }>,
  message: RegExp,
  extensions: Record<string, unknown> = VARIABLE_REFUSAL,
) {
  expect({ status: res.status, data: res.body?.data }).toEqual({ status: 400, data: undefined });
  expect(res.body.errors).toHaveLength(1);
  expect(res.body.errors![0].extensions).toEqual(extensions);
  expect(res.body.errors![0].message).toMatch(message);
}

/** The message part that names a required field left out of `type` (e.g. `Field "name" of required type "String!" was not provided`). */
export const notProvided = (field: string, type: string) =>
  new RegExp(`Field "${field}" of required type "${escape(type)}" was not provided\\.`);

/** The message part that names a required field sent as null (`at "input.name"; Expected non-nullable type "String!" not to be null`). */
export const nullGiven = (path: string, type: string) =>
  new RegExp(`got invalid value null at "${escape(path)}"; Expected non-nullable type "${escape(type)}" not to be null\\.`);

/** The message part that names an enum field given a number (`at "input.accessLevel"; Enum "FlagAccessLevel" cannot represent non-string value: 21`). */
export const notAnEnum = (path: string, value: unknown, type = 'FlagAccessLevel') =>
  new RegExp(`at "${escape(path)}"; Enum "${type}" cannot represent non-string value: ${escape(String(value))}\\.`);

function escape(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
