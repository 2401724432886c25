import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { AppError, translate } from '../errors';

/**
 * Decision 3: a GraphQL error carries what its REST twin would: message = detail, and
 * extensions {code (GraphQL class), type, reason (the REST code), attr}. Internals never leak.
 */
export function formatGraphQLError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  const apolloCode = formatted.extensions?.code;
  if (!(original instanceof AppError) && typeof apolloCode === 'string' && apolloCode !== 'INTERNAL_SERVER_ERROR') {
    // Parse, validation and variable errors found by GraphQL itself: the client's input.
    return {
      ...formatted,
      extensions: { code: 'BAD_USER_INPUT', type: 'validation_error', reason: apolloCode.toLowerCase(), attr: null },
    };
  }
  if (isOperationError(original)) {
    // Raised by graphql-js before any field ran (e.g. `subscription { … }` on a schema without
    // subscriptions): Apollo labels it INTERNAL_SERVER_ERROR, but the client's operation is at fault.
    return {
      ...formatted,
      extensions: { code: 'BAD_USER_INPUT', type: 'validation_error', reason: 'bad_request', attr: null },
    };
  }
  const appError = translate(original);
  return {
    message: appError.detail,
    locations: formatted.locations,
    path: formatted.path,
    extensions: { code: appError.graphqlCode, type: appError.type, reason: appError.code, attr: appError.attr },
  };
}

export function isInternal(error: unknown): boolean {
  const original = unwrapResolverError(error);
  return !(original instanceof AppError) && !isOperationError(original);
}

/** An error graphql-js raised about the operation as a whole: no field path, no underlying throw. */
function isOperationError(error: unknown): boolean {
  return error instanceof GraphQLError && !error.path && !error.originalError;
}
