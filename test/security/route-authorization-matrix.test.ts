import { getNamedType, isObjectType, type GraphQLField, type GraphQLSchema } from 'graphql';
import { CREDENTIAL_TTL_MS } from '../../src/app-caches';
import { buildPublicSchema } from '../../src/graphql/schema';
import { ownKeys } from '../../src/modules/personal-api-key/personal-api-key.operations';
import type { Route } from '../../src/rest/route';
import { routes } from '../../src/rest/routes';
import type { Member, World } from '../helpers/factories';
import {
  CANNOT_EDIT_FLAG,
  CANNOT_EDIT_ROLES,
  err,
  forbidden,
  methodNotAllowed,
  missingScope,
  NEED_ADMIN,
  NOT_FOUND,
  NOT_IN_ORGANIZATION,
  roleSteps,
} from '../helpers/roles';
import { fetchChecked } from '../helpers/openapi-contract';
import { startTestApp, type ApiResponse, type TestApp } from '../helpers/test-app';

/**
 * Who may call what, generated from the route table and the GraphQL schema: every REST row
 * (ids filled from fixtures) and every Query/Mutation field, for each kind of caller below, must
 * answer what docs/rest-api.md §1.3 and §2 say (401 bodies by credential source, 403 details of
 * §2.3/§2.4, 404 for objects of other projects), and no answer to a caller outside organization O
 * may carry project P's data. A new row or field fails "covers …" until it is placed here.
 */

type Caller =
  | 'no key'
  | 'malformed key'
  | 'revoked key'
  | 'key of a deactivated user'
  | 'key limited to another project'
  | 'key missing the scope'
  | 'member of another organization'
  | "another organization's member naming P's objects in their own project"
  | 'member without edit rights';
const CALLERS: Caller[] = [
  'no key',
  'malformed key',
  'revoked key',
  'key of a deactivated user',
  'key limited to another project',
  'key missing the scope',
  'member of another organization',
  "another organization's member naming P's objects in their own project",
  'member without edit rights',
];

/** What a caller should hear: a status, and for errors the exact body (`null`: no body). */
interface Outcome {
  status: number;
  body?: object | null;
}

const NOT_AUTHENTICATED = err('authentication_error', 'not_authenticated', 'Authentication credentials were not provided.');
const INVALID_KEY = err(
  'authentication_error',
  'authentication_failed',
  'Personal API key found in request Authorization header is invalid.',
);
const NO_PROJECT_ACCESS = forbidden("You don't have access to the project.");
const PROJECTS_ONLY = forbidden('API keys with scoped projects are only supported on project-based endpoints.');
const BROADER_KEY = forbidden('API key cannot create a key with more access than its own.');
/** The scope the "missing the scope" key has: one no row needs. */
const UNRELATED_SCOPE = 'project:read';

type Auth = { kind: 'project' | 'organization'; scope: string } | { kind: 'local evaluation' } | { kind: 'own keys' };

/** A row's requirement, read from what the route table states. */
function authOf(route: Route): Auth {
  if (route.auth === ownKeys) return { kind: 'own keys' };
  const project = /^personal API key with (\S+) on the project$/.exec(route.auth.describe);
  if (project) return { kind: 'project', scope: project[1] };
  const organization = /^personal API key with (\S+) in the organization$/.exec(route.auth.describe);
  if (organization) return { kind: 'organization', scope: organization[1] };
  if (/secret_api_token/.test(route.auth.describe)) return { kind: 'local evaluation' };
  throw new Error(`${route.method} ${route.path}: unknown auth "${route.auth.describe}"`);
}

const rowName = (route: Pick<Route, 'method' | 'path'>) => `${route.method} ${route.path}`;
const succeeded = (route: Route): Outcome => ({ status: route.kind === 'query' || route.kind === 'mutation' ? route.status : 200 });
/** Rows whose path names an object that must exist (404 otherwise, §1.3 check 8). */
const namesAnObject = (route: Route) => /:(id|parent_lookup_feature_flag_id|role_id)\b/.test(route.path);

/**
 * What a member of O without edit rights (level 1, no roles, O's flag access level 21, not the
 * creator) hears from each row that is not a plain read. Reads answer 200.
 */
