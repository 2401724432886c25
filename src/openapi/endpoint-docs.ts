/** The OpenAPI operations of the endpoints without a docs module of their own (an Endpoint's `docs`, src/http/route-policy.ts). */
import type { OutsideOperation } from './types';

/** GraphQL answers follow GraphQL over HTTP (`{data, errors}`), not this document's error shape. */
const GRAPHQL_ANSWER = {
  description: '`{data, errors}` as GraphQL over HTTP says.',
  content: { 'application/json': { schema: { type: 'object' } }, 'application/graphql-response+json': { schema: { type: 'object' } } },
};

export const schemaDocs: OutsideOperation = {
  method: 'GET',
  path: '/api/schema',
  operation: {
    operationId: 'schema_retrieve',
    tags: ['schema'],
    summary: 'schema: this document',
    description: 'This OpenAPI 3.1 document. No key needed.',
    security: [],
    parameters: [
      {
        name: 'format',
        in: 'query',
        required: false,
        schema: { type: 'string', enum: ['json', 'yaml'] },
        description: 'Default `json`.',
      },
    ],
    responses: {
      200: {
        description: 'The document.',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              description: 'An OpenAPI 3.1 document (https://spec.openapis.org/oas/v3.1.0).',
              properties: {
                openapi: { const: '3.1.0' },
                info: { type: 'object', required: ['title', 'version'] },
                paths: { type: 'object' },
                components: { type: 'object' },
              },
              required: ['openapi', 'info', 'paths', 'components'],
            },
          },
          'application/yaml': { schema: { type: 'string' } },
        },
      },
    },
  },
};

export const healthDocs: OutsideOperation = {
  method: 'GET',
  path: '/_health',
  operation: {
    operationId: 'health_retrieve',
    tags: ['operations'],
    summary: 'health: liveness',
    description: 'Answers once the database answers `select 1`. No key needed.',
    security: [],
    responses: {
      200: {
        description: 'Up.',
        content: { 'application/json': { schema: { type: 'object', properties: { status: { const: 'ok' } }, required: ['status'] } } },
      },
      500: { $ref: '#/components/responses/ServerError' },
      503: { $ref: '#/components/responses/ServiceUnavailable' },
    },
  },
};

export const livezDocs: OutsideOperation = {
  method: 'GET',
  path: '/_livez',
  operation: {
    operationId: 'livez_retrieve',
    tags: ['operations'],
    summary: 'livez: liveness',
    description: 'Answers while the process answers HTTP at all; touches nothing else. No key needed.',
    security: [],
    responses: {
      200: {
        description: 'Alive.',
        content: { 'application/json': { schema: { type: 'object', properties: { status: { const: 'alive' } }, required: ['status'] } } },
      },
    },
  },
};

export const readyzDocs: OutsideOperation = {
  method: 'GET',
  path: '/_readyz',
  operation: {
    operationId: 'readyz_retrieve',
    tags: ['operations'],
    summary: 'readyz: readiness',
    description: 'Ready while the database answers through the service’s pool; 503 while it does not. No key needed.',
    security: [],
    responses: {
      200: {
        description: 'Ready.',
        content: { 'application/json': { schema: { type: 'object', properties: { status: { const: 'ready' } }, required: ['status'] } } },
      },
      503: {
        description: 'Not ready: the database does not answer.',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: { status: { const: 'unavailable' }, database: { type: 'string' } },
              required: ['status'],
            },
          },
        },
      },
    },
  },
};

export const metricsDocs: OutsideOperation = {
  method: 'GET',
  path: '/metrics',
  operation: {
    operationId: 'metrics_retrieve',
    tags: ['operations'],
    summary: 'metrics: Prometheus',
    description: 'Prometheus text format. With METRICS_TOKEN set, send it as a bearer token; without it only this host may scrape.',
    security: [{ MetricsToken: [] }, {}],
    responses: {
      200: { description: 'The metrics.', content: { 'text/plain': { schema: { type: 'string' } } } },
      401: { $ref: '#/components/responses/Unauthorized' },
      403: { $ref: '#/components/responses/Forbidden' },
    },
  },
};

export const graphqlPostDocs: OutsideOperation = {
  method: 'POST',
  path: '/graphql',
  operation: {
    operationId: 'graphql_create',
    tags: ['graphql'],
    summary: 'graphql: run a document',
    description:
      'The GraphQL API over the same model (schema/schema.graphql). Answers follow GraphQL over HTTP, so they are not ' +
      'described here; send the personal API key as `Authorization: Bearer phx_…`.',
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: {
              query: { type: 'string' },
              variables: { type: ['object', 'null'] },
              operationName: { type: ['string', 'null'] },
            },
            required: ['query'],
          },
        },
      },
    },
    responses: { default: GRAPHQL_ANSWER },
  },
};

export const graphqlGetDocs: OutsideOperation = {
  method: 'GET',
  path: '/graphql',
  operation: {
    operationId: 'graphql_retrieve',
    tags: ['graphql'],
    summary: 'graphql: run a query, or open the IDE',
    description:
      'A browser (preferring `text/html`) gets GraphiQL, served from the service’s own files (docs/graphql.md); any other ' +
      'request is a GraphQL query in the query string (`query`, `variables`, `operationName`). Mutations need POST.',
    parameters: [
      { name: 'query', in: 'query', required: false, schema: { type: 'string' } },
      { name: 'variables', in: 'query', required: false, schema: { type: 'string' }, description: 'A JSON object.' },
      { name: 'operationName', in: 'query', required: false, schema: { type: 'string' } },
    ],
    responses: { default: { ...GRAPHQL_ANSWER, content: { ...GRAPHQL_ANSWER.content, 'text/html': { schema: { type: 'string' } } } } },
  },
};
