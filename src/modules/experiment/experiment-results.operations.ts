import { experimentResultsDocs, experimentSecondaryResultsDocs, requiresFlagImplementationDocs } from './experiment-results.openapi';
import { restOperation } from '../../rest/fragments';
import { pathId, queryParams, type RestRequest } from '../../rest/route';

/** The read operations of the experiment results rows (docs/experiment-results.md). */

/** `?refresh`: absent, `false` or `0` serve a stored result; any other value (empty included) recomputes. */
const refreshOf = (query: Record<string, unknown>): boolean => {
  if (query.refresh === undefined) return false;
  const value = Array.isArray(query.refresh) ? query.refresh[0] : query.refresh;
  return !(typeof value === 'string' && ['false', '0'].includes(value.trim().toLowerCase()));
};

const ENVELOPE = 'result last_refresh: lastRefresh is_cached: isCached';

export const experimentResults = {
  document: restOperation(`
    query RestExperimentResults($projectId: ID!, $id: Int!, $refresh: Boolean!) {
      item: experiment(projectId: $projectId, id: $id) { results(refresh: $refresh) { ${ENVELOPE} } }
    }`),
  variables: ({ params, query }: RestRequest) => ({ projectId: params.project_id, id: pathId(params.id), refresh: refreshOf(query) }),
  docs: experimentResultsDocs,
};

export const experimentSecondaryResults = {
  document: restOperation(`
    query RestExperimentSecondaryResults($projectId: ID!, $id: Int!, $index: ID, $refresh: Boolean!) {
      item: experiment(projectId: $projectId, id: $id) { secondaryResults(index: $index, refresh: $refresh) { ${ENVELOPE} } }
    }`),
  // `id` is handed over as sent (text): the service answers missing, non-integer and out-of-range ids in the API's order.
  variables: ({ params, query }: RestRequest) => {
    const raw = Array.isArray(query.id) ? query.id[0] : query.id;
    return {
      projectId: params.project_id,
      id: pathId(params.id),
      index: typeof raw === 'string' && !raw.includes('\u0000') ? raw : null,
      refresh: refreshOf(query),
    };
  },
  docs: experimentSecondaryResultsDocs,
};

export const requiresFlagImplementation = {
  document: restOperation(`
    query RestExperimentRequiresFlagImplementation($projectId: ID!, $events: JSON) {
      item: experimentRequiresFlagImplementation(projectId: $projectId, events: $events)
    }`),
  // The metric as the UI sends it: `events` is JSON text; malformed JSON counts as an empty list.
  variables: ({ params, query }: RestRequest) => {
    const text = queryParams.text(query.events);
    let events: unknown;
    try {
      events = text === null ? [] : JSON.parse(text);
    } catch {
      events = [];
    }
    return { projectId: params.project_id, events: Array.isArray(events) ? events : [] };
  },
  docs: requiresFlagImplementationDocs,
};
