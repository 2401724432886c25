import { useState } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { graphql } from '../gql';
import { useConsole } from '../Layout';
import { ErrorMessage } from '../errors';
import { Stored } from '../Stored';

const Permissions = graphql(`
  query ConsoleFlagPermissions($projectId: ID!, $id: Int!) {
    featureFlag(projectId: $projectId, id: $id) {
      id
      roleAccess {
        id
        role {
          id
          name
        }
      }
    }
    roles(organizationId: "@current", limit: 1000) {
      results {
        id
        name
      }
    }
  }
`);

const Grant = graphql(`
  mutation ConsoleGrantRole($projectId: ID!, $flagId: Int!, $roleId: String!) {
    grantFeatureFlagRoleAccess(projectId: $projectId, featureFlagId: $flagId, input: { roleId: $roleId }) {
      id
    }
  }
`);

const Revoke = graphql(`
  mutation ConsoleRevokeRole($projectId: ID!, $flagId: Int!, $id: Int!) {
    revokeFeatureFlagRoleAccess(projectId: $projectId, featureFlagId: $flagId, id: $id)
  }
`);

/** Roles that may edit this flag (when the organization restricts editing): grant and revoke. */
export function FlagPermissions({ flagId, editable }: { flagId: number; editable: boolean }) {
  const { projectId } = useConsole();
  const { data, error, refetch } = useQuery(Permissions, { variables: { projectId, id: flagId } });
  const [grant, granting] = useMutation(Grant);
  const [revoke, revoking] = useMutation(Revoke);
  const [roleId, setRoleId] = useState('');
  if (error && !data) return <ErrorMessage error={error} title="The permissions could not be loaded." />;
  if (!data) return <p className="loading">Loading permissions…</p>;
  const granted = data.featureFlag.roleAccess;
  const available = data.roles.results.filter((role) => !granted.some((access) => access.role.id === role.id));
  return (
    <div>
      <h2>Roles that can edit</h2>
      {granted.length === 0 ? <p>No role has been given access: the organization's default level applies.</p> : null}
      <ul>
        {granted.map((access) => (
          <li key={access.id}>
            <Stored text={access.role.name} />{' '}
            {editable ? (
              <button
                type="button"
                disabled={revoking.loading}
                onClick={() =>
                  void revoke({ variables: { projectId, flagId, id: access.id } })
                    .then(() => refetch())
                    .catch(() => undefined)
                }
              >
                Revoke <Stored text={access.role.name} />
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      {editable ? (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (roleId)
              void grant({ variables: { projectId, flagId, roleId } })
                .then(() => refetch())
                .catch(() => undefined);
          }}
        >
          <label>
            Role{' '}
            <select value={roleId} onChange={(event) => setRoleId(event.target.value)}>
              <option value="">Choose a role</option>
              {available.map((role) => (
                <option key={role.id} value={role.id}>
                  {role.name}
                </option>
              ))}
            </select>
          </label>{' '}
          <button type="submit" disabled={!roleId || granting.loading}>
            Grant access
          </button>
        </form>
      ) : null}
      <ErrorMessage error={granting.error ?? revoking.error} title="Not changed." />
    </div>
  );
}
