import type { ApiResponse } from './test-app';

/**
 * How GraphQL refused a request before any resolver ran. src/graphql/errors.ts turns Apollo's code
 * into `reason`: variables that do not fit the schema (a required field missing or null, a number
 * for an enum) are Apollo's BAD_USER_INPUT, `bad_user_input`; a document that does not fit (an
 * inline literal of the wrong type, a limit exceeded) `graphql_validation_failed`; one that does not
 * parse `graphql_parse_failed`.
 */
export type RefusalReason = 'bad_user_input' | 'graphql_validation_failed' | 'graphql_parse_failed';

/** Asserts that GraphQL refused the request: HTTP 400, no data, one error whose message matches `message`. */
export function expectRefused(
  res: ApiResponse<{ data?: unknown; errors?: any[] }>,
  message: RegExp,
  reason: RefusalReason = 'bad_user_input',
) {
  expect({ status: res.status, data: res.body?.data }).toEqual({ status: 400, data: undefined });
  expect(res.body.errors).toHaveLength(1);
  expect(res.body.errors![0].extensions).toEqual({ code: 'BAD_USER_INPUT', type: 'validation_error', reason, attr: null });
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
