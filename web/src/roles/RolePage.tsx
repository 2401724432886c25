import { useState } from 'react';
import { useApolloClient, useMutation, useQuery } from '@apollo/client/react';
import { Link, useNavigate, useParams } from 'react-router';
import { graphql } from '../gql';
import type { ConsoleRoleQuery, FlagAccessLevel } from '../gql/graphql';
import { useConsole } from '../Layout';
import { ErrorMessage, refusalOf } from '../errors';
import { FieldError, TextField } from '../fields';
import { LEVEL_WORDS, useRoleOrganization } from './organization';
import './roles.css';

const RoleQuery = graphql(`
  query ConsoleRole($organizationId: ID!, $id: String!) {
    role(organizationId: $organizationId, id: $id) {
      id
      name
      featureFlagsAccessLevel
      createdAt
      members {
        id
        joinedAt
        user {
          id
          uuid
          email
          firstName
        }
      }
      associatedFlags {
        id
        key
      }
    }
  }
`);

const MembersQuery = graphql(`
  query ConsoleOrganizationMembers($organizationId: ID!) {
    organizationMembers(organizationId: $organizationId, limit: 1000) {
      results {
        id
        user {
          uuid
          email
          firstName
        }
      }
    }
  }
`);

const FlagSearch = graphql(`
  query ConsoleRoleFlagSearch($projectId: ID!, $search: String) {
    featureFlags(projectId: $projectId, search: $search, limit: 10) {
      count
      results {
        id
        key
        name
      }
    }
  }
`);

const FlagAccesses = graphql(`
  query ConsoleRoleFlagAccesses($projectId: ID!, $flagId: Int!) {
    featureFlagRoleAccesses(projectId: $projectId, featureFlagId: $flagId, limit: 1000) {
      results {
        id
        role {
          id
        }
      }
    }
  }
`);

const UpdateRole = graphql(`
  mutation ConsoleUpdateRole($organizationId: ID!, $id: String!, $input: RoleUpdateInput!) {
    updateRole(organizationId: $organizationId, id: $id, input: $input) {
      id
      name
      featureFlagsAccessLevel
    }
  }
`);

const DeleteRole = graphql(`
  mutation ConsoleDeleteRole($organizationId: ID!, $id: String!) {
    deleteRole(organizationId: $organizationId, id: $id)
  }
`);

const AddMember = graphql(`
  mutation ConsoleAddRoleMember($organizationId: ID!, $roleId: String!, $userUuid: String!) {
    addRoleMember(organizationId: $organizationId, roleId: $roleId, input: { userUuid: $userUuid }) {
      id
    }
  }
`);

const RemoveMember = graphql(`
  mutation ConsoleRemoveRoleMember($organizationId: ID!, $roleId: String!, $id: String!) {
    removeRoleMember(organizationId: $organizationId, roleId: $roleId, id: $id)
  }
`);

const GrantFlag = graphql(`
  mutation ConsoleRoleGrantFlag($projectId: ID!, $flagId: Int!, $roleId: String!) {
    grantFeatureFlagRoleAccess(projectId: $projectId, featureFlagId: $flagId, input: { roleId: $roleId }) {
      id
    }
  }
`);

const RevokeFlag = graphql(`
  mutation ConsoleRoleRevokeFlag($projectId: ID!, $flagId: Int!, $id: Int!) {
    revokeFeatureFlagRoleAccess(projectId: $projectId, featureFlagId: $flagId, id: $id)
  }
`);

const person = (user: { email: string; firstName: string }) => (user.firstName ? `${user.firstName} (${user.email})` : user.email);

/** One role: rename, access level and delete (admins), its members, and the flags it may edit. */
export function RolePage() {
  const id = useParams().id ?? '';
  const { organization, manage, readOnlyReason, error: orgError } = useRoleOrganization();
  const organizationId = organization?.id ?? '';
  const { data, error, refetch } = useQuery(RoleQuery, { variables: { organizationId, id }, skip: !organization });

  if (orgError) return <ErrorMessage error={orgError} title="The organization could not be loaded." />;
  if (error && !data) return <ErrorMessage error={error} title="The role could not be loaded." />;
  if (!data) return <p className="loading">Loading role…</p>;
  const role = data.role;
  const reload = () => void refetch();
  return (
    <section aria-labelledby="role-title">
      <p>
        <Link to="/roles">All roles</Link>
      </p>
      <div className="page-head">
        <h1 id="role-title">{role.name}</h1>
        <span className="badge off">{LEVEL_WORDS[role.featureFlagsAccessLevel]}</span>
      </div>
      {readOnlyReason ? <p className="note">{readOnlyReason}</p> : null}
      {manage ? <RoleSettings organizationId={organizationId} role={role} /> : null}
      <RoleMembers organizationId={organizationId} role={role} manage={manage} onChange={reload} />
      <RoleFlags role={role} manage={manage} onChange={reload} />
    </section>
  );
}

