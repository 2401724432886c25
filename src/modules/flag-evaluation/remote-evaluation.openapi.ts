import type { JsonSchema, OutsideOperation } from '../../openapi/types';

/**
 * `/flags`, `/decide` and `/array/:token/config[.js]` in the OpenAPI document (served by
 * remote-evaluation.handler.ts, outside the route table). The shapes are those of
 * remote-evaluation.shapes.ts (`detailedShapeBytes`, `legacyShape`, `clientConfig`) and the request is
 * what remote-evaluation.request.ts reads (docs/remote-evaluation.md).
 */

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
/** The usual error body (`Error`), narrowed to the types this status carries. */
const errorResponse = (description: string, types: string[]) => ({
  description,
  content: { 'application/json': { schema: { allOf: [ref('Error'), { properties: { type: { enum: types } } }] } } },
});
const payload: JsonSchema = {
  description: 'The stored payload for the value the subject got, exactly as stored (usually JSON text).',
};

/** `clientConfig()`: every optional browser-SDK product off. */
const CONFIG_PROPERTIES: Record<string, JsonSchema> = {
  supportedCompression: { type: 'array', items: { type: 'string', enum: ['gzip', 'gzip-js'] } },
  sessionRecording: { type: 'boolean' },
  surveys: { type: 'boolean' },
  heatmaps: { type: 'boolean' },
  autocapture_opt_out: { type: 'boolean' },
  capturePerformance: { type: 'boolean' },
  siteApps: { type: 'array', maxItems: 0, description: 'Always empty: no site apps are served.' },
  toolbarParams: { type: 'object', additionalProperties: false, description: 'Always empty.' },
  isAuthenticated: { type: 'boolean' },
  config: {
    type: 'object',
    properties: { enable_collect_everything: { type: 'boolean' } },
    required: ['enable_collect_everything'],
    additionalProperties: false,
  },
  defaultIdentifiedOnly: { type: 'boolean' },
  autocaptureExceptions: { type: 'boolean' },
  captureDeadClicks: { type: 'boolean' },
  productTours: { type: 'boolean' },
  hasFeatureFlags: { type: 'boolean' },
};

const ERRORS_WHILE_COMPUTING = {
  type: 'boolean',
  description:
    'True when at least one flag could not be evaluated (its evaluation failed, or it needed a stored person or group that could not be read): such flags are left out, the others are answered.',
};

/** An evaluation answer: its own fields, plus the client config's (optional: only with `?config=true`). */
const answer = (description: string, properties: Record<string, JsonSchema>): JsonSchema => ({
  type: 'object',
  description: `${description} With \`?config=true\` the client configuration's fields are added.`,
  properties: { ...properties, ...CONFIG_PROPERTIES },
  required: Object.keys(properties),
  additionalProperties: false,
});

const DETAILED_FLAG: JsonSchema = {
  type: 'object',
  properties: {
    key: { type: 'string' },
    enabled: { type: 'boolean' },
    variant: { type: ['string', 'null'], description: 'The variant key; null for a boolean flag or when off.' },
    reason: {
      type: 'object',
      properties: {
        code: {
          type: 'string',
          enum: ['condition_match', 'super_condition_value', 'no_condition_match', 'out_of_rollout_bound', 'no_group_type'],
        },
        condition_index: { type: ['integer', 'null'], description: 'The 0-based condition set that decided, as in `evaluation_reasons`.' },
        description: { type: 'string', description: '"Matched condition set N", "No matching condition set", …' },
      },
      required: ['code', 'condition_index', 'description'],
      additionalProperties: false,
    },
    metadata: {
      type: 'object',
      properties: {
        id: { type: 'integer' },
        version: { type: 'integer' },
        payload: { ...payload, description: `${payload.description as string} Null when the flag is off or has none.` },
        description: { type: ['string', 'null'], description: "The flag's name; null when it has none." },
      },
      required: ['id', 'version', 'payload', 'description'],
      additionalProperties: false,
    },
  },
  required: ['key', 'enabled', 'variant', 'reason', 'metadata'],
  additionalProperties: false,
};

