import { GraphQLScalarType } from 'graphql';
import { DateTimeScalar } from '../../graphql/scalars';

/** Event times as docs/ingestion.md §2.2 prints them: `YYYY-MM-DDTHH:MM:SS.sssZ`. */
export const EventTimestampScalar = new GraphQLScalarType<Date, string>({
  ...DateTimeScalar.toConfig(),
  name: 'EventTimestamp',
  description: 'UTC ISO-8601 date-time with milliseconds, e.g. 2024-01-31T12:00:00.123Z.',
  serialize: (value) => (value instanceof Date ? value : new Date(value as string)).toISOString(),
});