type RoleData = ConsoleRoleQuery['role'];

function RoleSettings({ organizationId, role }: { organizationId: string; role: RoleData }) {
  const navigate = useNavigate();
  const [name, setName] = useState(role.name);
  const [level, setLevel] = useState<FlagAccessLevel>(role.featureFlagsAccessLevel);
  const [update, updating] = useMutation(UpdateRole);
  const [remove, removing] = useMutation(DeleteRole);
  const [confirming, setConfirming] = useState(false);
  const [saved, setSaved] = useState(false);
  const refusal = refusalOf(updating.error);
  return (
    <div className="role-section">
      <form
        aria-labelledby="role-settings-title"
        onSubmit={(event) => {
          event.preventDefault();
          setSaved(false);
          void update({ variables: { organizationId, id: role.id, input: { name, featureFlagsAccessLevel: level } } })
            .then(() => setSaved(true))
            .catch(() => undefined);
        }}
      >
        <h2 id="role-settings-title">Settings</h2>
        <div className="role-actions">
          <TextField id="role-name" label="Role name" value={name} onChange={setName} problem={refusal.fields.name} required />
          <div className="field">
            <label htmlFor="role-level">Flag access</label>
            <select
              id="role-level"
              value={level}
              onChange={(event) => setLevel(event.target.value as FlagAccessLevel)}
              aria-describedby="role-level-error"
            >
              <option value="CAN_ONLY_VIEW">{LEVEL_WORDS.CAN_ONLY_VIEW}</option>
              <option value="CAN_ALWAYS_EDIT">{LEVEL_WORDS.CAN_ALWAYS_EDIT}</option>
            </select>
            <FieldError id="role-level-error" message={refusal.fields.feature_flags_access_level} />
          </div>
          <div className="field">
            <button type="submit" disabled={updating.loading}>
              Save role
            </button>
          </div>
          <div className="field">
            <button type="button" className="danger" onClick={() => setConfirming(true)}>
              Delete role
            </button>
          </div>
        </div>
        {refusal.general.length ? <ErrorMessage error={updating.error} title="Not saved." /> : null}
        {saved ? <p role="status">Saved.</p> : null}
      </form>
      {confirming ? (
        <div role="alertdialog" aria-labelledby="confirm-role-delete" className="confirm">
          <p id="confirm-role-delete">
            Delete the role {role.name}? Its {role.members.length} members lose the access it gives, and its grants on{' '}
            {role.associatedFlags.length} flags are removed.
          </p>
          <button
            type="button"
            disabled={removing.loading}
            onClick={() =>
              void remove({ variables: { organizationId, id: role.id } })
                .then(() => navigate('/roles'))
                .catch(() => undefined)
            }
          >
            Delete {role.name}
          </button>{' '}
          <button type="button" onClick={() => setConfirming(false)}>
            Cancel
          </button>
          <ErrorMessage error={removing.error} title="Not deleted." />
        </div>
      ) : null}
    </div>
  );
}

