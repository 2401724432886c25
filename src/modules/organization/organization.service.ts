import type { EntityManager } from '@mikro-orm/postgresql';
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
};
