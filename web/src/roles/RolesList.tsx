import { useState } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { Link } from 'react-router';
import { graphql } from '../gql';
import type { FlagAccessLevel } from '../gql/graphql';
import { ErrorMessage, refusalOf } from '../errors';
import { FieldError, TextField } from '../fields';
import { LEVEL_WORDS, useRoleOrganization } from './organization';
import './roles.css';

const RolesQuery = graphql(`
  query ConsoleRoles($organizationId: ID!) {
    roles(organizationId: $organizationId, limit: 1000) {
      count
      results {
        id
        name
        featureFlagsAccessLevel
        members {
          id
        }
        associatedFlags {
          id
        }
      }
    }
  }
`);

const CreateRole = graphql(`
  mutation ConsoleCreateRole($organizationId: ID!, $input: RoleCreateInput!) {
    createRole(organizationId: $organizationId, input: $input) {
      id
      name
    }
  }
`);

/** The organization's roles: name, flag access and members; admins create new ones here. */
export function RolesList() {
  const { organization, manage, readOnlyReason, error: orgError } = useRoleOrganization();
  const organizationId = organization?.id ?? '';
  const { data, error, refetch } = useQuery(RolesQuery, { variables: { organizationId }, skip: !organization });
  const [create, creating] = useMutation(CreateRole);
  const [name, setName] = useState('');
  const [level, setLevel] = useState<FlagAccessLevel>('CAN_ONLY_VIEW');
  const [created, setCreated] = useState<string | null>(null);
  const refusal = refusalOf(creating.error);

  if (orgError) return <ErrorMessage error={orgError} title="The organization could not be loaded." />;
  return (
    <section aria-labelledby="roles-title">
      <div className="page-head">
        <h1 id="roles-title">Roles</h1>
      </div>
      {organization ? <p className="muted">Roles of {organization.name}: members of a role share its access to feature flags.</p> : null}
      {readOnlyReason ? <p className="note">{readOnlyReason}</p> : null}
      <ErrorMessage error={error} title="The roles could not be loaded." />
      {!data && !error ? <p className="loading">Loading roles…</p> : null}
      {data ? (
        <table>
          <caption className="visually-hidden">Roles</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Flag access</th>
              <th scope="col">Members</th>
              <th scope="col">Flags granted</th>
            </tr>
          </thead>
          <tbody>
            {data.roles.results.map((role) => (
              <tr key={role.id}>
                <td>
                  <Link to={`/roles/${role.id}`}>{role.name}</Link>
                </td>
                <td>{LEVEL_WORDS[role.featureFlagsAccessLevel]}</td>
                <td>{role.members.length}</td>
                <td>{role.associatedFlags.length}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {data && data.roles.results.length === 0 ? <p>No roles yet.</p> : null}
      {manage ? (
        <form
          className="role-section"
          aria-labelledby="new-role-title"
          onSubmit={(event) => {
            event.preventDefault();
            setCreated(null);
            void create({ variables: { organizationId, input: { name, featureFlagsAccessLevel: level } } })
              .then((result) => {
                setCreated(result.data?.createRole.name ?? name);
                setName('');
                return refetch();
              })
              .catch(() => undefined);
          }}
        >
          <h2 id="new-role-title">New role</h2>
          <div className="role-actions">
            <TextField id="new-role-name" label="Role name" value={name} onChange={setName} problem={refusal.fields.name} required />
            <div className="field">
              <label htmlFor="new-role-level">Flag access</label>
              <select
                id="new-role-level"
                value={level}
                onChange={(event) => setLevel(event.target.value as FlagAccessLevel)}
                aria-describedby="new-role-level-error"
              >
                <option value="CAN_ONLY_VIEW">{LEVEL_WORDS.CAN_ONLY_VIEW}</option>
                <option value="CAN_ALWAYS_EDIT">{LEVEL_WORDS.CAN_ALWAYS_EDIT}</option>
              </select>
              <FieldError id="new-role-level-error" message={refusal.fields.feature_flags_access_level} />
            </div>
            <div className="field">
              <button type="submit" disabled={creating.loading || !name.trim()}>
                Create role
              </button>
            </div>
          </div>
          {refusal.general.length ? <ErrorMessage error={creating.error} title="Not created." /> : null}
          {created ? <p role="status">Created {created}.</p> : null}
        </form>
      ) : null}
    </section>
  );
}
