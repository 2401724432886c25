import type { RouteDocs } from '../../openapi/types';
import { restOperation } from '../../rest/fragments';
import { pathId, type RestRequest } from '../../rest/route';

/** docs/stale-flags.md over REST: the status endpoint and the list's `active=STALE`. */

interface StatusItem {
  status: { status: string; reason: string };
}

export const flagStatus = {
  document: restOperation(`
    query RestFeatureFlagStatus($projectId: ID!, $id: Int!) {
      item: featureFlag(projectId: $projectId, id: $id) {
        status { status reason }
      }
    }`),
  variables: ({ params }: RestRequest) => ({ projectId: params.project_id, id: pathId(params.id) }),
  /** GraphQL names the status in capitals; PostHog's endpoint answers the lower-case value. */
  present: (item: unknown) => {
    const { status, reason } = (item as StatusItem).status;
    return { status: status.toLowerCase(), reason };
  },
  docs: {
    summary: "A flag's status: active, stale or deleted, and why",
    description:
      'Stale: unchanged for 30 days, and its answer cannot vary (rolled out to everyone, or off for everyone) or it was not ' +
      'evaluated in 30 days (docs/stale-flags.md). A soft-deleted flag answers `deleted`; a flag the project does not have, 404.',
    response: {
      type: 'object',
      properties: {
        status: { type: 'string', enum: ['active', 'stale', 'deleted'] },
        reason: { type: 'string', description: 'Why, as a sentence.' },
      },
      required: ['status', 'reason'],
      additionalProperties: false,
    },
  } satisfies RouteDocs,
};

/** The list's `active` takes `STALE` as well as true/false; `status` is how the row passes it on, not a parameter of its own. */
export const flagsListDocs = {
  query: {
    active: {
      schema: { type: 'string', enum: ['true', 'false', 'STALE'] },
      description: 'true: active flags; false: inactive ones; STALE: stale flags (docs/stale-flags.md).',
    },
    status: null,
  },
} satisfies RouteDocs;
