import { projectScope, type Route } from '../../rest/route';
import { eventsPage, groupsPage, groupTypesList, personById, personsPage } from './ingestion.operations';

// SPEC-GAP: persons, events and groups are beyond PostHog's documented flag API; docs/ingestion.md §6 describes them (read-only: other methods 405).
export const ingestionRoutes: Route[] = [
  {
    method: 'GET',
    path: '/api/projects/:project_id/persons',
    auth: projectScope('person:read'),
    kind: 'query',
    operation: personsPage,
    status: 200,
    shape: 'page',
  },
  {
    method: 'GET',
    path: '/api/projects/:project_id/persons/:id',
    auth: projectScope('person:read'),
    kind: 'query',
    operation: personById,
    status: 200,
    shape: 'one',
  },
  {
    method: 'GET',
    path: '/api/projects/:project_id/events',
    auth: projectScope('query:read'),
    kind: 'query',
    operation: eventsPage,
    status: 200,
    shape: 'page',
  },
  {
    method: 'GET',
    path: '/api/projects/:project_id/groups',
    auth: projectScope('group:read'),
    kind: 'query',
    operation: groupsPage,
    status: 200,
    shape: 'page',
  },
  {
    method: 'GET',
    path: '/api/projects/:project_id/groups_types',
    auth: projectScope('group:read'),
    kind: 'query',
    operation: groupTypesList,
    status: 200,
    shape: 'one',
  },
];
