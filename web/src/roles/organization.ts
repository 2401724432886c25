import { useQuery } from '@apollo/client/react';
import { graphql } from '../gql';
import { useConsole } from '../Layout';

const OrganizationQuery = graphql(`
  query ConsoleRoleOrganization {
    me {
      organizations {
        id
        name
        membershipLevel
        projects {
          id
        }
      }
    }
  }
`);

export const LEVEL_WORDS = {
  CAN_ALWAYS_EDIT: 'Can edit every flag',
  CAN_ONLY_VIEW: 'Can only view flags (edits those granted)',
} as const;

/**
 * The organization of the console's project, whether the caller may manage its roles (an admin or
 * owner whose key has `organization:write`), and why not when they may not.
 */
export function useRoleOrganization() {
  const { projectId, canWrite } = useConsole();
  const { data, error, loading } = useQuery(OrganizationQuery);
  const organization = data?.me.organizations.find((o) => o.projects.some((p) => String(p.id) === projectId)) ?? null;
  const admin = organization !== null && organization.membershipLevel !== 'MEMBER';
  const manage = admin && canWrite('organization');
  const readOnlyReason = !organization
    ? null
    : !admin
      ? 'Only organization admins can change roles: you can read them here.'
      : !manage
        ? 'This key cannot change roles: it needs the organization:write scope.'
        : null;
  return { organization, manage, readOnlyReason, error, loading };
}