const WITHOUT_EDIT_RIGHTS: Record<string, Outcome> = {
  'POST /api/projects/:project_id/feature_flags': { status: 201 }, // create is never refused (§2.5)
  'POST /api/projects/:project_id/feature_flags/user_blast_radius': { status: 200 },
  'PATCH /api/projects/:project_id/feature_flags/:id': { status: 403, body: CANNOT_EDIT_FLAG },
  'PUT /api/projects/:project_id/feature_flags/:id': { status: 403, body: CANNOT_EDIT_FLAG },
  'DELETE /api/projects/:project_id/feature_flags/:id': { status: 405, body: null },
  'POST /api/projects/:project_id/feature_flags/:id/dashboard': { status: 403, body: CANNOT_EDIT_FLAG },
  'POST /api/projects/:project_id/feature_flags/:id/enrich_usage_dashboard': { status: 403, body: CANNOT_EDIT_FLAG },
  'POST /api/projects/:project_id/feature_flags/:parent_lookup_feature_flag_id/role_access': { status: 403, body: CANNOT_EDIT_ROLES },
  'DELETE /api/projects/:project_id/feature_flags/:parent_lookup_feature_flag_id/role_access/:id': { status: 403, body: CANNOT_EDIT_ROLES },
  'PATCH /api/projects/:project_id/feature_flags/:parent_lookup_feature_flag_id/role_access/:id': {
    status: 405,
    body: methodNotAllowed('PATCH'),
  },
  'PUT /api/projects/:project_id/feature_flags/:parent_lookup_feature_flag_id/role_access/:id': {
    status: 405,
    body: methodNotAllowed('PUT'),
  },
  'POST /api/projects/:project_id/experiments': { status: 201 }, // with a new flag, which the caller then created
  'PATCH /api/projects/:project_id/experiments/:id': { status: 200 }, // a draft's description: the flag is not written
  'DELETE /api/projects/:project_id/experiments/:id': { status: 403, body: CANNOT_EDIT_FLAG }, // soft-deletes the flag
  // The fixture experiment is a draft without secondary metrics: reading its results is allowed, and refused as such.
  'GET /api/projects/:project_id/experiments/:id/results': {
    status: 400,
    body: err('validation_error', 'invalid', 'Experiment has not started yet'),
  },
  'GET /api/projects/:project_id/experiments/:id/secondary_results': {
    status: 400,
    body: err('validation_error', 'invalid', 'Experiment has no secondary metrics'),
  },
  'POST /api/organizations/:organization_id/roles': { status: 403, body: NEED_ADMIN },
  'PATCH /api/organizations/:organization_id/roles/:role_id': { status: 403, body: NEED_ADMIN },
  'PUT /api/organizations/:organization_id/roles/:role_id': { status: 403, body: NEED_ADMIN },
  'DELETE /api/organizations/:organization_id/roles/:role_id': { status: 403, body: NEED_ADMIN },
  'POST /api/organizations/:organization_id/roles/:role_id/role_memberships': { status: 403, body: NEED_ADMIN },
  'DELETE /api/organizations/:organization_id/roles/:role_id/role_memberships/:id': { status: 403, body: NEED_ADMIN },
  'POST /api/organizations/:organization_id/resource_access': { status: 403, body: NEED_ADMIN },
  'PATCH /api/organizations/:organization_id/resource_access/:id': { status: 403, body: NEED_ADMIN },
  'PUT /api/organizations/:organization_id/resource_access/:id': { status: 403, body: NEED_ADMIN },
  'DELETE /api/organizations/:organization_id/resource_access/:id': { status: 403, body: NEED_ADMIN },
  'POST /api/personal_api_keys': { status: 201 },
  // Cohorts need only the cohort scopes and membership (no role rules); a cohort is never hard-deleted.
  'POST /api/projects/:project_id/cohorts': { status: 201 },
  'PATCH /api/projects/:project_id/cohorts/:id': { status: 200 },
  'DELETE /api/projects/:project_id/cohorts/:id': { status: 405, body: null },
  'POST /api/projects/:project_id/cohorts/:id/persons': { status: 200 },
  // The id is the owner's key: other users' keys are invisible.
  'GET /api/personal_api_keys/:id': { status: 404, body: NOT_FOUND },
  'DELETE /api/personal_api_keys/:id': { status: 404, body: NOT_FOUND },
  // Scheduling, editing or removing a change to a flag needs the right to edit the flag (docs/scheduled-changes.md).
  'POST /api/projects/:project_id/scheduled_changes': { status: 403, body: CANNOT_EDIT_FLAG },
  'PATCH /api/projects/:project_id/scheduled_changes/:id': { status: 403, body: CANNOT_EDIT_FLAG },
  'PUT /api/projects/:project_id/scheduled_changes/:id': { status: 403, body: CANNOT_EDIT_FLAG },
  'DELETE /api/projects/:project_id/scheduled_changes/:id': { status: 403, body: CANNOT_EDIT_FLAG },
  // Webhooks send the project's changes elsewhere: their writes need admin level (docs/webhooks.md).
  'POST /api/projects/:project_id/webhooks': { status: 403, body: NEED_ADMIN },
  'PATCH /api/projects/:project_id/webhooks/:id': { status: 403, body: NEED_ADMIN },
  'PUT /api/projects/:project_id/webhooks/:id': { status: 403, body: NEED_ADMIN },
  'DELETE /api/projects/:project_id/webhooks/:id': { status: 403, body: NEED_ADMIN },
  'POST /api/projects/:project_id/webhooks/:id/rotate_secret': { status: 403, body: NEED_ADMIN },
};

