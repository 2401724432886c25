import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { GraphQLSchema } from 'graphql';
import type { Middleware } from 'koa';
import { requestErrors } from '../errors';
import type { Route } from '../rest/route';
import { buildOpenApiDocument } from './document';
import { outsideOperations } from './outside-routes';

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
export const openApiDocument = (schema: GraphQLSchema, routes: Route[]) =>
  buildOpenApiDocument({ schema, routes, outside: outsideOperations, version: packageVersion() });

/**
 * `GET /api/schema/`: the OpenAPI document as JSON, or YAML with `?format=yaml`. Public, like
 * PostHog's own `/api/schema/`; built once, on the first request.
 */
export function serveOpenApi(schema: GraphQLSchema, routes: Route[]): Middleware {
  let json: string | null = null;
  let yaml: string | null = null;
  return async (ctx, next) => {
    if (ctx.path !== '/api/schema' && ctx.path !== '/api/schema/') return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') throw requestErrors.methodNotAllowed(ctx.method, ['GET', 'HEAD']);
    const document = () => openApiDocument(schema, routes);
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
