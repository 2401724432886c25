import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { CombinedGraphQLErrors, ServerError } from '@apollo/client/errors';
import { SetContextLink } from '@apollo/client/link/context';
import { ErrorLink } from '@apollo/client/link/error';
import { session } from './session';

/**
 * The console's only way to the service: GraphQL at /graphql, with the session's key as a bearer
 * token. A refused key (bad, revoked, expired) signs the user out with the server's reason.
 */
export function createClient(onRefusedKey: (reason: string) => void): ApolloClient {
  const auth = new SetContextLink((previous) => {
    const key = session.key();
    return key ? { headers: { ...previous.headers, authorization: `Bearer ${key}` } } : {};
  });
  const refused = new ErrorLink(({ error }) => {
    if (CombinedGraphQLErrors.is(error)) {
      const unauthenticated = error.errors.find((e) => e.extensions?.code === 'UNAUTHENTICATED');
      if (unauthenticated) onRefusedKey(unauthenticated.message);
    } else if (ServerError.is(error) && error.statusCode === 401) {
      onRefusedKey(reasonOf(error.bodyText));
    }
  });
  return new ApolloClient({
    link: ApolloLink.from([refused, auth, new HttpLink({ uri: '/graphql' })]),
    cache: new InMemoryCache(),
    defaultOptions: { watchQuery: { fetchPolicy: 'cache-and-network' } },
  });
}

function reasonOf(body: string): string {
  try {
    const parsed = JSON.parse(body) as { errors?: Array<{ message?: string }>; detail?: string };
    return parsed.errors?.[0]?.message ?? parsed.detail ?? 'The key was refused.';
  } catch {
    return 'The key was refused.';
  }
}
