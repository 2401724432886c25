import { createContext, useContext, useState } from 'react';
import { useQuery } from '@apollo/client/react';
import { NavLink, Outlet } from 'react-router';
import { graphql } from './gql';
import { session } from './session';
import { ErrorMessage } from './errors';

const MeQuery = graphql(`
  query ConsoleMe {
    me {
      user {
        id
        email
        firstName
        distinctId
      }
      organizations {
        id
        name
        projects {
          id
          name
        }
      }
    }
    personalApiKey(id: "@current") {
      id
      label
      scopes
    }
  }
`);

export interface ConsoleState {
  projectId: string;
  userId: number;
  distinctId: string;
  /** Whether the key's scopes allow `<object>:write` (`*` or no scopes: everything). */
  canWrite(object: string): boolean;
  canRead(object: string): boolean;
}

const ConsoleContext = createContext<ConsoleState | null>(null);

export function useConsole(): ConsoleState {
  const state = useContext(ConsoleContext);
  if (!state) throw new Error('useConsole outside the layout');
  return state;
}

const PROJECT_KEY = 'flagship.projectId';

/** The signed-in frame: who, which organization and project, the navigation, and the page. */
export function Layout() {
  const { data, error, loading } = useQuery(MeQuery);
  const [chosen, setChosen] = useState<string | null>(() => sessionStorage.getItem(PROJECT_KEY));
  if (loading && !data) return <p className="loading">Loading…</p>;
  if (!data)
    return (
      <main>
        <ErrorMessage error={error} title="The console could not load your account." />
        <button type="button" onClick={() => session.signOut()}>
          Sign out
        </button>
      </main>
    );

  const projects = data.me.organizations.flatMap((organization) =>
    organization.projects.map((project) => ({ ...project, id: String(project.id), organization })),
  );
  const project = projects.find((p) => p.id === chosen) ?? projects[0];
  const scopes = data.personalApiKey.scopes;
  const allows = (object: string, action: 'read' | 'write') =>
    scopes.length === 0 ||
    scopes.includes('*') ||
    scopes.includes(`${object}:write`) ||
    (action === 'read' && scopes.includes(`${object}:read`));
  const choose = (id: string) => {
    sessionStorage.setItem(PROJECT_KEY, id);
    setChosen(id);
  };

  return (
    <div className="frame">
      <header className="top">
        <span className="brand">Flagship</span>
        {project ? (
          <>
            <span className="organization">{project.organization.name}</span>
            <label className="project">
              Project{' '}
              <select value={project.id} onChange={(event) => choose(event.target.value)}>
                {projects.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.organization.name} / {p.name}
                  </option>
                ))}
              </select>
            </label>
          </>
        ) : null}
        <span className="user">{data.me.user.email}</span>
        <button type="button" onClick={() => session.signOut()}>
          Sign out
        </button>
      </header>
      <nav aria-label="Main">
        <NavLink to="/feature-flags">Feature flags</NavLink>
        <NavLink to="/experiments">Experiments</NavLink>
        <NavLink to="/cohorts">Cohorts</NavLink>
        <NavLink to="/activity">Activity</NavLink>
        <NavLink to="/roles">Roles</NavLink>
      </nav>
      <main>
        {project ? (
          <ConsoleContext.Provider
            value={{
              projectId: project.id,
              userId: data.me.user.id,
              distinctId: data.me.user.distinctId,
              canWrite: (object) => allows(object, 'write'),
              canRead: (object) => allows(object, 'read'),
            }}
          >
            <Outlet key={project.id} />
          </ConsoleContext.Provider>
        ) : (
          <p role="alert">This key reaches no project.</p>
        )}
      </main>
    </div>
  );
}
