import { Ctx, Field, FieldResolver, ObjectType, Query, Resolver, Root } from 'type-graphql';
import { authenticate } from '../../auth/access';
import type { AppContext } from '../../context';
import { Organization } from '../organization/organization.entity';
import { OrganizationMembership } from '../organization/organization-membership.entity';
import { Project } from '../project/project.entity';
import { User } from './user.entity';

/** The caller, with what their key lets them see. Other users never expose their memberships. */
@ObjectType()
export class Me {
  @Field(() => User) user!: User;
  @Field(() => [Organization]) organizations!: Organization[];
}

@Resolver(() => Me)
export class MeResolver {
  @Query(() => Me, { description: 'The user the API key belongs to.' })
  async me(@Ctx() ctx: AppContext): Promise<Me> {
    const { user, key } = await authenticate(ctx);
    const memberships = await ctx.em.find(
      OrganizationMembership,
      { user: user.id },
      { populate: ['organization'], orderBy: { joinedAt: 'asc', id: 'asc' } },
    );
    // A key limited to projects reaches only their organizations (as on the project routes).
    const reachable = key.scopedTeams?.length
      ? new Set((await ctx.em.find(Project, { id: { $in: key.scopedTeams } }, { fields: ['organization'] })).map((p) => p.organization.id))
      : null;
    const organizations = memberships
      .map((m) => m.organization)
      .filter((o) => !key.scopedOrganizations?.length || key.scopedOrganizations.includes(o.id))
      .filter((o) => !reachable || reachable.has(o.id));
    return { user, organizations };
  }
}

@Resolver(() => Organization)
export class OrganizationResolver {
  @FieldResolver(() => [Project], { description: "The organization's projects the caller's key may reach." })
  async projects(@Root() organization: Organization, @Ctx() ctx: AppContext): Promise<Project[]> {
    const { key } = await authenticate(ctx);
    const projects = await ctx.loaders.organizationProjects.load(organization.id);
    return projects.filter((p) => !key.scopedTeams?.length || key.scopedTeams.includes(p.id));
  }
}
