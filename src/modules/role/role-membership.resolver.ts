import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../../context';
import { ORGANIZATION_ID_DESCRIPTION } from '../../graphql/arguments';
import { PageOf } from '../../graphql/page';
import { User } from '../user/user.entity';
import { RoleMembership } from './role-membership.entity';
import { RoleMembershipService } from './role-membership.service';
import { PageArgsInput, RoleMembershipInput } from './role.inputs';

const RoleMembershipPage = PageOf(RoleMembership, 'RoleMembershipPage', 'role memberships');

@Resolver(() => RoleMembership)
export class RoleMembershipResolver {
  @Query(() => RoleMembershipPage, { description: "A role's members, in the order they joined (needs `organization:read`)." })
  roleMemberships(
    @Ctx() ctx: AppContext,
    @Arg('organizationId', () => ID, { description: ORGANIZATION_ID_DESCRIPTION }) organizationId: string,
    @Arg('roleId', () => String, { description: "The role's UUID." }) roleId: string,
    @Args() page: PageArgsInput,
  ) {
    return RoleMembershipService.list(ctx, organizationId, roleId, page);
  }

  @Query(() => RoleMembership, { description: 'One membership of a role (needs `organization:read`).' })
  roleMembership(
    @Ctx() ctx: AppContext,
    @Arg('organizationId', () => ID, { description: ORGANIZATION_ID_DESCRIPTION }) organizationId: string,
    @Arg('roleId', () => String, { description: "The role's UUID." }) roleId: string,
    @Arg('id', () => String, { description: "The membership's UUID." }) id: string,
  ) {
    return RoleMembershipService.get(ctx, organizationId, roleId, id);
  }

  @Mutation(() => RoleMembership, {
    description: 'Adds a member of the organization to the role. Admins only (needs `organization:write`).',
  })
  addRoleMember(
    @Ctx() ctx: AppContext,
    @Arg('organizationId', () => ID, { description: ORGANIZATION_ID_DESCRIPTION }) organizationId: string,
    @Arg('roleId', () => String, { description: "The role's UUID." }) roleId: string,
    @Arg('input', () => RoleMembershipInput, { description: 'The user to add.' }) input: RoleMembershipInput,
  ) {
    return RoleMembershipService.create(ctx, organizationId, roleId, input);
  }

  @Mutation(() => String, {
    description: 'Takes a member out of the role; answers the membership id. Admins only (needs `organization:write`).',
  })
  async removeRoleMember(
    @Ctx() ctx: AppContext,
    @Arg('organizationId', () => ID, { description: ORGANIZATION_ID_DESCRIPTION }) organizationId: string,
    @Arg('roleId', () => String, { description: "The role's UUID." }) roleId: string,
    @Arg('id', () => String, { description: "The membership's UUID (not the user's)." }) id: string,
  ) {
    return (await RoleMembershipService.delete(ctx, organizationId, roleId, id)).id;
  }

  @FieldResolver(() => String, { description: "The role's UUID." })
  roleId(@Root() membership: RoleMembership) {
    return membership.role.id;
  }

  @FieldResolver(() => User, { description: 'The member.' })
  user(@Root() membership: RoleMembership, @Ctx() ctx: AppContext) {
    return ctx.loaders.user.load(membership.user.id);
  }
}
