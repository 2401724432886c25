import { blastRadiusErrors } from './blast-radius.errors';
import { FlagEvaluationService } from './flag-evaluation.service';
import { parseGroupsParam } from './groups-param';
import { requestErrors } from '../../errors';
import { isPlainObject, pyTypeName } from '../../validation/python';
import { restOperation } from '../../rest/fragments';
import type { RestRequest } from '../../rest/route';
import type { RouteDocs } from '../../openapi/types';

/** The read operations of docs/rest-api.md §4.4, §4.6 and §4.7, used by the route table's flag helper rows. */

interface EvaluationRow {
  key: string;
  value: boolean | string;
  reason: string;
  condition_index: number | null;
}

export const evaluationReasons = {
  document: restOperation(`
    query RestEvaluationReasons($projectId: ID!, $distinctId: String!, $groups: JSONObject) {
      item: featureFlagEvaluations(projectId: $projectId, distinctId: $distinctId, groups: $groups) {
        key
        value
        reason
        condition_index: conditionIndex
      }
    }`),
  // distinct_id is checked before groups; both answer 400 after the row's auth, before any flag is read.
  variables: ({ params, query }: RestRequest) => ({
    projectId: params.project_id,
    distinctId: FlagEvaluationService.requireDistinctId(query.distinct_id),
    groups: parseGroupsParam(query.groups),
  }),
  /** GraphQL answers a list; the API answers an object keyed by flag key, in the list's order. */
  present: (item: unknown) =>
    Object.fromEntries(
      (item as EvaluationRow[]).map(({ key, value, reason, condition_index }) => [key, { value, evaluation: { reason, condition_index } }]),
    ),
  /** What `present` answers, for the OpenAPI document. */
  docs: {
    response: {
      type: 'object',
      description: 'Flag key → its value for the distinct id and why.',
      additionalProperties: {
        type: 'object',
        properties: {
          value: { type: ['boolean', 'string'], description: 'false, true or a variant key.' },
          evaluation: {
            type: 'object',
            properties: { reason: { type: 'string' }, condition_index: { type: ['integer', 'null'] } },
            required: ['reason', 'condition_index'],
            additionalProperties: false,
          },
        },
        required: ['value', 'evaluation'],
        additionalProperties: false,
      },
    },
  } satisfies RouteDocs,
};

export const myFlags = {
  document: restOperation(`
    query RestMyFlags($projectId: ID!, $groups: JSONObject) {
      item: myFeatureFlags(projectId: $projectId, groups: $groups) {
        feature_flag: featureFlag { ...RestMinimalFlag }
        value
      }
    }`),
  variables: ({ params, query }: RestRequest) => ({ projectId: params.project_id, groups: parseGroupsParam(query.groups) }),
  // `value` is a JSON scalar in GraphQL; REST answers false, true or a variant key.
  docs: {
    response: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          feature_flag: { $ref: '#/components/schemas/MinimalFlag' },
          value: { type: ['boolean', 'string'], description: 'false, true or a variant key.' },
        },
        required: ['feature_flag', 'value'],
        additionalProperties: false,
      },
    },
  } satisfies RouteDocs,
};

export const blastRadius = {
  document: restOperation(`
    query RestBlastRadius($projectId: ID!, $input: BlastRadiusInput!) {
      item: featureFlagBlastRadius(projectId: $projectId, input: $input) {
        users_affected: usersAffected
        total_users: totalUsers
      }
    }`),
  // REST's leniency lives here, not in the schema (where `condition` is required): a body that is not
  // an object, or has no condition, is refused with the API's messages after the row's auth.
  variables: ({ params, input }: RestRequest) => {
    if (!isPlainObject(input)) throw requestErrors.notADictionary(pyTypeName(input));
    if (input.condition === undefined || input.condition === null) throw blastRadiusErrors.missingCondition();
    return { projectId: params.project_id, input };
  },
};
