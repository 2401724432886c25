import { restOperation } from '../../rest/fragments';
import { queryParams, type RestRequest } from '../../rest/route';
import type { RouteDocs } from '../../openapi/types';

/** The read operations of docs/ingestion.md §6, used by the route table's person, event and group rows. */

// Exact-match filters keep their value as sent (no trimming); NUL matches nothing PostgreSQL can store.
const exact = (value: unknown): string | null => {
  const text = Array.isArray(value) ? value[0] : value;
  return typeof text === 'string' && text !== '' && !text.includes('\u0000') ? text : null;
};

const page = ({ query }: RestRequest) => ({ limit: queryParams.pageInteger(query.limit), offset: queryParams.pageInteger(query.offset) });

export const personsPage = {
  document: restOperation(`
    query RestPersons($projectId: ID!, $limit: Int, $offset: Int, $distinctId: String, $search: String) {
      page: persons(projectId: $projectId, limit: $limit, offset: $offset, distinctId: $distinctId, search: $search) {
        count
        results { ...RestPerson }
      }
    }`),
  variables: (request: RestRequest) => ({
    projectId: request.params.project_id,
    ...page(request),
    distinctId: exact(request.query.distinct_id),
    search: queryParams.text(request.query.search),
  }),
};

export const personById = {
  document: restOperation(`
    query RestPerson($projectId: ID!, $id: String!) {
      item: person(projectId: $projectId, id: $id) { ...RestPerson }
    }`),
  variables: ({ params }: RestRequest) => ({ projectId: params.project_id, id: params.id }),
};

export const eventsPage = {
  document: restOperation(`
    query RestEvents($projectId: ID!, $limit: Int, $offset: Int, $event: String, $distinctId: String, $personId: String,
                     $after: String, $before: String) {
      page: events(projectId: $projectId, limit: $limit, offset: $offset, event: $event, distinctId: $distinctId,
                   personId: $personId, after: $after, before: $before) {
        count
        results { ...RestEvent }
      }
    }`),
  variables: (request: RestRequest) => ({
    projectId: request.params.project_id,
    ...page(request),
    event: exact(request.query.event),
    distinctId: exact(request.query.distinct_id),
    personId: exact(request.query.person_id),
    after: exact(request.query.after),
    before: exact(request.query.before),
  }),
  // `after` and `before` are the only refused query parameters here: a time that does not parse is a 400.
  docs: {
    query: {
      after: { schema: { type: 'string', format: 'date-time' }, description: 'Only events strictly after this ISO 8601 time.' },
      before: { schema: { type: 'string', format: 'date-time' }, description: 'Only events strictly before this ISO 8601 time.' },
    },
    errors: [400],
  } satisfies RouteDocs,
};

export const groupsPage = {
  document: restOperation(`
    query RestGroups($projectId: ID!, $groupTypeIndex: Int, $limit: Int, $offset: Int, $search: String) {
      page: groups(projectId: $projectId, groupTypeIndex: $groupTypeIndex, limit: $limit, offset: $offset, search: $search) {
        count
        results { ...RestGroup }
      }
    }`),
  variables: (request: RestRequest) => ({
    projectId: request.params.project_id,
    groupTypeIndex: queryParams.integer(request.query.group_type_index),
    ...page(request),
    search: queryParams.text(request.query.search),
  }),
  // The GraphQL argument is optional (GraphQL answers the same refusal); REST requires it.
  docs: {
    query: { group_type_index: { schema: { type: 'integer' }, required: true, description: 'The group type (0–4).' } },
  } satisfies RouteDocs,
};

/** A plain array, not a page (docs/ingestion.md §6). */
export const groupTypesList = {
  document: restOperation(`
    query RestGroupTypes($projectId: ID!) {
      item: groupTypes(projectId: $projectId) { ...RestGroupType }
    }`),
  variables: ({ params }: RestRequest) => ({ projectId: params.project_id }),
};
