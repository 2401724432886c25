import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../../context';
import { PageOf } from '../../graphql/page';
import { User } from '../user/user.entity';
import { RoleMembership } from './role-membership.entity';
import { RoleMembershipService } from './role-membership.service';
import { PageArgsInput, RoleMembershipInput } from './role.inputs';

const RoleMembershipPage = PageOf(RoleMembership, 'RoleMembershipPage');

@Resolver(() => RoleMembership)
export class RoleMembershipResolver {
  @Query(() => RoleMembershipPage)
  roleMemberships(
    @Ctx() ctx: AppContext,
    @Arg('organizationId', () => ID) organizationId: string,
    @Arg('roleId', () => String) roleId: string,
    @Args() page: PageArgsInput,
  ) {
    return RoleMembershipService.list(ctx, organizationId, roleId, page);
  }

  @Query(() => RoleMembership)
  roleMembership(
    @Ctx() ctx: AppContext,
    @Arg('organizationId', () => ID) organizationId: string,
    @Arg('roleId', () => String) roleId: string,
    @Arg('id', () => String) id: string,
  ) {
    return RoleMembershipService.get(ctx, organizationId, roleId, id);
  }

  @Mutation(() => RoleMembership, { description: 'Admins only; the user must be a member of the organization.' })
  addRoleMember(
    @Ctx() ctx: AppContext,
    @Arg('organizationId', () => ID) organizationId: string,
    @Arg('roleId', () => String) roleId: string,
    @Arg('input', () => RoleMembershipInput) input: RoleMembershipInput,
  ) {
    return RoleMembershipService.create(ctx, organizationId, roleId, input);
  }

  @Mutation(() => String, { description: 'Admins only. Answers the membership id.' })
  async removeRoleMember(
    @Ctx() ctx: AppContext,
    @Arg('organizationId', () => ID) organizationId: string,
    @Arg('roleId', () => String) roleId: string,
    @Arg('id', () => String) id: string,
  ) {
    return (await RoleMembershipService.delete(ctx, organizationId, roleId, id)).id;
  }

  @FieldResolver(() => String)
  roleId(@Root() membership: RoleMembership) {
    return membership.role.id;
  }

  @FieldResolver(() => User)
  user(@Root() membership: RoleMembership, @Ctx() ctx: AppContext) {
    return ctx.loaders.user.load(membership.user.id);
  }
}