function RoleMembers({
  organizationId,
  role,
  manage,
  onChange,
}: {
  organizationId: string;
  role: RoleData;
  manage: boolean;
  onChange: () => void;
}) {
  const members = useQuery(MembersQuery, { variables: { organizationId }, skip: !manage });
  const [add, adding] = useMutation(AddMember);
  const [remove, removing] = useMutation(RemoveMember);
  const [userUuid, setUserUuid] = useState('');
  const inRole = new Set(role.members.map((m) => m.user.uuid));
  const candidates = (members.data?.organizationMembers.results ?? []).filter((m) => !inRole.has(m.user.uuid));
  const refusal = refusalOf(adding.error);
  return (
    <div className="role-section">
      <h2 id="role-members-title">Members</h2>
      {role.members.length === 0 ? <p>No members yet.</p> : null}
      {role.members.length ? (
        <table aria-labelledby="role-members-title">
          <thead>
            <tr>
              <th scope="col">Member</th>
              <th scope="col">Joined the role</th>
              {manage ? (
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {role.members.map((membership) => (
              <tr key={membership.id}>
                <td>{person(membership.user)}</td>
                <td>{new Date(membership.joinedAt).toLocaleString()}</td>
                {manage ? (
                  <td>
                    <button
                      type="button"
                      disabled={removing.loading}
                      onClick={() =>
                        void remove({ variables: { organizationId, roleId: role.id, id: membership.id } })
                          .then(onChange)
                          .catch(() => undefined)
                      }
                    >
                      Remove {membership.user.email}
                    </button>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <ErrorMessage error={removing.error} title="Not removed." />
      {manage ? (
        <form
          className="role-actions"
          onSubmit={(event) => {
            event.preventDefault();
            if (!userUuid) return;
            void add({ variables: { organizationId, roleId: role.id, userUuid } })
              .then(() => {
                setUserUuid('');
                onChange();
              })
              .catch(() => undefined);
          }}
        >
          <div className="field">
            <label htmlFor="role-new-member">Organization member</label>
            <select
              id="role-new-member"
              value={userUuid}
              onChange={(event) => setUserUuid(event.target.value)}
              aria-describedby="role-new-member-error"
              aria-invalid={refusal.fields.user_uuid ? true : undefined}
            >
              <option value="">Choose a member</option>
              {candidates.map((m) => (
                <option key={m.id} value={m.user.uuid}>
                  {person(m.user)}
                </option>
              ))}
            </select>
            <FieldError id="role-new-member-error" message={refusal.fields.user_uuid} />
          </div>
          <div className="field">
            <button type="submit" disabled={!userUuid || adding.loading}>
              Add member
            </button>
          </div>
        </form>
      ) : null}
      {refusal.general.length ? <ErrorMessage error={adding.error} title="Not added." /> : null}
      <ErrorMessage error={members.error} title="The organization's members could not be loaded." />
    </div>
  );
}

function RoleFlags({ role, manage, onChange }: { role: RoleData; manage: boolean; onChange: () => void }) {
  const { projectId, canWrite } = useConsole();
  const client = useApolloClient();
  const grantable = manage && canWrite('feature_flag');
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState<string | null>(null);
  const found = useQuery(FlagSearch, { variables: { projectId, search: search || null }, skip: search === null });
  const [grant, granting] = useMutation(GrantFlag);
  const [revoke] = useMutation(RevokeFlag);
  const [revokeError, setRevokeError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const granted = new Set(role.associatedFlags.map((f) => f.id));

  // The role lists flags, not its access records: the record to delete is read from the flag.
  const onRevoke = async (flagId: number) => {
    setRevokeError(null);
    setBusy(true);
    try {
      const { data } = await client.query({ query: FlagAccesses, variables: { projectId, flagId }, fetchPolicy: 'network-only' });
      const record = data?.featureFlagRoleAccesses.results.find((access) => access.role.id === role.id);
      if (record) await revoke({ variables: { projectId, flagId, id: record.id } });
      onChange();
    } catch (failure) {
      setRevokeError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="role-section">
      <h2 id="role-flags-title">Flags this role may edit</h2>
      <p className="muted">Members of this role may edit these flags even when the organization or the role only lets them view flags.</p>
      {role.associatedFlags.length === 0 ? <p>No flag has been granted to this role.</p> : null}
      <ul aria-labelledby="role-flags-title">
        {role.associatedFlags.map((flag) => (
          <li key={flag.id}>
            <Link to={`/feature-flags/${flag.id}?tab=Permissions`}>{flag.key}</Link>{' '}
            {grantable ? (
              <button type="button" disabled={busy} onClick={() => void onRevoke(flag.id)}>
                Revoke {flag.key}
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      {revokeError ? <ErrorMessage error={revokeError} title="Not revoked." /> : null}
      {grantable ? (
        <div>
          <form
            role="search"
            aria-label="Find a flag to grant"
            className="role-actions"
            onSubmit={(event) => {
              event.preventDefault();
              setSearch(searchText.trim());
            }}
          >
            <div className="field">
              <label htmlFor="role-flag-search">Find a flag</label>
              <input
                id="role-flag-search"
                type="search"
                value={searchText}
                placeholder="key or name"
                onChange={(event) => setSearchText(event.target.value)}
              />
            </div>
            <div className="field">
              <button type="submit">Search flags</button>
            </div>
          </form>
          <ErrorMessage error={found.error} title="The flags could not be searched." />
          {found.data ? (
            <>
              <p className="muted" aria-live="polite">
                {found.data.featureFlags.count === 0
                  ? 'No flag matches.'
                  : `${found.data.featureFlags.count} ${found.data.featureFlags.count === 1 ? 'flag matches' : 'flags match'}${found.data.featureFlags.count > 10 ? ', the first 10 shown' : ''}.`}
              </p>
              <ul className="search-results">
                {found.data.featureFlags.results.map((flag) => (
                  <li key={flag.id}>
                    <code>{flag.key}</code> {flag.name ? <span className="muted">{flag.name}</span> : null}{' '}
                    {granted.has(flag.id) ? (
                      <span className="muted">(granted)</span>
                    ) : (
                      <button
                        type="button"
                        disabled={granting.loading}
                        onClick={() =>
                          void grant({ variables: { projectId, flagId: flag.id, roleId: role.id } })
                            .then(onChange)
                            .catch(() => undefined)
                        }
                      >
                        Grant {flag.key}
                      </button>
                    )}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          <ErrorMessage error={granting.error} title="Not granted." />
        </div>
      ) : null}
    </div>
  );
}
