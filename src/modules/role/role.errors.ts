import { authErrors, ValidationError } from '../../errors';

/** The roles capability's messages (docs/rest-api.md §5). */
export const roleErrors = {
  nameTaken: () => new ValidationError('unique', 'There is already a role with this name.', 'name'),
  userDoesNotExist: () => new ValidationError('invalid_input', 'User does not exist.'),
  alreadyMember: () => new ValidationError('invalid_input', 'User is already part of the role.'),
  resourceAccessExists: () => new ValidationError('unique', 'This resource access already exists.', 'resource'),
  roleAlreadyHasAccess: () => new ValidationError('unique', 'This role already has access to this feature flag.', 'role_id'),
  cannotEditFlagRoles: () => authErrors.forbidden("You can't edit roles for this feature flag."),
};
