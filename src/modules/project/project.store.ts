import type { EntityManager } from '@mikro-orm/postgresql';
import { runPrepared, type PreparedStatement } from '../../db/prepared';
import { FEATURE_FLAGS_RESOURCE } from '../role/organization-resource-access.entity';
import { Project } from './project.entity';
import { projectFromRow } from './project.rows';

/** A project (a plain object, projectFromRow) with what the access checks need about one user there, or null for an unknown project. */
export interface ProjectForUser {
  project: Project;
  /** The user's membership level in the project's organization; null when not a member. */
  membershipLevel: number | null;
  /** The organization's `feature flags` resource-access level; null when none is set. */
  flagAccessLevel: number | null;
  /** The highest `feature_flags_access_level` among the user's roles there; null without roles. */
  roleLevel: number | null;
}

/**
 * Every admin request's access check (src/auth/access.ts): prepared, as it runs once per request.
 * The project's columns are named (a prepared `p.*` fails once a newer version adds a column).
 */
const PROJECT_FOR_USER: PreparedStatement = {
  name: 'flagship_project_for_user',
  text: `select p.id, p.organization_id, p.name, p.api_token, p.secret_api_token, p.created_at, m.level as membership_level,
                (select ra.access_level from organization_resource_access ra
                  where ra.organization_id = p.organization_id and ra.resource = $1) as flag_access_level,
                (select max(r.feature_flags_access_level) from role r join role_membership rm on rm.role_id = r.id
                  where r.organization_id = p.organization_id and rm.user_id = $2) as role_level
           from project p
           left join organization_membership m on m.organization_id = p.organization_id and m.user_id = $2
          where p.id = $3`,
};

const numberOrNull = (value: unknown) => (value === null || value === undefined ? null : Number(value));

/** The project table's queries for access checks and SDK tokens. */
export const ProjectStore = {
  /** The project and the user's standing in its organization, in one statement. */
  async forUser(em: EntityManager, projectId: number, userId: number): Promise<ProjectForUser | null> {
    const rows = await runPrepared<Record<string, unknown>>(em, PROJECT_FOR_USER, [FEATURE_FLAGS_RESOURCE, userId, projectId]);
    if (rows.length === 0) return null;
    const { membership_level, flag_access_level, role_level, ...projectRow } = rows[0];
    return {
      project: projectFromRow(projectRow),
      membershipLevel: numberOrNull(membership_level),
      flagAccessLevel: numberOrNull(flag_access_level),
      roleLevel: numberOrNull(role_level),
    };
  },

  /** The id of the project holding this public or secret token, or null. */
  async idForToken(em: EntityManager, column: 'api_token' | 'secret_api_token', token: string): Promise<number | null> {
    const rows: Array<{ id: number }> = await em.getConnection().execute(`select id from project where ${column} = ?`, [token]);
    return rows.length === 0 ? null : Number(rows[0].id);
  },

  /** Whether a project with this id exists: one statement. */
  async exists(em: EntityManager, projectId: number): Promise<boolean> {
    const rows: unknown[] = await em.execute('select 1 from project where id = ?', [projectId]);
    return rows.length > 0;
  },

  /** The organization of a project, or null for an unknown project. */
  async organizationOf(em: EntityManager, projectId: number): Promise<string | null> {
    const project = await em.findOne(Project, projectId, { fields: ['organization'] });
    return project?.organization.id ?? null;
  },
};
