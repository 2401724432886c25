import { ApolloServer, HeaderMap } from '@apollo/server';
import type { Middleware } from 'koa';
import type { AppContext } from '../context';
import { checkQueryText } from './limits';

/** The query text of a GET (`?query=`) or POST (JSON body `query`) request, whatever its type. */
function queryText(ctx: Parameters<Middleware>[0]): unknown {
  if (ctx.method === 'GET') return new URLSearchParams(ctx.querystring).get('query');
  const body = ctx.request.body as { query?: unknown } | undefined;
  return body && typeof body === 'object' ? body.query : undefined;
}

/**
 * Apollo on Koa in a few lines over `executeHTTPGraphQLRequest` (the official integration is
 * ESM-only). The body parser has already run; the context comes from the one factory.
 */
export function apolloMiddleware(
  server: ApolloServer<AppContext>,
  makeContext: (ctx: Parameters<Middleware>[0]) => AppContext,
): Middleware {
  return async (ctx) => {
    const headers = new HeaderMap();
    for (const [name, value] of Object.entries(ctx.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    // A document too big to parse safely, or costly to validate, is refused before Apollo reads it
    // (src/graphql/limits.ts). Thrown from the context callback, which Apollo calls before reading the
    // operation, the refusal is answered as Apollo answers any error: the negotiated content type,
    // formatError, and the error's own status (400).
    const refused = checkQueryText(queryText(ctx));
    const response = await server.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: ctx.method.toUpperCase(), headers, search: ctx.querystring, body: ctx.request.body },
      context: async () => {
        if (refused) throw refused;
        return makeContext(ctx);
      },
    });
    for (const [name, value] of response.headers) ctx.set(name, value);
    ctx.status = response.status ?? 200;
    if (response.body.kind === 'complete') {
      ctx.body = response.body.string;
      return;
    }
    let body = '';
    for await (const chunk of response.body.asyncIterator) body += chunk;
    ctx.body = body;
  };
}
