import type { EntityManager } from '@mikro-orm/postgresql';
import { authenticate } from '../../auth/access';
import { accessOrganization } from '../../auth/organization-access';
import type { AppContext } from '../../context';
import { findPage, type Page, type PageArgs } from '../../pagination';
import { Project } from '../project/project.entity';
import type { User } from '../user/user.entity';
import { Organization } from './organization.entity';
import { MembershipLevel, OrganizationMembership } from './organization-membership.entity';

export type MembershipLevelName = keyof typeof MembershipLevel;

export const OrganizationService = {
  create(em: EntityManager, name: string): Organization {
    return em.create(Organization, { name });
  },

  /** Adds the user; their `@current` project becomes the organization's first one if they had none. */
  async addMember(em: EntityManager, organization: Organization, user: User, level: MembershipLevelName): Promise<OrganizationMembership> {
    const membership = em.create(OrganizationMembership, { organization, user, level: MembershipLevel[level] });
    if (user.currentProjectId === null) {
      const first = await em.findOne(Project, { organization: organization.id }, { orderBy: { id: 'asc' } });
      if (first) user.currentProjectId = first.id;
    }
    return membership;
  },

  /** The organization's active members, oldest membership first: a page (at most 1000). */
  async members(ctx: AppContext, organizationRef: unknown, args: PageArgs): Promise<Page<OrganizationMembership>> {
    const { organization } = await accessOrganization(ctx, organizationRef, 'organization:read');
    return findPage(
      ctx.em,
      OrganizationMembership,
      { organization: organization.id, user: { isActive: true } },
      { joinedAt: 'asc', id: 'asc' },
      args,
    );
  },

  /** The caller's membership level in an organization they belong to (`me.organizations`). */
  async callerLevel(ctx: AppContext, organizationId: string): Promise<number> {
    const { user } = await authenticate(ctx);
    const membership = await ctx.em.findOne(OrganizationMembership, { organization: organizationId, user: user.id });
    return membership?.level ?? MembershipLevel.member;
  },
};
