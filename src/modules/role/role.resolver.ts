import { Arg, Args, Ctx, Field, FieldResolver, ID, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../../context';
import { PageOf } from '../../graphql/page';
import { Organization } from '../organization/organization.entity';
import { User } from '../user/user.entity';
import { OrganizationResourceAccess } from './organization-resource-access.entity';
import { ResourceAccessService } from './resource-access.service';
import { RoleMembership } from './role-membership.entity';
import { RoleMembershipService } from './role-membership.service';
import { Role } from './role.entity';
import { PageArgsInput, ResourceAccessInput, RoleInput, RoleMembershipInput } from './role.inputs';
import { organizationFlagAccessLevel, RoleService } from './role.service';

@ObjectType({ description: 'A flag a role has role access to.' })
export class AssociatedFlag {
  @Field(() => Int) id!: number;
  @Field(() => String) key!: string;
}

const RolePage = PageOf(Role, 'RolePage');
const RoleMembershipPage = PageOf(RoleMembership, 'RoleMembershipPage');
const ResourceAccessPage = PageOf(OrganizationResourceAccess, 'OrganizationResourceAccessPage');

@Resolver(() => Role)
export class RoleResolver {
  @Query(() => RolePage, { description: "An organization's roles, oldest first." })
  roles(@Ctx() ctx: AppContext, @Arg('organizationId', () => ID) organizationId: string, @Args() page: PageArgsInput) {
    return RoleService.list(ctx, organizationId, page);
  }

  @Query(() => Role)
  role(@Ctx() ctx: AppContext, @Arg('organizationId', () => ID) organizationId: string, @Arg('id', () => String) id: string) {
    return RoleService.get(ctx, organizationId, id);
  }

  @Mutation(() => Role, { description: 'Admins only.' })
  createRole(
    @Ctx() ctx: AppContext,
    @Arg('organizationId', () => ID) organizationId: string,
    @Arg('input', () => RoleInput) input: RoleInput,
  ) {
    return RoleService.create(ctx, organizationId, input);
  }

  @Mutation(() => Role, { description: 'Admins only; absent fields are unchanged.' })
  updateRole(
    @Ctx() ctx: AppContext,
    @Arg('organizationId', () => ID) organizationId: string,
    @Arg('id', () => String) id: string,
    @Arg('input', () => RoleInput) input: RoleInput,
  ) {
    return RoleService.update(ctx, organizationId, id, input);
  }

  @Mutation(() => Role, { description: 'Admins only; like updateRole, but `name` is required.' })
  replaceRole(
    @Ctx() ctx: AppContext,
    @Arg('organizationId', () => ID) organizationId: string,
    @Arg('id', () => String) id: string,
    @Arg('input', () => RoleInput) input: RoleInput,
  ) {
    return RoleService.update(ctx, organizationId, id, input, 'put');
  }

  @Mutation(() => String, { description: 'Admins only; its memberships and flag role access go too. Answers the id.' })
  async deleteRole(@Ctx() ctx: AppContext, @Arg('organizationId', () => ID) organizationId: string, @Arg('id', () => String) id: string) {
    return (await RoleService.delete(ctx, organizationId, id)).id;
  }

  @FieldResolver(() => User, { nullable: true })
  createdBy(@Root() role: Role, @Ctx() ctx: AppContext) {
    return role.createdBy ? ctx.loaders.user.load(role.createdBy.id) : null;
  }

  @FieldResolver(() => [RoleMembership], { description: 'By joining time.' })
  members(@Root() role: Role, @Ctx() ctx: AppContext) {
    return ctx.loaders.roleMembers.load(role.id);
  }

  @FieldResolver(() => [AssociatedFlag], { description: 'Flags with a role-access record for this role, ascending id.' })
  associatedFlags(@Root() role: Role, @Ctx() ctx: AppContext) {
    return ctx.loaders.roleFlags.load(role.id);
  }
}

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

@Resolver(() => OrganizationResourceAccess)
export class ResourceAccessResolver {
  @Query(() => ResourceAccessPage, { description: "The organization's default access levels (only `feature flags`)." })
  resourceAccesses(@Ctx() ctx: AppContext, @Arg('organizationId', () => ID) organizationId: string, @Args() page: PageArgsInput) {
    return ResourceAccessService.list(ctx, organizationId, page);
  }

  @Query(() => OrganizationResourceAccess)
  resourceAccess(@Ctx() ctx: AppContext, @Arg('organizationId', () => ID) organizationId: string, @Arg('id', () => Int) id: number) {
    return ResourceAccessService.get(ctx, organizationId, id);
  }

  @Mutation(() => OrganizationResourceAccess, { description: 'Admins only.' })
  createResourceAccess(
    @Ctx() ctx: AppContext,
    @Arg('organizationId', () => ID) organizationId: string,
    @Arg('input', () => ResourceAccessInput) input: ResourceAccessInput,
  ) {
    return ResourceAccessService.create(ctx, organizationId, input);
  }

  @Mutation(() => OrganizationResourceAccess, { description: 'Admins only.' })
  updateResourceAccess(
    @Ctx() ctx: AppContext,
    @Arg('organizationId', () => ID) organizationId: string,
    @Arg('id', () => Int) id: number,
    @Arg('input', () => ResourceAccessInput) input: ResourceAccessInput,
  ) {
    return ResourceAccessService.update(ctx, organizationId, id, input);
  }

  @Mutation(() => OrganizationResourceAccess, { description: 'Admins only; like updateResourceAccess, but `accessLevel` is required.' })
  replaceResourceAccess(
    @Ctx() ctx: AppContext,
    @Arg('organizationId', () => ID) organizationId: string,
    @Arg('id', () => Int) id: number,
    @Arg('input', () => ResourceAccessInput) input: ResourceAccessInput,
  ) {
    return ResourceAccessService.update(ctx, organizationId, id, input, 'put');
  }

  @Mutation(() => Int, { description: 'Admins only; the flag access level returns to 37. Answers the id.' })
  async deleteResourceAccess(
    @Ctx() ctx: AppContext,
    @Arg('organizationId', () => ID) organizationId: string,
    @Arg('id', () => Int) id: number,
  ) {
    return (await ResourceAccessService.delete(ctx, organizationId, id)).id;
  }

  @FieldResolver(() => User, { nullable: true })
  createdBy(@Root() record: OrganizationResourceAccess, @Ctx() ctx: AppContext) {
    return record.createdBy ? ctx.loaders.user.load(record.createdBy.id) : null;
  }
}

@Resolver(() => Organization)
export class OrganizationAccessLevelResolver {
  @FieldResolver(() => Int, { description: 'The default flag access level: 37 (everyone edits) unless an admin set 21.' })
  featureFlagsAccessLevel(@Root() organization: Organization, @Ctx() ctx: AppContext) {
    return organizationFlagAccessLevel(ctx.em, organization.id);
  }
}
