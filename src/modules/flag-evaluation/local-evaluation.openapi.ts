import type { RouteDocs } from '../../openapi/types';

/** The local-evaluation answer (local-evaluation.handler.ts) in the OpenAPI document: it has no GraphQL type. */
const MINIMAL_FLAG = {
  type: 'object',
  description: 'A flag as server SDKs evaluate it.',
  properties: {
    id: { type: 'integer' },
    team_id: { type: 'integer', description: 'The project id.' },
    name: { type: 'string' },
    key: { type: 'string' },
    filters: { type: 'object', description: 'The normalised release conditions, payloads and variants.' },
    deleted: { type: 'boolean' },
    active: { type: 'boolean' },
    ensure_experience_continuity: { type: ['boolean', 'null'] },
  },
  required: ['id', 'team_id', 'name', 'key', 'filters', 'deleted', 'active', 'ensure_experience_continuity'],
  additionalProperties: false,
};

export const localEvaluationDocs: RouteDocs = {
  summary: 'local evaluation: flag definitions for server SDKs',
  description:
    'Every non-deleted flag (inactive ones included) and the group type names, for SDKs that evaluate locally. Send ' +
    '`If-None-Match` with the last `ETag` to get a 304 while nothing changed.',
  query: {
    token: { schema: { type: 'string' }, description: "The project's public token (the SDK paths take the project from it)." },
    send_cohorts: { schema: { type: 'string' }, description: 'Present (any value): include the cohorts the flags use.' },
  },
  response: {
    type: 'object',
    properties: {
      flags: { type: 'array', items: MINIMAL_FLAG },
      group_type_mapping: { type: 'object', additionalProperties: { type: 'string' }, description: 'Group type index (as text) → name.' },
      cohorts: { type: 'object', description: 'Cohort id → its property groups (with `send_cohorts`).' },
    },
    required: ['flags', 'group_type_mapping', 'cohorts'],
    additionalProperties: false,
  },
  responses: { 304: { description: 'Not modified: the `If-None-Match` ETag is current.', schema: null } },
};
