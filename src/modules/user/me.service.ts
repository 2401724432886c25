import { authenticate } from '../../auth/access';
import type { AppContext } from '../../context';
import type { Organization } from '../organization/organization.entity';
import { OrganizationMembership } from '../organization/organization-membership.entity';
import { Project } from '../project/project.entity';
import type { User } from './user.entity';

/**
 * What `me` shows: the caller and what their key lets them reach. A key limited to organizations
 * or projects sees only those (as on the routes); other users' memberships are never shown.
 */
export const MeService = {
  async me(ctx: AppContext): Promise<{ user: User; organizations: Organization[] }> {
    const { user, key } = await authenticate(ctx);
    const memberships = await ctx.em.find(
      OrganizationMembership,
      { user: user.id },
      { populate: ['organization'], orderBy: { joinedAt: 'asc', id: 'asc' } },
    );
    // A key limited to projects reaches only their organizations.
    const reachable = key.scopedTeams?.length
      ? new Set((await ctx.em.find(Project, { id: { $in: key.scopedTeams } }, { fields: ['organization'] })).map((p) => p.organization.id))
      : null;
    const organizations = memberships
      .map((m) => m.organization)
      .filter((o) => !key.scopedOrganizations?.length || key.scopedOrganizations.includes(o.id))
      .filter((o) => !reachable || reachable.has(o.id));
    return { user, organizations };
  },

  /** An organization's projects the caller's key may reach. */
  async reachableProjects(ctx: AppContext, organizationId: string): Promise<Project[]> {
    const { key } = await authenticate(ctx);
    const projects = await ctx.loaders.organizationProjects.load(organizationId);
    return projects.filter((p) => !key.scopedTeams?.length || key.scopedTeams.includes(p.id));
  },
};
