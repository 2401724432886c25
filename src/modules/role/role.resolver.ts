import { Arg, Args, Ctx, Field, FieldResolver, ID, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../../context';
import { ORGANIZATION_ID_DESCRIPTION } from '../../graphql/arguments';
import { PageOf } from '../../graphql/page';
import { RestOnly } from '../../graphql/rest-only';
import { User } from '../user/user.entity';
import { RoleMembership } from './role-membership.entity';
import { Role } from './role.entity';
import { PageArgsInput, RoleCreateInput, RoleUpdateInput } from './role.inputs';
import { RoleService } from './role.service';

@ObjectType({ description: 'A flag a role has role access to.' })
export class AssociatedFlag {
  @Field(() => Int, { description: "The flag's id." }) id!: number;
  @Field(() => String, { description: "The flag's key." }) key!: string;
}

const RolePage = PageOf(Role, 'RolePage', 'roles');

@Resolver(() => Role)
export class RoleResolver {
  @Query(() => RolePage, { description: "An organization's roles, oldest first (needs `organization:read`)." })
  roles(
    @Ctx() ctx: AppContext,
    @Arg('organizationId', () => ID, { description: ORGANIZATION_ID_DESCRIPTION }) organizationId: string,
    @Args() page: PageArgsInput,
  ) {
    return RoleService.list(ctx, organizationId, page);
  }

  @Query(() => Role, { description: 'One role by UUID (needs `organization:read`).' })
  role(
    @Ctx() ctx: AppContext,
    @Arg('organizationId', () => ID, { description: ORGANIZATION_ID_DESCRIPTION }) organizationId: string,
    @Arg('id', () => String, { description: "The role's UUID." }) id: string,
  ) {
    return RoleService.get(ctx, organizationId, id);
  }

  @Mutation(() => Role, { description: 'Creates a role. Admins only (needs `organization:write`).' })
  createRole(
    @Ctx() ctx: AppContext,
    @Arg('organizationId', () => ID, { description: ORGANIZATION_ID_DESCRIPTION }) organizationId: string,
    @Arg('input', () => RoleCreateInput, { description: 'The new role.' }) input: RoleCreateInput,
  ) {
    return RoleService.create(ctx, organizationId, input);
  }

  @Mutation(() => Role, { description: 'Partial update: absent fields are unchanged. Admins only (needs `organization:write`).' })
  updateRole(
    @Ctx() ctx: AppContext,
    @Arg('organizationId', () => ID, { description: ORGANIZATION_ID_DESCRIPTION }) organizationId: string,
    @Arg('id', () => String, { description: "The role's UUID." }) id: string,
    @Arg('input', () => RoleUpdateInput, { description: 'The fields to change.' }) input: RoleUpdateInput,
  ) {
    return RoleService.update(ctx, organizationId, id, input);
  }

  @Mutation(() => Role, {
    description:
      "Full update (REST PUT): `name` is required, an absent level becomes the organization's. Admins only (needs `organization:write`).",
  })
  replaceRole(
    @Ctx() ctx: AppContext,
    @Arg('organizationId', () => ID, { description: ORGANIZATION_ID_DESCRIPTION }) organizationId: string,
    @Arg('id', () => String, { description: "The role's UUID." }) id: string,
    @Arg('input', () => RoleCreateInput, { description: 'The whole role.' }) input: RoleCreateInput,
  ) {
    return RoleService.update(ctx, organizationId, id, input, 'put');
  }

  @Mutation(() => String, {
    description: 'Deletes the role with its memberships and flag role access; answers its id. Admins only (needs `organization:write`).',
  })
  async deleteRole(
    @Ctx() ctx: AppContext,
    @Arg('organizationId', () => ID, { description: ORGANIZATION_ID_DESCRIPTION }) organizationId: string,
    @Arg('id', () => String, { description: "The role's UUID." }) id: string,
  ) {
    return (await RoleService.delete(ctx, organizationId, id)).id;
  }

  /** REST's `feature_flags_access_level` is the number (21 or 37); GraphQL shows the level by name. */
  @RestOnly()
  @FieldResolver(() => Int)
  featureFlagsAccessLevelNumber(@Root() role: Role) {
    return role.featureFlagsAccessLevel;
  }

  @FieldResolver(() => User, { nullable: true, description: 'Who created the role; null once that user is gone.' })
  createdBy(@Root() role: Role, @Ctx() ctx: AppContext) {
    return role.createdBy ? ctx.loaders.user.load(role.createdBy.id) : null;
  }

  @FieldResolver(() => [RoleMembership], { description: "The role's members, in the order they joined." })
  members(@Root() role: Role, @Ctx() ctx: AppContext) {
    return ctx.loaders.roleMembers.load(role.id);
  }

  @FieldResolver(() => [AssociatedFlag], { description: 'Flags with a role-access record for this role, ascending id.' })
  associatedFlags(@Root() role: Role, @Ctx() ctx: AppContext) {
    return ctx.loaders.roleFlags.load(role.id);
  }
}
