import { MapperKind, mapSchema } from '@graphql-tools/utils';
import type { GraphQLSchema } from 'graphql';
import { Extensions } from 'type-graphql';

/**
 * Marks a field that exists only to feed the REST adapter (a wire field of PostHog's API with no
 * meaning of its own, such as a flag's always-empty `features`): REST operations select it, the
 * public GraphQL schema (served at /graphql, committed as schema/schema.graphql) leaves it out.
 */
export const RestOnly = () => Extensions({ restOnly: true });

/** The schema without its REST-only fields: what GraphQL clients see and may query. */
export const withoutRestOnlyFields = (schema: GraphQLSchema): GraphQLSchema =>
  mapSchema(schema, { [MapperKind.OBJECT_FIELD]: (field) => (field.extensions?.restOnly ? null : field) });
