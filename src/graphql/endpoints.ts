import { PLAIN, publicAccess, type Endpoint, type RoutePolicy } from '../http/route-policy';
import { graphqlGetDocs, graphqlPostDocs } from '../openapi/endpoint-docs';
import type { RouteAuth } from '../rest/route';
import { GRAPHIQL_ASSETS, graphiqlAssets, graphiqlPage } from './graphiql';

/** Any personal API key: each field checks its own scope (docs/graphql.md). */
const anyPersonalKey: RouteAuth = { describe: 'personal API key (each field checks its scope)', check: async () => undefined };

/**
 * As the REST rows: the JSON body parser, the admin CORS, the per-key budget, computations stopped with
 * the request; a refusal before the handler is a GraphQL answer.
 */
const GRAPHQL: RoutePolicy = { body: 'json', cors: 'admin', limit: 'key', work: true, refusals: 'graphql' };

export const graphqlEndpoints: Endpoint[] = [
  {
    path: '/graphql',
    methods: ['GET', 'POST'],
    auth: anyPersonalKey,
    policy: GRAPHQL,
    // A browser's GET gets GraphiQL (src/graphql/graphiql.ts); everything else is Apollo's.
    create: ({ graphql }) =>
      async function graphqlOrPage(koa, next) {
        if (!graphiqlPage(koa)) await graphql(koa, next);
      },
    docs: [graphqlPostDocs, graphqlGetDocs],
  },
  { path: `${GRAPHIQL_ASSETS}:file`, methods: ['GET'], auth: publicAccess, policy: PLAIN, create: () => graphiqlAssets() },
];
