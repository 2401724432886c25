import {
  getNamedType,
  getNullableType,
  isInputObjectType,
  isListType,
  isObjectType,
  Kind,
  type DocumentNode,
  type FieldNode,
  type GraphQLField,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { Route } from '../rest/route';
import { ERROR_SCHEMA, errorResponseComponents, errorResponseRef } from './error-responses';
import { ComponentRegistry, inputComponent, queryParameterSchema, ref, rootField, SelectionReader, snakeCase } from './graphql-schemas';
import type { JsonSchema, OutsideOperation, RouteDocs, SecurityRequirement } from './types';

/**
 * The OpenAPI 3.1 document, generated (never written by hand): every route-table row (method, path,
 * auth, and the GraphQL operation it runs or the input type it reads) plus the endpoint rows' own
 * descriptions (src/openapi/endpoint-docs.ts). `npm run openapi:emit` writes it to schema/openapi.json;
 * `GET /api/schema/` serves it.
 */

export interface OpenApiSources {
  schema: GraphQLSchema;
  routes: Route[];
  outside: OutsideOperation[];
  version: string;
}

type Operation = Record<string, unknown>;

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Open on purpose: a handler row that has not described its body yet. */
const UNDESCRIBED: JsonSchema = { description: 'Not described yet: any JSON value.' };

const PATH_PARAMETERS: Record<string, string> = {
  project_id: 'The project id, or `@current` for the key owner’s current project.',
  organization_id: 'The organization id (a UUID), or `@current`.',
  parent_lookup_feature_flag_id: 'The feature flag id.',
  role_id: 'The role id (a UUID).',
};

export const openApiPath = (path: string) => path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
const pathParameterNames = (path: string) => [...path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]);

const operationOf = (document: DocumentNode) =>
  document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;

/** PostHog's (drf-spectacular's) names: `feature_flags_list`, `feature_flags_partial_update`, `feature_flags_my_flags_retrieve`. */
function operationIdOf(route: Route): string {
  const segments = route.path.split('/').filter(Boolean);
  const literals = segments.filter(
    (s, i) =>
      !s.startsWith(':') && !(i === 0 && s === 'api') && !(['projects', 'organizations'].includes(s) && segments[i + 1]?.startsWith(':')),
  );
  const endsWithParameter = segments[segments.length - 1]?.startsWith(':');
  const action =
    route.method === 'GET'
      ? endsWithParameter || !('shape' in route) || route.shape !== 'page'
        ? 'retrieve'
        : 'list'
      : { POST: 'create', PATCH: 'partial_update', PUT: 'update', DELETE: 'destroy' }[route.method];
  return [...literals, action].join('_').replace(/[^A-Za-z0-9_]/g, '_');
}

const tagOf = (path: string) =>
  path
    .split('/')
    .filter(
      (s, i, all) => s && !s.startsWith(':') && s !== 'api' && !(['projects', 'organizations'].includes(s) && all[i + 1]?.startsWith(':')),
    )[0] ?? 'other';

const humanise = (operationId: string) => {
  const words = operationId.split('_');
  return `${words[words.length - 1] === 'update' && words[words.length - 2] === 'partial' ? 'partial update' : words[words.length - 1]}: ${words
    .slice(0, words[words.length - 2] === 'partial' ? -2 : -1)
    .join(' ')}`;
};

/** A GraphQL variable bound to a path parameter: the same name in snake_case, or its tail (`flagId` ↔ `parent_lookup_feature_flag_id`). */
function pathBinding(variables: string[], parameters: string[]): Set<string> {
  const bound = new Set<string>();
  const free = new Set(parameters);
  for (const variable of variables) {
    if (free.delete(snakeCase(variable))) bound.add(variable);
  }
  for (const variable of variables) {
    if (bound.has(variable)) continue;
    const tail = [...free].find((parameter) => parameter.endsWith(`_${snakeCase(variable)}`));
    if (tail) {
      free.delete(tail);
      bound.add(variable);
    }
  }
  return bound;
}

const jsonContent = (schema: JsonSchema) => ({ 'application/json': { schema } });

