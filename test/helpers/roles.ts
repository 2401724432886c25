import type { Organization } from '../../src/modules/organization/organization.entity';
import type { User } from '../../src/modules/user/user.entity';
import type { TestApp } from './test-app';

/** Shared by the roles and role-access suites: error bodies, paths and small REST steps (docs/rest-api.md §5). */

export const err = (type: string, code: string, detail: string, attr: string | null = null) => ({ type, code, detail, attr });
export const forbidden = (detail: string) => err('authentication_error', 'permission_denied', detail);
export const invalid = (code: string, detail: string, attr: string | null = null) => err('validation_error', code, detail, attr);
export const NOT_FOUND = err('invalid_request', 'not_found', 'Not found.');
export const ORGANIZATION_NOT_FOUND = err('invalid_request', 'not_found', 'Organization not found.');
export const NEED_ADMIN = forbidden('You need to have admin level or higher.');
export const NOT_IN_ORGANIZATION = forbidden("You don't belong to the organization.");
export const CANNOT_EDIT_ROLES = forbidden("You can't edit roles for this feature flag.");
export const CANNOT_EDIT_FLAG = forbidden("You don't have edit permissions for this feature flag.");
export const missingScope = (scope: string) => forbidden(`API key missing required scope '${scope}'`);
export const methodNotAllowed = (method: string) => err('invalid_request', 'method_not_allowed', `Method "${method}" not allowed.`);

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** The REST user shape (docs/rest-api.md §3.1). */
export const restUser = (user: User) => ({
  id: user.id,
  uuid: user.uuid,
  distinct_id: user.distinctId,
  first_name: user.firstName,
  email: user.email,
  is_email_verified: user.isEmailVerified,
});

type OrganizationRef = Organization | string;
const orgId = (organization: OrganizationRef) => (typeof organization === 'string' ? organization : organization.id);

/** The organization routes of §5.1–§5.3. */
export const orgPaths = (organization: OrganizationRef) => {
  const base = `/api/organizations/${orgId(organization)}`;
  return {
    roles: `${base}/roles`,
    role: (roleId: string) => `${base}/roles/${roleId}`,
    memberships: (roleId: string) => `${base}/roles/${roleId}/role_memberships`,
    membership: (roleId: string, id: string) => `${base}/roles/${roleId}/role_memberships/${id}`,
    resourceAccesses: `${base}/resource_access`,
    resourceAccess: (id: number | string) => `${base}/resource_access/${id}`,
  };
};

/** The flag routes of a project, role access (§5.4) included. */
export const flagPaths = (projectId: number | string) => {
  const flags = `/api/projects/${projectId}/feature_flags`;
  return {
    flags,
    flag: (id: number | string) => `${flags}/${id}`,
    roleAccesses: (flagId: number | string) => `${flags}/${flagId}/role_access`,
    roleAccess: (flagId: number | string, id: number | string) => `${flags}/${flagId}/role_access/${id}`,
  };
};

/** Steps that must succeed; each asserts its own status so a broken setup fails where it happens. */
export function roleSteps(app: TestApp) {
  const expectStatus = <T extends { status: number; body: any }>(res: T, status: number, what: string): T => {
    if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
    // Rows are stamped from the app's clock, which stands still: each creation a millisecond after the
    // last keeps lists ordered by creation time (roles, members, grants: their ids are UUIDs) defined.
    if (status === 201) app.clock.advance(1);
    return res;
  };
  return {
    async createRole(organization: OrganizationRef, key: string, body: Record<string, unknown>) {
      return expectStatus(
        await app.request(orgPaths(organization).roles, { method: 'POST', key, body }),
        201,
        `create role ${JSON.stringify(body)}`,
      ).body;
    },
    async addMember(organization: OrganizationRef, key: string, roleId: string, user: User) {
      const path = orgPaths(organization).memberships(roleId);
      return expectStatus(await app.request(path, { method: 'POST', key, body: { user_uuid: user.uuid } }), 201, 'add role member').body;
    },
    /** Sets the organization's flag access level: creates the `feature flags` record, or changes it. */
    async setFlagAccessLevel(organization: OrganizationRef, key: string, level: 21 | 37) {
      const paths = orgPaths(organization);
      const list = expectStatus(await app.request(paths.resourceAccesses, { key }), 200, 'list resource access').body;
      if (list.results.length) {
        const path = paths.resourceAccess(list.results[0].id);
        return expectStatus(await app.request(path, { method: 'PATCH', key, body: { access_level: level } }), 200, 'patch resource access')
          .body;
      }
      const body = { resource: 'feature flags', access_level: level };
      return expectStatus(await app.request(paths.resourceAccesses, { method: 'POST', key, body }), 201, 'create resource access').body;
    },
    async createFlag(projectId: number, key: string, body: Record<string, unknown>) {
      return expectStatus(
        await app.request(flagPaths(projectId).flags, { method: 'POST', key, body }),
        201,
        `create flag ${JSON.stringify(body)}`,
      ).body;
    },
    async grant(projectId: number, key: string, flagId: number, roleId: string) {
      const path = flagPaths(projectId).roleAccesses(flagId);
      return expectStatus(await app.request(path, { method: 'POST', key, body: { role_id: roleId } }), 201, 'grant role access').body;
    },
    /** Changes a user's membership level in an organization directly (there is no REST route for it). */
    async setMembershipLevel(organization: OrganizationRef, user: User, level: 1 | 8 | 15) {
      await app.factories.sql('update organization_membership set level = ? where organization_id = ? and user_id = ?', [
        level,
        orgId(organization),
        user.id,
      ]);
    },
  };
}