const SCHEMAS: Record<string, JsonSchema> = {
  RemoteEvaluationRequest: {
    type: 'object',
    description: 'One subject to evaluate every active flag for. Other fields are ignored.',
    properties: {
      token: { type: 'string', description: "The project's public token (`phc_…`); else `api_key`, else `?token=`." },
      api_key: { type: 'string' },
      distinct_id: { type: ['string', 'number'], description: 'Required; a number is used as its text.' },
      groups: {
        type: ['object', 'null'],
        additionalProperties: { type: ['string', 'number'] },
        description: 'Group type name → group key; unknown group types are ignored.',
      },
      person_properties: { type: 'object', description: "Laid over the stored person's properties, key by key." },
      group_properties: {
        type: 'object',
        additionalProperties: { type: 'object' },
        description: 'Group type name → properties laid over those of the group `groups` names.',
      },
      flag_keys: { type: 'array', items: { type: 'string' }, description: 'Evaluate only these keys.' },
      flag_keys_to_evaluate: { type: 'array', items: { type: 'string' }, description: 'The same as `flag_keys`.' },
      disable_flags: { type: 'boolean', description: '`true`: answer no flags at all.' },
    },
    required: ['distinct_id'],
  },
  RemoteEvaluationDetailed: answer('The detailed answer (`/flags?v=2`, `/decide?v=4`).', {
    flags: { type: 'object', additionalProperties: DETAILED_FLAG, description: 'Flag key → its value, reason and metadata.' },
    errorsWhileComputingFlags: ERRORS_WHILE_COMPUTING,
    requestId: { type: 'string', description: 'A new UUID for every request, also sent as `X-Request-Id`.' },
  }),
  RemoteEvaluationLegacy: answer('The legacy answer (`/flags`, `/flags?v=1`, `/decide`, `/decide?v=3`).', {
    featureFlags: {
      type: 'object',
      additionalProperties: { type: ['boolean', 'string'] },
      description: 'Flag key → false, true or a variant key.',
    },
    featureFlagPayloads: {
      type: 'object',
      additionalProperties: payload,
      description: 'Flag key → its payload, only for flags that are on and have one for their value.',
    },
    errorsWhileComputingFlags: ERRORS_WHILE_COMPUTING,
  }),
  RemoteConfig: {
    type: 'object',
    description: "The browser SDK's start-up configuration: every optional product off.",
    properties: { token: { type: 'string' }, ...CONFIG_PROPERTIES },
    required: ['token', ...Object.keys(CONFIG_PROPERTIES)],
    additionalProperties: false,
  },
};

const COMPRESSION = {
  name: 'compression',
  in: 'query',
  required: false,
  schema: { type: 'string', enum: ['gzip', 'gzip-js', 'base64'] },
  description: 'How the body (or `data`) is encoded; another value is a 400.',
};

