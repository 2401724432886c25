import { Arg, Args, Ctx, FieldResolver, ID, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../../context';
import { ORGANIZATION_ID_DESCRIPTION } from '../../graphql/arguments';
import { PageOf } from '../../graphql/page';
import { PageArgsInput } from '../role/role.inputs';
import { User } from '../user/user.entity';
import { OrganizationLevelName, OrganizationMembership } from './organization-membership.entity';
import { Organization } from './organization.entity';
import { OrganizationService } from './organization.service';

const OrganizationMemberPage = PageOf(OrganizationMembership, 'OrganizationMemberPage', 'organization members');

/**
 * SPEC-GAP: the REST API has no member list; the console needs one to add members to roles
 * (docs/console.md "Roles"). Any member may read it (`organization:read`), as with roles.
 */
@Resolver(() => OrganizationMembership)
export class OrganizationMemberResolver {
  @Query(() => OrganizationMemberPage, {
    description: "An organization's active members, in the order they joined (needs `organization:read`).",
  })
  organizationMembers(
    @Ctx() ctx: AppContext,
    @Arg('organizationId', () => ID, { description: ORGANIZATION_ID_DESCRIPTION }) organizationId: string,
    @Args() page: PageArgsInput,
  ) {
    return OrganizationService.members(ctx, organizationId, page);
  }

  @FieldResolver(() => User, { description: 'The member.' })
  user(@Root() membership: OrganizationMembership, @Ctx() ctx: AppContext) {
    return ctx.loaders.user.load(membership.user.id);
  }
}

@Resolver(() => Organization)
export class OrganizationCallerLevelResolver {
  @FieldResolver(() => OrganizationLevelName, {
    description: "The calling user's membership level here: admins and owners manage roles (docs/rest-api.md §5).",
  })
  membershipLevel(@Root() organization: Organization, @Ctx() ctx: AppContext) {
    return OrganizationService.callerLevel(ctx, organization.id);
  }
}