export function buildOpenApiDocument({ schema, routes, outside, version }: OpenApiSources): Record<string, unknown> {
  const components = new ComponentRegistry();
  components.define('Error', ERROR_SCHEMA);
  const paths: Record<string, Record<string, Operation>> = {};
  const operationIds = new Set<string>();
  const uniqueId = (id: string) => {
    let unique = id;
    for (let n = 2; operationIds.has(unique); n += 1) unique = `${id}_${n}`;
    operationIds.add(unique);
    return unique;
  };
  const queryRoot = schema.getQueryType()!;

  /** The success body of a row's GraphQL operation: `item`, or `page` inside the list envelope. */
  function successSchema(
    document: DocumentNode,
    shape: 'page' | 'one',
  ): { schema: JsonSchema; field: GraphQLField<unknown, unknown> | null } {
    const operation = operationOf(document);
    const root = rootField(operation, shape === 'page' ? 'page' : 'item');
    const field = root ? (schema.getRootType(operation.operation)?.getFields()[root.name.value] ?? null) : null;
    if (!root || !field) return { schema: UNDESCRIBED, field: null };
    const reader = new SelectionReader(schema, components, document);
    if (shape === 'one') return { schema: reader.fieldValue(field.type, root.selectionSet), field };
    const pageType = getNamedType(field.type);
    const resultsNode = root.selectionSet?.selections.find(
      (s): s is FieldNode => s.kind === Kind.FIELD && (s.alias?.value ?? s.name.value) === 'results',
    );
    const results = isObjectType(pageType) ? pageType.getFields().results : undefined;
    if (!resultsNode || !results) return { schema: UNDESCRIBED, field };
    const list = getNullableType(results.type);
    const item = reader.fieldValue(isListType(list) ? list.ofType : list, resultsNode.selectionSet);
    return { schema: pageEnvelope(components, item), field };
  }

  function parametersOf(route: Route, docs: RouteDocs): { parameters: Operation[]; mayRefuse: boolean } {
    const names = pathParameterNames(route.path);
    const parameters: Operation[] = names.map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string' },
      ...(PATH_PARAMETERS[name] ? { description: PATH_PARAMETERS[name] } : {}),
    }));
    // Per query parameter: whether a bad value can be refused with a 400.
    const refuses = new Map<string, boolean>();
    const query = new Map<string, Operation>();
    if (route.kind === 'query') {
      const operation = operationOf(route.operation.document);
      const definitions = operation.variableDefinitions ?? [];
      const bound = pathBinding(
        definitions.map((d) => d.variable.name.value),
        names,
      );
      const root = operation.selectionSet.selections.find((s): s is FieldNode => s.kind === Kind.FIELD);
      const rootDefinition = root ? queryRoot.getFields()[root.name.value] : undefined;
      for (const definition of definitions) {
        const variable = definition.variable.name.value;
        if (bound.has(variable) || (variable === 'input' && route.inputType)) continue;
        const { schema: value, required, jsonObject } = queryParameterSchema(schema, definition);
        const argument = root?.arguments?.find((a) => a.value.kind === Kind.VARIABLE && a.value.name.value === variable);
        const described = rootDefinition?.args.find((a) => a.name === argument?.name.value)?.description;
        const description = [described, value.description].filter(Boolean).join(' ');
        delete value.description;
        // A required parameter, or a JSON object, can be refused with a 400; the others are lenient (ignored when malformed).
        refuses.set(snakeCase(variable), required || jsonObject);
        query.set(snakeCase(variable), {
          name: snakeCase(variable),
          in: 'query',
          required,
          schema: value,
          ...(description ? { description } : {}),
        });
      }
    }
    for (const [name, given] of Object.entries(docs.query ?? {})) {
      refuses.delete(name);
      if (given === null) {
        query.delete(name);
        continue;
      }
      query.set(name, {
        name,
        in: 'query',
        required: given.required ?? false,
        schema: given.schema,
        ...(given.description ? { description: given.description } : {}),
      });
      refuses.set(name, given.required ?? false);
    }
    return { parameters: [...parameters, ...query.values()], mayRefuse: [...refuses.values()].some(Boolean) };
  }

  function routeOperation(route: Route): Operation | null {
    if (route.kind === 'not_allowed') return null;
    const docs: RouteDocs = { ...(route.kind === 'query' ? route.operation.docs : undefined), ...route.docs };
    for (const [name, named] of Object.entries(docs.schemas ?? {})) components.define(name, named);
    const security: SecurityRequirement[] = route.auth.security ?? [{ PersonalApiKey: [] }];
    const isPublic = security.length === 0;
    const operationId = uniqueId(operationIdOf(route));
    const { parameters, mayRefuse } = parametersOf(route, docs);
    const responses: Record<string, unknown> = {};
    const descriptions: string[] = [];
    let errors = new Set<number>([429, 500, 503]);
    if (!isPublic) [401, 403].forEach((s) => errors.add(s));
    if (pathParameterNames(route.path).length || security.some((r) => 'ProjectSecretToken' in r)) errors.add(404);
    if (BODY_METHODS.has(route.method)) [400, 413, 415].forEach((s) => errors.add(s));
    if (mayRefuse) errors.add(400);

    let requestBody: JsonSchema | undefined = docs.body;
    const inputType = 'inputType' in route ? route.inputType : undefined;
    if (!requestBody && inputType) {
      requestBody = inputComponent(schema, components, inputType);
      const input = schema.getType(inputType);
      // A write that checks the version the client read (optimistic locking) can answer 409.
      if (isInputObjectType(input) && input.getFields().version) errors.add(409);
    }

    switch (route.kind) {
      case 'query': {
        const { schema: body, field } = successSchema(route.operation.document, route.shape);
        if (field?.description) descriptions.push(field.description);
        const described = docs.response !== undefined ? docs.response : route.present ? UNDESCRIBED : body;
        responses[route.status] = { description: 'OK', ...(described ? { content: jsonContent(described) } : {}) };
        break;
      }
      case 'mutation': {
        const described =
          docs.response !== undefined ? docs.response : route.shape === 'one' ? successSchema(route.render.document, 'one').schema : null;
        responses[route.status] = {
          description: route.status === 201 ? 'Created' : route.status === 204 ? 'No content' : 'OK',
          ...(described ? { content: jsonContent(described) } : {}),
        };
        break;
      }
      case 'handler': {
        const described = docs.response !== undefined ? docs.response : UNDESCRIBED;
        responses[docs.status ?? 200] = { description: 'OK', ...(described ? { content: jsonContent(described) } : {}) };
        break;
      }
      case 'refused':
        descriptions.push(
          'Hard delete is not allowed: after the auth checks this answers 405 with no body. Soft-delete with PATCH `{"deleted": true}`.',
        );
        responses[405] = { description: 'Refused, with no body and no Allow header.' };
        break;
    }
    for (const [status, given] of Object.entries(docs.responses ?? {})) {
      responses[status] = {
        description: given.description,
        ...(given.headers ? { headers: given.headers } : {}),
        ...(given.schema === null ? {} : { content: jsonContent(given.schema ?? ref('Error')) }),
      };
      errors.delete(Number(status));
    }
    (docs.errors ?? []).forEach((status) => errors.add(status));
    errors = new Set([...errors].filter((status) => !(String(status) in responses)));
    for (const status of [...errors].sort((a, b) => a - b)) responses[status] = errorResponseRef(status);

    // The GraphQL field's "(needs `scope`)" is said by the Auth line, in REST's terms.
    const withoutScope = (text: string) => text.replace(/ \(needs `[^`]+`\)(?=\.?$)/, '');
    const description = [docs.description, ...descriptions.map(withoutScope), `Auth: ${route.auth.describe}.`].filter(Boolean).join('\n\n');
    return {
      operationId,
      tags: [tagOf(route.path)],
      summary: docs.summary ?? humanise(operationId),
      description,
      security,
      ...(parameters.length ? { parameters } : {}),
      ...(requestBody
        ? {
            requestBody: {
              required: route.method !== 'DELETE',
              description: 'JSON (or a form, whose object and list fields are JSON text). Unknown fields are ignored.',
              content: jsonContent(requestBody),
            },
          }
        : {}),
      responses: sortResponses(responses),
    };
  }

  for (const route of routes) {
    const operation = routeOperation(route);
    if (!operation) continue;
    (paths[openApiPath(route.path)] ??= {})[route.method.toLowerCase()] = operation;
  }
  for (const { method, path, operation, schemas } of outside) {
    operationIds.add(String(operation.operationId));
    for (const [name, named] of Object.entries(schemas ?? {})) components.define(name, named);
    (paths[openApiPath(path)] ??= {})[method.toLowerCase()] = operation;
  }

  const tags = [...new Set(Object.values(paths).flatMap((ops) => Object.values(ops).flatMap((op) => (op.tags as string[]) ?? [])))];
  return {
    openapi: '3.1.0',
    info: {
      title: 'Flagship REST API',
      version,
      description:
        'Feature flags and experiments, compatible with PostHog’s flag and experiment API. Generated from the route table and ' +
        'the GraphQL types (`npm run openapi:emit`); see docs/openapi.md. Errors answer `{type, code, detail, attr}`; lists answer ' +
        '`{count, next, previous, results}`.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    tags: tags.map((name) => ({ name })),
    security: [{ PersonalApiKey: [] }],
    paths,
    components: {
      schemas: Object.fromEntries([...components.schemas].sort(([a], [b]) => a.localeCompare(b))),
      responses: errorResponseComponents(),
      securitySchemes: {
        PersonalApiKey: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'phx_…',
          description:
            'A personal API key (`phx_…`) as `Authorization: Bearer phx_…` (also read from a `personal_api_key` body field or query ' +
            'parameter, in that order). The operation lists the scope it needs, e.g. `feature_flag:read`; a key with `*` has all.',
        },
        ProjectPublicToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'phc_…',
          description: "The project's public API token (`phc_…`), accepted as a Bearer value on the OFREP paths (docs/openfeature.md).",
        },
        ProjectSecretToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'phs_…',
          description: "The project's secret API token (`phs_…`), accepted on the local-evaluation paths only, for its own project.",
        },
        MetricsToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'The METRICS_TOKEN the operator configured, for `GET /metrics` only.',
        },
      },
    },
  };
}

/** The list envelope around one kind of item; a named item gets a named page (`PaginatedFeatureFlagList`). */
function pageEnvelope(components: ComponentRegistry, item: JsonSchema): JsonSchema {
  const pageUrl = (which: string) => ({
    type: ['string', 'null'],
    format: 'uri',
    description: `The ${which} page's absolute URL; null when there is none.`,
  });
  const envelope: JsonSchema = {
    type: 'object',
    properties: {
      count: { type: 'integer', description: 'How many objects match, over all pages.' },
      next: pageUrl('next'),
      previous: pageUrl('previous'),
      results: { type: 'array', items: item },
    },
    required: ['count', 'next', 'previous', 'results'],
    additionalProperties: false,
  };
  const named = typeof item.$ref === 'string' ? item.$ref.split('/').pop() : null;
  return named ? components.define(`Paginated${named}List`, envelope) : envelope;
}

function sortResponses(responses: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
}
