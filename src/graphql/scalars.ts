import { GraphQLScalarType, Kind } from 'graphql';
export { GraphQLJSON as JSONScalar, GraphQLJSONObject as JSONObjectScalar } from 'graphql-scalars';

/** The API's timestamp format: UTC, six fractional digits, `Z` (docs/rest-api.md §1.2). */
export function formatTimestamp(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** Seconds precision unless the value has a fraction (experiments, as upstream: `2021-12-01T10:23:00Z`). */
export function formatTimestampSeconds(date: Date): string {
  return date.getUTCMilliseconds() === 0 ? date.toISOString().replace(/\.000Z$/, 'Z') : formatTimestamp(date);
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

/** The same instant type, printed without a zero fraction (experiment dates). */
export const ExperimentDateTimeScalar = new GraphQLScalarType<Date, string>({
  ...DateTimeScalar.toConfig(),
  name: 'ExperimentDateTime',
  description: 'UTC ISO-8601 date-time; the fraction is shown only when not zero, e.g. 2021-12-01T10:23:00Z.',
  serialize: (value) => formatTimestampSeconds(value instanceof Date ? value : new Date(value as string)),
});
