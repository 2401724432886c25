import { authErrors, fieldErrors } from '../../errors';

/** The personal API key endpoints' messages (docs/rest-api.md §2). */
export const keyErrors = {
  invalidScope: (scope: string) => fieldErrors.invalidInput(`Invalid scope: ${scope}`, 'scopes'),
  tooMany: (max: number) =>
    fieldErrors.invalidInput(`You can only have ${max} personal API keys. Remove an existing key before creating a new one.`),
  notMemberOfProjects: () =>
    fieldErrors.invalidInput('You must be a member of all projects that you are scoping the key to.', 'scoped_teams'),
  notMemberOfOrganizations: () =>
    fieldErrors.invalidInput('You must be a member of all organizations that you are scoping the key to.', 'scoped_organizations'),
  invalidOrganizationId: (id: string) => fieldErrors.invalidInput(`Invalid organization id: ${id}`, 'scoped_organizations'),
  invalidProjectIds: () => fieldErrors.invalidInput('Project ids must be positive integers.', 'scoped_teams'),
  broaderThanCaller: () => authErrors.forbidden('API key cannot create a key with more access than its own.'),
  revokeBroader: () => authErrors.forbidden('API key cannot revoke a key with more access than its own.'),
};
