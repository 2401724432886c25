import { ApolloServer, HeaderMap } from '@apollo/server';
import type { Middleware } from 'koa';
import type { AppContext } from '../context';

/**
 * Apollo on Koa in a few lines over `executeHTTPGraphQLRequest` (the official integration is
 * ESM-only). The body parser has already run; the context comes from the one factory.
 */
export function apolloMiddleware(server: ApolloServer<AppContext>, makeContext: (ctx: Parameters<Middleware>[0]) => AppContext): Middleware {
  return async (ctx) => {
    const headers = new HeaderMap();
    for (const [name, value] of Object.entries(ctx.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const response = await server.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: ctx.method.toUpperCase(), headers, search: ctx.querystring, body: ctx.request.body },
      context: async () => makeContext(ctx),
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