/** The documented answer (docs/rest-api.md §1.3, §2) for one caller and one REST row. */
function expected(caller: Caller, route: Route): Outcome {
  const auth = authOf(route);
  switch (caller) {
    case 'no key':
      return { status: 401, body: NOT_AUTHENTICATED };
    case 'malformed key':
    case 'revoked key':
    case 'key of a deactivated user':
      return { status: 401, body: INVALID_KEY };
    case 'key limited to another project':
      if (auth.kind === 'own keys') return ownKeyOutcome(route, true);
      if (auth.kind === 'organization') return { status: 403, body: PROJECTS_ONLY };
      return { status: 403, body: forbidden(`API key does not have access to the requested project: ID ${fx.project.id}.`) };
    case 'key missing the scope':
      if (auth.kind === 'own keys') return ownKeyOutcome(route, true);
      return { status: 403, body: missingScope(auth.kind === 'local evaluation' ? 'feature_flag:read' : auth.scope) };
    case 'member of another organization':
      if (auth.kind === 'own keys') return ownKeyOutcome(route, false);
      return { status: 403, body: auth.kind === 'organization' ? NOT_IN_ORGANIZATION : NO_PROJECT_ACCESS };
    case "another organization's member naming P's objects in their own project":
      if (auth.kind === 'own keys') return ownKeyOutcome(route, false);
      if (route.kind === 'refused') return { status: 405, body: null };
      if (route.kind === 'not_allowed') return { status: 405, body: methodNotAllowed(route.method) };
      return namesAnObject(route) ? { status: 404, body: NOT_FOUND } : succeeded(route);
    case 'member without edit rights':
      return WITHOUT_EDIT_RIGHTS[rowName(route)] ?? (route.method === 'GET' ? succeeded(route) : { status: -1 });
  }
}

/** The key rows: any valid key, its own keys only; a limited key cannot create an unlimited one. */
function ownKeyOutcome(route: Route, limited: boolean): Outcome {
  if (route.method === 'POST') return limited ? { status: 403, body: BROADER_KEY } : { status: 201 };
  if (namesAnObject(route)) return { status: 404, body: NOT_FOUND };
  return succeeded(route);
}

// ---------------------------------------------------------------------------------------------
// Fixtures: organization O (flag access level 21) with project P and everything P can hold.

interface Fixtures {
  world: World;
  project: World['project'];
  project2Id: number;
  flag: { id: number; key: string };
  /** The flag's usage dashboard. */
  dashboardId: number;
  roleId: string;
  otherRoleId: string;
  membershipId: string;
  roleAccessId: number;
  resourceAccessId: number;
  experimentId: number;
  cohortId: number;
  scheduledChangeId: number;
  webhookId: number;
  /** A flag of the other organization's project, which its owner may schedule changes to. */
  elsewhereFlagId: number;
  personId: string;
  ownerKeyId: number;
  /** Text only P's answers contain: keys, names, tokens, e-mails. */
  markers: string[];
  keys: Record<Caller, string | null>;
  /** The other organization, whose owner names P's objects under their own project and organization. */
  elsewhere: World;
}

let app: TestApp;
let schema: GraphQLSchema;
let fx: Fixtures;
let sequence = 0;
const EXPERIMENT_FILTERS = { events: [{ order: 0, id: '$pageview' }], properties: [] };
const FAR_FUTURE = '2099-01-01T00:00:00Z';
/** A scheduled change's body; a caller naming their own project schedules a change to their own flag. */
const scheduledChangeBody = (own: boolean) => ({
  record_id: String(own ? fx.elsewhereFlagId : fx.flag.id),
  payload: { operation: 'update_status', value: false },
  scheduled_at: FAR_FUTURE,
});
/** A public address by IP, so no name is resolved (docs/webhooks.md "Which URLs"). */
const WEBHOOK_BODY = { url: 'https://1.1.1.1/matrix', events: ['feature_flag.updated'] };
const unique = (prefix: string) => `${prefix}-${process.pid}-${Date.now().toString(36)}-${++sequence}`;

async function ok<T = any>(res: Promise<ApiResponse<T>>, status: number, what: string): Promise<T> {
  const answer = await res;
  if (answer.status !== status) throw new Error(`${what}: ${answer.status} ${answer.text}`);
  return answer.body;
}

