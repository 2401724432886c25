import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller } from '../auth/access';
import { createAppCaches } from '../app-caches';
import { clockOf } from '../clock';
import { createContext, type AppContext } from '../context';
import { DefinitionsCache } from '../modules/flag-evaluation/definitions-cache';
import { localEvaluationDefinitions } from '../modules/flag-evaluation/local-evaluation';
import { ProjectStore } from '../modules/project/project.store';
import { UserStore } from '../modules/user/user.store';
import { LookupFailed } from './lookup-failed';

/**
 * An AppContext for a CLI command acting as one user of a project's organization, so the command
 * goes through the same services, rules and presentation as a request. The operator holds the
 * database, so there is no key to check: the caller is the user with an unscoped key (every scope,
 * no project limit); membership and flag edit rights are still checked as for that user. SDK
 * definitions are never cached here: a command is one short-lived process.
 */
export function operatorContext(em: EntityManager, caller: Caller): AppContext {
  const definitions = new DefinitionsCache((projectId) => localEvaluationDefinitions(em, projectId), { trusted: false });
  const source = { method: 'CLI', url: () => new URL('http://cli.invalid/'), headers: {}, query: {}, body: undefined };
  // A fresh cache per command: nothing a command looks up is remembered beyond it.
  // The ORM's clock: the system's for a command; the app's for a job of a running service.
  const clock = clockOf(em);
  return createContext({ em, definitions, clock, caches: createAppCaches(clock) }, source, { caller, em });
}

/**
 * Who a project command acts as: the user named by `--email`, else the earliest owner of the
 * project's organization. Errors are plain messages for the CLI's standard error.
 */
export async function operatorFor(em: EntityManager, projectId: number, email: string | undefined): Promise<Caller> {
  const user = await UserStore.memberOfProject(em, projectId, email ? email.trim().toLowerCase() : null);
  if (!user) {
    if (!(await ProjectStore.exists(em, projectId))) throw new LookupFailed(`Project not found: ${projectId}`);
    throw new LookupFailed(
      email
        ? `${email} is not a member of project ${projectId}'s organization`
        : `Project ${projectId}'s organization has no owner; give --email`,
    );
  }
  return { user, key: { id: 0, scopes: null, scopedTeams: null, scopedOrganizations: null, lastUsedAt: new Date() } };
}
