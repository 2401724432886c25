import { GraphQLScalarType, Kind } from 'graphql';
export { GraphQLJSON as JSONScalar, GraphQLJSONObject as JSONObjectScalar } from 'graphql-scalars';

/** The API's timestamp format: UTC, six fractional digits, `Z` (rest-flags.md §1.2). */
export function formatTimestamp(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

export const DateTimeScalar = new GraphQLScalarType<Date, string>({
  name: 'DateTime',
  description: 'UTC ISO-8601 date-time with six fractional digits, e.g. 2024-01-31T12:00:00.123000Z.',
  serialize: (value) => formatTimestamp(value instanceof Date ? value : new Date(value as string)),
  parseValue: (value) => {
    const date = new Date(String(value));
    if (typeof value !== 'string' || Number.isNaN(date.getTime())) throw new TypeError('Invalid date-time.');
    return date;
  },
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw new TypeError('Invalid date-time.');
    const date = new Date(ast.value);
    if (Number.isNaN(date.getTime())) throw new TypeError('Invalid date-time.');
    return date;
  },
});