beforeAll(async () => {
  app = await startTestApp();
  schema = await buildPublicSchema();
  const steps = roleSteps(app);
  const world = await app.factories.world();
  const { organization, project, owner } = world;
  const key = owner.key;
  const base = `/api/projects/${project.id}`;
  const post = (path: string, body: unknown, status = 201) => ok(app.request(path, { method: 'POST', key, body }), status, `POST ${path}`);

  const resourceAccess = await steps.setFlagAccessLevel(organization, key, 21);
  const flag = await post(`${base}/feature_flags/`, { key: unique('matrix-flag'), name: unique('matrix-flag-name') });
  const role = await steps.createRole(organization, key, { name: unique('matrix-role') });
  const otherRole = await steps.createRole(organization, key, { name: unique('matrix-role') });
  const staff = await app.factories.member(organization);
  const membership = await steps.addMember(organization, key, role.id, staff.user);
  const roleAccess = await post(`${base}/feature_flags/${flag.id}/role_access/`, { role_id: role.id });
  const experiment = await post(`${base}/experiments/`, {
    name: unique('matrix-experiment'),
    feature_flag_key: unique('matrix-experiment-flag'),
    filters: EXPERIMENT_FILTERS,
  });
  const distinctId = unique('matrix-person');
  const eventName = unique('matrix-event');
  const groupKey = unique('matrix-company');
  const captured = await fetchChecked(`${app.baseUrl}/batch/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      api_key: project.apiToken,
      batch: [
        {
          event: eventName,
          distinct_id: distinctId,
          properties: { $set: { email: `${distinctId}@example.com` }, $groups: { company: groupKey } },
        },
        {
          event: '$groupidentify',
          distinct_id: distinctId,
          properties: { $group_type: 'company', $group_key: groupKey, $group_set: { name: groupKey } },
        },
      ],
    }),
  });
  if (captured.status !== 200) throw new Error(`capture: ${captured.status} ${captured.text}`);
  const persons = await ok(app.request(`${base}/persons/?distinct_id=${distinctId}`, { key }), 200, 'persons');
  const cohort = await post(`${base}/cohorts/`, { name: unique('matrix-cohort'), is_static: true });
  const [{ id: ownerKeyId }] = await app.factories.sql('select id from personal_api_key where user_id = ?', [owner.user.id]);

  // The callers.
  const project2 = await app.factories.project(organization);
  const revoked = await app.factories.member(organization);
  const revokedKey = await app.factories.key(revoked.user);
  const [{ id: revokedKeyId }] = await app.factories.sql('select id from personal_api_key where user_id = ? order by id desc limit 1', [
    revoked.user.id,
  ]);
  await ok(app.request(`/api/personal_api_keys/${revokedKeyId}/`, { method: 'DELETE', key: revoked.key }), 204, 'revoke');
  const deactivated: Member = await app.factories.member(organization, 'admin');
  await app.factories.sql('update app_user set is_active = false where id = ?', [deactivated.user.id]);
  const elsewhere = await app.factories.world();
  const elsewhereFlag = await ok(
    app.request(`/api/projects/${elsewhere.project.id}/feature_flags/`, {
      method: 'POST',
      key: elsewhere.owner.key,
      body: { key: unique('matrix-elsewhere') },
    }),
    201,
    'elsewhere flag',
  );
  const scheduledChange = await post(`${base}/scheduled_changes/`, {
    record_id: flag.id,
    payload: { operation: 'update_status', value: false },
    scheduled_at: FAR_FUTURE,
  });

  const webhook = await post(`${base}/webhooks/`, WEBHOOK_BODY);

  fx = {
    world,
    project,
    project2Id: project2.id,
    flag,
    dashboardId: flag.usage_dashboard,
    roleId: role.id,
    otherRoleId: otherRole.id,
    membershipId: membership.id,
    roleAccessId: roleAccess.id,
    resourceAccessId: resourceAccess.id,
    experimentId: experiment.id,
    cohortId: cohort.id,
    scheduledChangeId: scheduledChange.id,
    webhookId: webhook.id,
    elsewhereFlagId: elsewhereFlag.id,
    personId: String(persons.results[0].id),
    ownerKeyId: Number(ownerKeyId),
    markers: [
      flag.key,
      flag.name,
      role.name,
      otherRole.name,
      experiment.name,
      experiment.feature_flag_key,
      cohort.name,
      distinctId,
      eventName,
      groupKey,
      project.apiToken,
      project.secretApiToken,
      owner.user.email,
      staff.user.email,
    ],
    keys: {
      'no key': null,
      'malformed key': 'phx_not-a-real-key',
      'revoked key': revokedKey,
      'key of a deactivated user': deactivated.key,
      'key limited to another project': (await app.factories.member(organization, 'admin', { projects: [project2.id] })).key,
      'key missing the scope': (await app.factories.member(organization, 'admin', { scopes: [UNRELATED_SCOPE] })).key,
      'member of another organization': elsewhere.owner.key,
      "another organization's member naming P's objects in their own project": elsewhere.owner.key,
      'member without edit rights': (await app.factories.member(organization, 'member')).key,
    },
    elsewhere,
  };
  // Revocation and deactivation are seen once remembered lookups expire.
  app.clock.advance(CREDENTIAL_TTL_MS + 1);
}, 60_000);
afterAll(() => app.close());

/** Whether a caller may see P's data at all. */
const outsider = (caller: Caller) => caller !== 'member without edit rights';

// ---------------------------------------------------------------------------------------------
// REST

/** The row's concrete request for a caller: path ids, query and body from the fixtures. */
function restRequest(caller: Caller, route: Route): { path: string; body?: unknown } {
  const own = caller === "another organization's member naming P's objects in their own project";
  const projectId = own ? fx.elsewhere.project.id : fx.project.id;
  const organizationId = own ? fx.elsewhere.organization.id : fx.world.organization.id;
  const byPath: Record<string, string> = {
    project_id: String(projectId),
    organization_id: organizationId,
    parent_lookup_feature_flag_id: String(fx.flag.id),
    role_id: fx.roleId,
  };
  const idOf: Array<[RegExp, string]> = [
    [/role_access\/:id$/, String(fx.roleAccessId)],
    [/feature_flags\/:id$/, String(fx.flag.id)],
    [/feature_flags\/:id\/(activity|status)$/, String(fx.flag.id)],
    [/feature_flags\/:id\/(dashboard|enrich_usage_dashboard)$/, String(fx.flag.id)],
    [/dashboards\/:id$/, String(fx.dashboardId)],
    [/experiments\/:id$/, String(fx.experimentId)],
    [/experiments\/:id\/(results|secondary_results)$/, String(fx.experimentId)],
    [/cohorts\/:id(\/persons)?$/, String(fx.cohortId)],
    [/role_memberships\/:id$/, fx.membershipId],
    [/resource_access\/:id$/, String(fx.resourceAccessId)],
    [/persons\/:id$/, fx.personId],
    [/personal_api_keys\/:id$/, String(fx.ownerKeyId)],
    [/scheduled_changes\/:id$/, String(fx.scheduledChangeId)],
    [/webhooks\/:id(\/rotate_secret|\/deliveries)?$/, String(fx.webhookId)],
  ];
  let path = route.path.replace(/:([a-z_]+)/g, (_, name: string) => {
    if (name !== 'id') return byPath[name] ?? `<${name}?>`;
    const found = idOf.find(([pattern]) => pattern.test(route.path));
    return found ? found[1] : '<id?>';
  });
  path += '/';
  if (/evaluation_reasons$/.test(route.path)) path += '?distinct_id=matrix';
  if (/groups$/.test(route.path)) path += '?group_type_index=0';
  if (!route.path.includes(':project_id') && authOf(route).kind === 'local evaluation') {
    path += `?token=${own ? fx.elsewhere.project.apiToken : fx.project.apiToken}`;
  }
  const bodies: Record<string, unknown> = {
    'POST /api/projects/:project_id/feature_flags': { key: unique('matrix-new') },
    'PATCH /api/projects/:project_id/feature_flags/:id': { name: 'edited' },
    'PUT /api/projects/:project_id/feature_flags/:id': { key: fx.flag.key, filters: { groups: [] } },
    'POST /api/projects/:project_id/feature_flags/user_blast_radius': { condition: { properties: [] } },
    'POST /api/projects/:project_id/feature_flags/:parent_lookup_feature_flag_id/role_access': { role_id: fx.otherRoleId },
    'POST /api/projects/:project_id/experiments': {
      name: 'matrix',
      feature_flag_key: unique('matrix-new-experiment'),
      filters: EXPERIMENT_FILTERS,
    },
    'PATCH /api/projects/:project_id/experiments/:id': { description: 'edited' },
    'POST /api/projects/:project_id/cohorts': { name: 'matrix', is_static: true },
    'PATCH /api/projects/:project_id/cohorts/:id': { description: 'edited' },
    'POST /api/projects/:project_id/cohorts/:id/persons': { distinct_ids: ['matrix'] },
    'POST /api/organizations/:organization_id/roles': { name: unique('matrix-new-role') },
    'PATCH /api/organizations/:organization_id/roles/:role_id': { name: unique('matrix-renamed') },
    'PUT /api/organizations/:organization_id/roles/:role_id': { name: unique('matrix-renamed') },
    'POST /api/organizations/:organization_id/roles/:role_id/role_memberships': { user_uuid: fx.world.owner.user.uuid },
    'POST /api/organizations/:organization_id/resource_access': { resource: 'feature flags', access_level: 21 },
    'PATCH /api/organizations/:organization_id/resource_access/:id': { access_level: 21 },
    'PUT /api/organizations/:organization_id/resource_access/:id': { resource: 'feature flags', access_level: 21 },
    'POST /api/personal_api_keys': { label: 'matrix', scopes: ['*'] },
    'POST /api/projects/:project_id/scheduled_changes': scheduledChangeBody(own),
    'PATCH /api/projects/:project_id/scheduled_changes/:id': { scheduled_at: FAR_FUTURE },
    'PUT /api/projects/:project_id/scheduled_changes/:id': scheduledChangeBody(own),
    'POST /api/projects/:project_id/webhooks': WEBHOOK_BODY,
    'PATCH /api/projects/:project_id/webhooks/:id': { enabled: true },
    'PUT /api/projects/:project_id/webhooks/:id': WEBHOOK_BODY,
  };
  return { path, body: route.method === 'GET' || route.method === 'DELETE' ? undefined : (bodies[rowName(route)] ?? {}) };
}

/** P's markers found in an answer a caller outside O received. */
const leaks = (caller: Caller, text: string) => (outsider(caller) ? fx.markers.filter((marker) => text.includes(marker)) : []);

describe('REST: every row of the route table, for every kind of caller', () => {
  it('covers every row that is not a plain read for the member without edit rights, and nothing else', () => {
    const writes = routes.filter((route) => route.method !== 'GET' || WITHOUT_EDIT_RIGHTS[rowName(route)]).map(rowName);
    expect(writes.filter((row) => !WITHOUT_EDIT_RIGHTS[row])).toEqual([]);
    expect(Object.keys(WITHOUT_EDIT_RIGHTS).filter((row) => !routes.some((route) => rowName(route) === row))).toEqual([]);
  });

  it.each(CALLERS)('%s', async (caller) => {
    const mismatches: unknown[] = [];
    // Reads first, then writes, then deletes: a delete this caller may make must not hide an object from later rows.
    const order = (route: Route) => ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'].indexOf(route.method);
    for (const route of [...routes].sort((a, b) => order(a) - order(b))) {
      const want = expected(caller, route);
      const { path, body } = restRequest(caller, route);
      const key = fx.keys[caller];
      const res = await app.request(path, { method: route.method, key, body });
      const got: Outcome = { status: res.status };
      if ('body' in want) got.body = res.text === '' ? null : res.body;
      const found = leaks(caller, res.text);
      if (JSON.stringify(got) !== JSON.stringify(want) || found.length) {
        mismatches.push({
          row: rowName(route),
          path,
          want,
          got: res.status < 400 && !('body' in want) ? got : { status: res.status, body: res.body },
          leaks: found,
        });
      }
    }
    expect(mismatches).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// GraphQL

/**
 * Each Query/Mutation field's REST twin (whose row states the auth), or `any key` for fields with
 * none. Arguments come from the fixtures; inputs are the twin's bodies in GraphQL's names.
 */
const TWINS: Record<string, string> = {
  featureFlags: 'GET /api/projects/:project_id/feature_flags',
  featureFlag: 'GET /api/projects/:project_id/feature_flags/:id',
  // No REST row lists creators (the console's creator filter): the flag list's auth applies.
  featureFlagCreators: 'GET /api/projects/:project_id/feature_flags',
  createFeatureFlag: 'POST /api/projects/:project_id/feature_flags',
  updateFeatureFlag: 'PATCH /api/projects/:project_id/feature_flags/:id',
  replaceFeatureFlag: 'PUT /api/projects/:project_id/feature_flags/:id',
  featureFlagEvaluations: 'GET /api/projects/:project_id/feature_flags/evaluation_reasons',
  myFeatureFlags: 'GET /api/projects/:project_id/feature_flags/my_flags',
  featureFlagBlastRadius: 'POST /api/projects/:project_id/feature_flags/user_blast_radius',
  activity: 'GET /api/projects/:project_id/feature_flags/activity',
  featureFlagActivity: 'GET /api/projects/:project_id/feature_flags/:id/activity',
  dashboards: 'GET /api/projects/:project_id/dashboards',
  dashboard: 'GET /api/projects/:project_id/dashboards/:id',
  generateFeatureFlagUsageDashboard: 'POST /api/projects/:project_id/feature_flags/:id/dashboard',
  enrichFeatureFlagUsageDashboard: 'POST /api/projects/:project_id/feature_flags/:id/enrich_usage_dashboard',
  featureFlagRoleAccesses: 'GET /api/projects/:project_id/feature_flags/:parent_lookup_feature_flag_id/role_access',
  featureFlagRoleAccess: 'GET /api/projects/:project_id/feature_flags/:parent_lookup_feature_flag_id/role_access/:id',
  grantFeatureFlagRoleAccess: 'POST /api/projects/:project_id/feature_flags/:parent_lookup_feature_flag_id/role_access',
  revokeFeatureFlagRoleAccess: 'DELETE /api/projects/:project_id/feature_flags/:parent_lookup_feature_flag_id/role_access/:id',
  experiments: 'GET /api/projects/:project_id/experiments',
  experiment: 'GET /api/projects/:project_id/experiments/:id',
  createExperiment: 'POST /api/projects/:project_id/experiments',
  updateExperiment: 'PATCH /api/projects/:project_id/experiments/:id',
  deleteExperiment: 'DELETE /api/projects/:project_id/experiments/:id',
  experimentRequiresFlagImplementation: 'GET /api/projects/:project_id/experiments/requires_flag_implementation',
  roles: 'GET /api/organizations/:organization_id/roles',
  role: 'GET /api/organizations/:organization_id/roles/:role_id',
  createRole: 'POST /api/organizations/:organization_id/roles',
  updateRole: 'PATCH /api/organizations/:organization_id/roles/:role_id',
  replaceRole: 'PUT /api/organizations/:organization_id/roles/:role_id',
  deleteRole: 'DELETE /api/organizations/:organization_id/roles/:role_id',
  roleMemberships: 'GET /api/organizations/:organization_id/roles/:role_id/role_memberships',
  // No REST row reads one membership: the list's auth applies.
  roleMembership: 'GET /api/organizations/:organization_id/roles/:role_id/role_memberships',
  addRoleMember: 'POST /api/organizations/:organization_id/roles/:role_id/role_memberships',
  removeRoleMember: 'DELETE /api/organizations/:organization_id/roles/:role_id/role_memberships/:id',
  resourceAccesses: 'GET /api/organizations/:organization_id/resource_access',
  resourceAccess: 'GET /api/organizations/:organization_id/resource_access/:id',
  createResourceAccess: 'POST /api/organizations/:organization_id/resource_access',
  updateResourceAccess: 'PATCH /api/organizations/:organization_id/resource_access/:id',
  replaceResourceAccess: 'PUT /api/organizations/:organization_id/resource_access/:id',
  deleteResourceAccess: 'DELETE /api/organizations/:organization_id/resource_access/:id',
  persons: 'GET /api/projects/:project_id/persons',
  person: 'GET /api/projects/:project_id/persons/:id',
  events: 'GET /api/projects/:project_id/events',
  eventNames: 'GET /api/projects/:project_id/events',
  groups: 'GET /api/projects/:project_id/groups',
  groupTypes: 'GET /api/projects/:project_id/groups_types',
  personalApiKeys: 'GET /api/personal_api_keys',
  personalApiKey: 'GET /api/personal_api_keys/:id',
  createPersonalApiKey: 'POST /api/personal_api_keys',
  revokePersonalApiKey: 'DELETE /api/personal_api_keys/:id',
  cohorts: 'GET /api/projects/:project_id/cohorts',
  cohort: 'GET /api/projects/:project_id/cohorts/:id',
  createCohort: 'POST /api/projects/:project_id/cohorts',
  updateCohort: 'PATCH /api/projects/:project_id/cohorts/:id',
  addCohortMembers: 'POST /api/projects/:project_id/cohorts/:id/persons',
  me: 'any key',
  // No REST row lists an organization's members (the console's role pages): the role list's auth applies.
  organizationMembers: 'GET /api/organizations/:organization_id/roles',
  scheduledChanges: 'GET /api/projects/:project_id/scheduled_changes',
  scheduledChange: 'GET /api/projects/:project_id/scheduled_changes/:id',
  createScheduledChange: 'POST /api/projects/:project_id/scheduled_changes',
  updateScheduledChange: 'PATCH /api/projects/:project_id/scheduled_changes/:id',
  deleteScheduledChange: 'DELETE /api/projects/:project_id/scheduled_changes/:id',
  webhooks: 'GET /api/projects/:project_id/webhooks',
  webhook: 'GET /api/projects/:project_id/webhooks/:id',
  webhookDeliveries: 'GET /api/projects/:project_id/webhooks/:id/deliveries',
  createWebhook: 'POST /api/projects/:project_id/webhooks',
  updateWebhook: 'PATCH /api/projects/:project_id/webhooks/:id',
  rotateWebhookSecret: 'POST /api/projects/:project_id/webhooks/:id/rotate_secret',
  deleteWebhook: 'DELETE /api/projects/:project_id/webhooks/:id',
};

/** GraphQL input objects for the fields that take one (the twin row's body, in GraphQL's names). */
function graphqlInput(field: string, own: boolean): Record<string, unknown> {
  const { record_id: recordId, payload, scheduled_at: scheduledAt } = scheduledChangeBody(own);
  const inputs: Record<string, Record<string, unknown>> = {
    createFeatureFlag: { key: unique('matrix-gql') },
    updateFeatureFlag: { name: 'edited' },
    replaceFeatureFlag: { key: fx.flag.key, filters: { groups: [] } },
    featureFlagBlastRadius: { condition: { properties: [] } },
    grantFeatureFlagRoleAccess: { roleId: fx.otherRoleId },
    createExperiment: { name: 'matrix', featureFlagKey: unique('matrix-gql-experiment'), filters: EXPERIMENT_FILTERS },
    updateExperiment: { description: 'edited' },
    createRole: { name: unique('matrix-gql-role') },
    updateRole: { name: unique('matrix-gql-renamed') },
    replaceRole: { name: unique('matrix-gql-renamed') },
    addRoleMember: { userUuid: fx.world.owner.user.uuid },
    createResourceAccess: { resource: 'feature flags', accessLevel: 'CAN_ONLY_VIEW' },
    updateResourceAccess: { accessLevel: 'CAN_ONLY_VIEW' },
    replaceResourceAccess: { resource: 'feature flags', accessLevel: 'CAN_ONLY_VIEW' },
    createPersonalApiKey: { label: 'matrix', scopes: ['*'] },
    createCohort: { name: 'matrix', isStatic: true },
    updateCohort: { description: 'edited' },
    addCohortMembers: { distinctIds: ['matrix'] },
    createScheduledChange: { recordId, payload, scheduledAt },
    updateScheduledChange: { scheduledAt },
    createWebhook: WEBHOOK_BODY,
    updateWebhook: { enabled: true },
  };
  return inputs[field] ?? {};
}

/** The field's `id` argument: the fixture object the twin row's `:id` (or `:role_id`) names. */
function graphqlId(field: string): string | number {
  const ids: Array<[RegExp, string | number]> = [
    [/^(featureFlagRoleAccess|revokeFeatureFlagRoleAccess)$/, fx.roleAccessId],
    [/UsageDashboard$/, fx.flag.id],
    [/^dashboard$/, fx.dashboardId],
    [/FeatureFlag$|^featureFlag(Activity)?$/, fx.flag.id],
    [/xperiment$/, fx.experimentId],
    [/^(roleMembership|removeRoleMember)$/, fx.membershipId],
    [/^(role|updateRole|replaceRole|deleteRole)$/, fx.roleId],
    [/esourceAccess$/, fx.resourceAccessId],
    [/^person$/, fx.personId],
    [/ersonalApiKey$/, fx.ownerKeyId],
    [/^(cohort|updateCohort|addCohortMembers)$/, fx.cohortId],
    [/^(scheduledChange|updateScheduledChange|deleteScheduledChange)$/, fx.scheduledChangeId],
    [/^(webhook|webhookDeliveries|updateWebhook|rotateWebhookSecret|deleteWebhook)$/, fx.webhookId],
  ];
  const found = ids.find(([pattern]) => pattern.test(field));
  if (!found) throw new Error(`no id for ${field}`);
  return found[1];
}

function graphqlOperation(caller: Caller, kind: 'query' | 'mutation', field: GraphQLField<unknown, unknown>) {
  const own = caller === "another organization's member naming P's objects in their own project";
  const values: Record<string, unknown> = {
    projectId: String(own ? fx.elsewhere.project.id : fx.project.id),
    organizationId: own ? fx.elsewhere.organization.id : fx.world.organization.id,
    featureFlagId: fx.flag.id,
    roleId: fx.roleId,
    distinctId: 'matrix',
    groupTypeIndex: 0,
  };
  const variables: Record<string, unknown> = {};
  const declared: string[] = [];
  const passed: string[] = [];
  for (const arg of field.args) {
    const value = arg.name === 'id' ? graphqlId(field.name) : arg.name === 'input' ? graphqlInput(field.name, own) : values[arg.name];
    if (value === undefined) continue;
    const type = getNamedType(arg.type).name;
    variables[arg.name] = type === 'Int' ? Number(value) : type === 'ID' || type === 'String' ? String(value) : value;
    declared.push(`$${arg.name}: ${String(arg.type)}`);
    passed.push(`${arg.name}: $${arg.name}`);
  }
  const selection = isObjectType(getNamedType(field.type)) ? ' { __typename }' : '';
  const args = passed.length ? `(${passed.join(', ')})` : '';
  return { query: `${kind}${declared.length ? `(${declared.join(', ')})` : ''} { ${field.name}${args}${selection} }`, variables };
}

const GRAPHQL_CODES: Record<number, string> = { 401: 'UNAUTHENTICATED', 403: 'FORBIDDEN', 404: 'NOT_FOUND' };

describe('GraphQL: every Query and Mutation field, for every kind of caller', () => {
  const fields = () =>
    (['query', 'mutation'] as const).flatMap((kind) => {
      const type = kind === 'query' ? schema.getQueryType()! : schema.getMutationType()!;
      return Object.values(type.getFields()).map((field) => ({ kind, field }));
    });

  it('covers every field, each twin being a row of the route table', () => {
    expect(
      fields()
        .map(({ field }) => field.name)
        .filter((name) => !TWINS[name]),
    ).toEqual([]);
    expect(Object.keys(TWINS).filter((name) => !fields().some(({ field }) => field.name === name))).toEqual([]);
    expect(Object.values(TWINS).filter((twin) => twin !== 'any key' && !routes.some((route) => rowName(route) === twin))).toEqual([]);
  });

  it.each(CALLERS)('%s', async (caller) => {
    // The REST pass made the other organization's one `feature flags` record: make room for the GraphQL create.
    await app.factories.sql('delete from organization_resource_access where organization_id = ?', [fx.elsewhere.organization.id]);
    const mismatches: unknown[] = [];
    const order = (name: string) => (/^(delete|revoke|remove)/.test(name) ? 1 : 0);
    for (const { kind, field } of fields().sort((a, b) => order(a.field.name) - order(b.field.name))) {
      const twin = TWINS[field.name];
      const route = routes.find((r) => rowName(r) === twin);
      // `me` asks for any valid key, like the key rows.
      const want = route
        ? expected(caller, route)
        : expected(
            caller,
            routes.find((r) => r.auth === ownKeys && r.method === 'GET' && !namesAnObject(r))!,
          );
      const { query, variables } = graphqlOperation(caller, kind, field);
      const res = await app.graphql(query, variables, fx.keys[caller]);
      const error = res.body.errors?.[0];
      const got = error
        ? { code: error.extensions?.code, message: error.message }
        : { data: res.body.data?.[field.name] !== null && res.body.data?.[field.name] !== undefined };
      const wanted =
        want.status >= 400
          ? { code: GRAPHQL_CODES[want.status] ?? `REST ${want.status}`, message: (want.body as { detail: string }).detail }
          : { data: true };
      const found = leaks(caller, res.text);
      if (JSON.stringify(got) !== JSON.stringify(wanted) || found.length)
        mismatches.push({ field: field.name, query, wanted, got, leaks: found });
    }
    expect(mismatches).toEqual([]);
  });
});
