import type { JsonSchema, OutsideOperation } from '../../openapi/types';
import type { RouteAuth } from '../../rest/route';

/**
 * The OFREP paths in the OpenAPI document (served by ofrep.handler.ts): the request and answers of
 * OFREP's own document (open-feature/protocol, service/openapi.yaml), as this service fills them
 * (docs/openfeature.md).
 */

/** The public token as a Bearer value, or a personal key with `feature_flag:read` (docs/openfeature.md, "Authentication"). */
export const ofrepAuth: RouteAuth = {
  describe: "the project's public api_token (phc_…) as a Bearer value, or a personal API key with feature_flag:read",
  // The handler itself authenticates (it must choose between the two kinds of credential).
  check: async () => undefined,
  security: [{ ProjectPublicToken: [] }, { PersonalApiKey: ['feature_flag:read'] }],
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: JsonSchema) => ({ 'application/json': { schema } });

const ERROR_CODES = ['FLAG_NOT_FOUND', 'TARGETING_KEY_MISSING', 'INVALID_CONTEXT', 'PARSE_ERROR', 'GENERAL'];

const SCHEMAS: Record<string, JsonSchema> = {
  OfrepEvaluationRequest: {
    type: 'object',
    description: 'The evaluation context. Other fields are ignored.',
    properties: {
      context: {
        type: 'object',
        description:
          '`targetingKey` is the distinct id; `$groups` (group type → key) and `$group_properties` (group type → properties) ' +
          'name groups; every other attribute is a person property laid over the stored ones.',
        properties: {
          targetingKey: { type: ['string', 'number'] },
          $groups: { type: 'object', additionalProperties: { type: ['string', 'number'] } },
          $group_properties: { type: 'object', additionalProperties: { type: 'object' } },
        },
        required: ['targetingKey'],
      },
    },
    required: ['context'],
  },
  OfrepEvaluationSuccess: {
    type: 'object',
    properties: {
      key: { type: 'string' },
      value: {
        description:
          'The payload for the answered value when the flag has one (any JSON); else true/false, or the variant key of a multivariate flag.',
      },
      reason: { type: 'string', enum: ['TARGETING_MATCH', 'SPLIT', 'DISABLED', 'DEFAULT'] },
      variant: { type: 'string', description: 'The variant key (`"true"` for a boolean flag with a payload); absent when off.' },
      metadata: {
        type: 'object',
        properties: {
          flag_id: { type: 'integer' },
          version: { type: 'integer' },
          reason_code: {
            type: 'string',
            enum: ['condition_match', 'super_condition_value', 'no_condition_match', 'out_of_rollout_bound', 'no_group_type', 'disabled'],
            description: 'The reason as evaluation_reasons gives it.',
          },
          condition_index: { type: 'integer', description: 'The 0-based condition set that decided, when one did.' },
          description: { type: 'string', description: "The flag's name, when it has one." },
        },
        required: ['flag_id', 'version', 'reason_code'],
        additionalProperties: false,
      },
    },
    required: ['key', 'value', 'reason', 'metadata'],
    additionalProperties: false,
  },
  OfrepEvaluationFailure: {
    type: 'object',
    properties: {
      key: { type: 'string' },
      errorCode: { type: 'string', enum: ERROR_CODES },
      errorDetails: { type: 'string' },
    },
    required: ['errorCode', 'errorDetails'],
    additionalProperties: false,
  },
  OfrepBulkEvaluationSuccess: {
    type: 'object',
    properties: {
      flags: {
        type: 'array',
        items: { oneOf: [ref('OfrepEvaluationSuccess'), ref('OfrepEvaluationFailure')] },
        description: 'Every non-deleted flag, by id; a flag that could not be evaluated is a failure with `GENERAL`.',
      },
    },
    required: ['flags'],
    additionalProperties: false,
  },
};

const failure = (description: string) => ({ description, content: json(ref('OfrepEvaluationFailure')) });

const COMMON_RESPONSES = {
  401: { $ref: '#/components/responses/Unauthorized' },
  403: { $ref: '#/components/responses/Forbidden' },
  405: { $ref: '#/components/responses/MethodNotAllowed' },
  429: { $ref: '#/components/responses/TooManyRequests' },
  500: failure('The flags could not be loaded or the flag evaluated (`GENERAL`).'),
  503: { $ref: '#/components/responses/ServiceUnavailable' },
};

const REQUEST_BODY = { required: true, content: json(ref('OfrepEvaluationRequest')) };
const DESCRIPTION =
  'OpenFeature Remote Evaluation Protocol (docs/openfeature.md): the evaluation `/flags` runs, in OFREP’s shapes. ' +
  'Authenticated with the project’s public token as a Bearer value, or a personal key with `feature_flag:read`. Answers CORS for any origin.';

export const ofrepOperations: OutsideOperation[] = [
  {
    method: 'POST',
    path: '/ofrep/v1/evaluate/flags/:key',
    schemas: SCHEMAS,
    operation: {
      operationId: 'ofrep_evaluate_flag',
      tags: ['openfeature'],
      summary: 'OFREP: evaluate one flag',
      description: DESCRIPTION,
      security: ofrepAuth.security,
      parameters: [{ name: 'key', in: 'path', required: true, schema: { type: 'string' }, description: 'The flag key.' }],
      requestBody: REQUEST_BODY,
      responses: {
        200: { description: 'The flag’s value for the context.', content: json(ref('OfrepEvaluationSuccess')) },
        400: failure('`TARGETING_KEY_MISSING`, `INVALID_CONTEXT` or `PARSE_ERROR` (a body that is not JSON, too large or too deep).'),
        404: failure('`FLAG_NOT_FOUND`: no such flag, or a deleted one.'),
        ...COMMON_RESPONSES,
      },
    },
  },
  {
    method: 'POST',
    path: '/ofrep/v1/evaluate/flags',
    schemas: SCHEMAS,
    operation: {
      operationId: 'ofrep_evaluate_flags',
      tags: ['openfeature'],
      summary: 'OFREP: evaluate every flag',
      description: `${DESCRIPTION} The ETag is over the answer; \`If-None-Match\` naming it is a 304 without a body.`,
      security: ofrepAuth.security,
      parameters: [
        { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' }, description: 'An ETag of an earlier answer.' },
      ],
      requestBody: REQUEST_BODY,
      responses: {
        200: {
          description: 'Every flag’s value for the context.',
          headers: { ETag: { description: 'A strong tag over this answer.', schema: { type: 'string' } } },
          content: json(ref('OfrepBulkEvaluationSuccess')),
        },
        304: { description: 'The answer has the ETag `If-None-Match` named; no body.' },
        400: failure('`TARGETING_KEY_MISSING`, `INVALID_CONTEXT` or `PARSE_ERROR` (no `key`).'),
        ...COMMON_RESPONSES,
      },
    },
  },
];
