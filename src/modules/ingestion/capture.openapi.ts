import type { OutsideOperation } from '../../openapi/types';

/**
 * The capture paths in the OpenAPI document (they are served by capture.handler.ts, not the route
 * table). The body is the SDKs' protocol, described here rather than typed: one event, a list, or
 * `{batch: [...]}`, possibly gzip/base64-encoded, with the project's public token inside.
 */
const EVENT = {
  type: 'object',
  description: 'One event as an SDK sends it.',
  properties: {
    event: { type: 'string' },
    distinct_id: { type: 'string' },
    properties: { type: 'object' },
    timestamp: { type: 'string', description: 'ISO 8601; corrected by `sent_at` when both are given.' },
    uuid: { type: 'string' },
    api_key: { type: 'string', description: 'The project token, if not on the batch.' },
  },
};

const BODY = {
  description:
    "One event, a list of events, or `{api_key, batch: [...], sent_at}`. The project's public token (`api_key` or `token`) " +
    'may be on the batch, on its first event (also `properties.token`) or in the query string. Up to 20 MiB after ' +
    'decompression and 10,000 events. `Content-Encoding: gzip`, `?compression=gzip|gzip-js|base64` and form bodies ' +
    '(`data=` with base64 or JSON text) are accepted as the SDKs send them.',
  oneOf: [
    EVENT,
    { type: 'array', items: EVENT },
    {
      type: 'object',
      properties: {
        api_key: { type: 'string' },
        token: { type: 'string' },
        batch: { type: 'array', items: EVENT },
        sent_at: { type: 'string' },
      },
      required: ['batch'],
    },
  ],
};

const error = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

const capture = (path: string, operationId: string): OutsideOperation => ({
  method: 'POST',
  path,
  operation: {
    operationId,
    tags: ['capture'],
    summary: 'capture: events',
    description:
      'The SDK ingestion endpoint (posthog-node and posthog-python post to `/batch/`, posthog-js to `/e/`). No personal key and ' +
      'no rate limit: the project token in the payload names the project. Answers CORS for any origin.',
    security: [],
    parameters: [
      { name: 'compression', in: 'query', required: false, schema: { type: 'string', enum: ['gzip', 'gzip-js', 'base64'] } },
      {
        name: 'token',
        in: 'query',
        required: false,
        schema: { type: 'string' },
        description: 'The project token, when the body has none.',
      },
    ],
    requestBody: {
      required: true,
      content: {
        'application/json': { schema: BODY },
        'text/plain': { schema: { type: 'string' } },
        'application/x-www-form-urlencoded': {
          schema: { type: 'object', properties: { data: { type: 'string' }, compression: { type: 'string' } } },
        },
      },
    },
    responses: {
      200: {
        description: 'Stored.',
        content: {
          'application/json': {
            schema: { type: 'object', properties: { status: { const: 1 } }, required: ['status'], additionalProperties: false },
          },
        },
      },
      400: error('Malformed or invalid payload (`invalid_payload`), or no events (`no_data`).'),
      401: error('No project token (`missing_api_key`) or an unknown one (`invalid_api_key`).'),
      405: { $ref: '#/components/responses/MethodNotAllowed' },
      413: error('More than 20 MiB, more than 10,000 events, or an event over 1 MiB.'),
      500: { $ref: '#/components/responses/ServerError' },
      503: error('The database is unavailable or contended: retry later.'),
    },
  },
});

export const captureOperations: OutsideOperation[] = [
  capture('/batch', 'batch_create'),
  capture('/capture', 'capture_create'),
  capture('/e', 'e_create'),
  capture('/i/v0/e', 'i_v0_e_create'),
];