const evaluation = (method: 'GET' | 'POST', path: '/flags' | '/decide'): OutsideOperation => ({
  method,
  path,
  schemas: SCHEMAS,
  operation: {
    operationId: `${path.slice(1)}_${method === 'GET' ? 'retrieve' : 'create'}`,
    tags: ['remote evaluation'],
    summary: `${path.slice(1)}: evaluate flags for one subject`,
    description:
      'Remote evaluation for browsers and key-less SDKs (docs/remote-evaluation.md): every active, non-deleted flag for one ' +
      `subject. \`?v=\` picks the answer: ${path === '/flags' ? '2 or more' : '4 or more'} the detailed shape, below (or without ` +
      '`v`) the legacy one. No personal key: the project’s public token travels in the request. Answers CORS for any origin.',
    security: [],
    parameters: [
      {
        name: 'v',
        in: 'query',
        required: false,
        schema: { type: 'string' },
        description: `The answer’s version: ${path === '/flags' ? '`2`' : '`4`'} and above detailed, else legacy.`,
      },
      {
        name: 'config',
        in: 'query',
        required: false,
        schema: { type: 'string', enum: ['true'] },
        description: 'Add the client configuration’s fields to the answer.',
      },
      {
        name: 'token',
        in: 'query',
        required: false,
        schema: { type: 'string' },
        description: 'The project token, when the body has none.',
      },
      ...(method === 'GET'
        ? [
            {
              name: 'data',
              in: 'query',
              required: false,
              schema: { type: 'string' },
              description: 'The request (`RemoteEvaluationRequest`) as JSON or base64 text.',
            },
          ]
        : []),
      COMPRESSION,
    ],
    ...(method === 'POST'
      ? {
          requestBody: {
            required: true,
            description:
              'Read as capture reads its body: JSON, `Content-Encoding: gzip`, `?compression=gzip-js|base64`, or a form whose ' +
              '`data` field is base64 or JSON text. An empty body or `null` is `{}`.',
            content: {
              'application/json': { schema: ref('RemoteEvaluationRequest') },
              'text/plain': { schema: { type: 'string' } },
              'application/x-www-form-urlencoded': {
                schema: { type: 'object', properties: { data: { type: 'string' }, compression: { type: 'string' } }, required: ['data'] },
              },
            },
          },
        }
      : {}),
    responses: {
      200: {
        description: 'The flags’ values for the subject, in the shape `v` picks.',
        content: {
          'application/json': { schema: { oneOf: [ref('RemoteEvaluationDetailed'), ref('RemoteEvaluationLegacy')] } },
        },
      },
      400: errorResponse(
        'A body that cannot be decoded or is not a JSON object (`invalid_payload`), no usable `distinct_id`, or `groups` not an object.',
        ['validation_error'],
      ),
      401: errorResponse('No project token, or an unknown one (`invalid_api_key`); no `WWW-Authenticate` header.', [
        'authentication_error',
      ]),
      405: { $ref: '#/components/responses/MethodNotAllowed' },
      413: errorResponse('The body exceeds 20 MB after decompression.', ['invalid_request']),
      500: { $ref: '#/components/responses/ServerError' },
      503: { $ref: '#/components/responses/ServiceUnavailable' },
    },
  },
});

const TOKEN = { name: 'token', in: 'path', required: true, schema: { type: 'string' }, description: 'The project’s public token.' };

export const remoteEvaluationOperations: OutsideOperation[] = [
  evaluation('GET', '/flags'),
  evaluation('POST', '/flags'),
  evaluation('GET', '/decide'),
  evaluation('POST', '/decide'),
  {
    method: 'GET',
    path: '/array/:token/config',
    schemas: SCHEMAS,
    operation: {
      operationId: 'array_config_retrieve',
      tags: ['remote evaluation'],
      summary: 'config: the browser SDK’s configuration',
      description: 'posthog-js’s remote config for a project token (docs/remote-evaluation.md). No key needed.',
      security: [],
      parameters: [TOKEN],
      responses: {
        200: { description: 'The configuration.', content: { 'application/json': { schema: ref('RemoteConfig') } } },
        404: { $ref: '#/components/responses/NotFound' },
        405: { $ref: '#/components/responses/MethodNotAllowed' },
        500: { $ref: '#/components/responses/ServerError' },
        503: { $ref: '#/components/responses/ServiceUnavailable' },
      },
    },
  },
  {
    method: 'GET',
    path: '/array/:token/config.js',
    operation: {
      operationId: 'array_config_js_retrieve',
      tags: ['remote evaluation'],
      summary: 'config.js: the browser SDK’s configuration as a script',
      description:
        'A script that stores `{"config": <RemoteConfig>, "siteApps": []}` in `window._POSTHOG_REMOTE_CONFIG["<token>"]`, where ' +
        'posthog-js’s full bundle looks for it. No key needed.',
      security: [],
      parameters: [TOKEN],
      responses: {
        200: { description: 'The script.', content: { 'application/javascript': { schema: { type: 'string' } } } },
        404: { $ref: '#/components/responses/NotFound' },
        405: { $ref: '#/components/responses/MethodNotAllowed' },
        500: { $ref: '#/components/responses/ServerError' },
        503: { $ref: '#/components/responses/ServiceUnavailable' },
      },
    },
  },
];
