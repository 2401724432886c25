import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { GraphQLSchema } from 'graphql';
import type { Middleware } from 'koa';
import type { Route } from '../rest/route';
import { buildOpenApiDocument } from './document';
import { PLAIN, publicAccess, type Endpoint } from '../http/route-policy';
import { schemaDocs } from './endpoint-docs';

/** The package's version: the document's `info.version`. */
export function packageVersion(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (manifest.name === 'flagship' && manifest.version) return manifest.version;
    } catch {
      // not here: one level up
    }
    if (path.dirname(dir) === dir) return '0.0.0';
  }
}

/** The document for this build (the one committed as schema/openapi.json, which a test keeps equal). */
export const openApiDocument = (schema: GraphQLSchema, routes: Route[], endpoints: Endpoint[]) =>
  buildOpenApiDocument({ schema, routes, outside: endpoints.flatMap((endpoint) => endpoint.docs ?? []), version: packageVersion() });

/**
 * `GET /api/schema/`: the OpenAPI document as JSON, or YAML with `?format=yaml`. Public, like
 * PostHog's own `/api/schema/`; built once, on the first request.
 */
function serveOpenApi(schema: GraphQLSchema, routes: Route[], endpoints: Endpoint[]): Middleware {
  let json: string | null = null;
  let yaml: string | null = null;
  return async (ctx) => {
    const document = () => openApiDocument(schema, routes, endpoints);
    const format = ctx.query.format;
    if (format === 'yaml' || format === 'yml') {
      // Loaded on the first YAML request: most deployments never ask for it.
      const { stringify } = await import('yaml');
      yaml ??= stringify(document(), { aliasDuplicateObjects: false });
      ctx.type = 'application/yaml';
      ctx.body = yaml;
    } else {
      json ??= JSON.stringify(document());
      ctx.type = 'application/json';
      ctx.body = json;
    }
  };
}

export const schemaEndpoints: Endpoint[] = [
  {
    path: '/api/schema',
    methods: ['GET'],
    auth: publicAccess,
    policy: PLAIN,
    create: ({ schema, routes, endpoints }) => serveOpenApi(schema, routes, endpoints),
    docs: [schemaDocs],
  },
];
