import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { AppError, translate } from '../errors';

/**
 * An AppError raised before execution (by a request plugin), carried as a GraphQLError so Apollo
 * answers it with the AppError's HTTP status instead of a 500; formatted like any AppError.
 */
class Refusal extends GraphQLError {
  constructor(readonly appError: AppError) {
    super(appError.detail, { originalError: appError, extensions: { http: { status: appError.status } } });
  }
}

export const refusal = (error: AppError): GraphQLError => new Refusal(error);

/** The AppError behind a GraphQL error, if any: thrown by a resolver, or refused before execution. */
function appErrorOf(error: unknown): AppError | null {
  const original = unwrapResolverError(error);
  if (original instanceof AppError) return original;
  if (original instanceof Refusal) return original.appError;
  return null;
}

/**
 * docs/README.md decision 3: a GraphQL error carries what its REST twin would: message = detail, and
 * extensions {code (GraphQL class), type, reason (the REST code), attr}. Internals never leak.
 */
export function formatGraphQLError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  const apolloCode = formatted.extensions?.code;
  const known = appErrorOf(error);
  if (!known && typeof apolloCode === 'string' && apolloCode !== 'INTERNAL_SERVER_ERROR') {
    // Parse, validation and variable errors found by GraphQL itself (and the request limits): the client's input.
    return {
      ...formatted,
      extensions: { code: 'BAD_USER_INPUT', type: 'validation_error', reason: apolloCode.toLowerCase(), attr: null },
    };
  }
  if (!known && isOperationError(original)) {
    // Raised by graphql-js before any field ran (e.g. `subscription { … }` on a schema without
    // subscriptions): Apollo labels it INTERNAL_SERVER_ERROR, but the client's operation is at fault.
    return {
      ...formatted,
      extensions: { code: 'BAD_USER_INPUT', type: 'validation_error', reason: 'bad_request', attr: null },
    };
  }
  const appError = known ?? translate(original);
  return {
    message: appError.detail,
    locations: formatted.locations,
    path: formatted.path,
    extensions: { code: appError.graphqlCode, type: appError.type, reason: appError.code, attr: appError.attr },
  };
}

export function isInternal(error: unknown): boolean {
  return !appErrorOf(error) && !isOperationError(unwrapResolverError(error));
}

/** An error graphql-js raised about the operation as a whole: no field path, no underlying throw. */
function isOperationError(error: unknown): boolean {
  return error instanceof GraphQLError && !error.path && !error.originalError;
}
