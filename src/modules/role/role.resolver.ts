import { Arg, Args, Ctx, Field, FieldResolver, ID, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../../context';
import { PageOf } from '../../graphql/page';
import { User } from '../user/user.entity';
import { RoleMembership } from './role-membership.entity';
import { Role } from './role.entity';
import { PageArgsInput, RoleInput } from './role.inputs';
import { RoleService } from './role.service';

@ObjectType({ description: 'A flag a role has role access to.' })
export class AssociatedFlag {
  @Field(() => Int) id!: number;
  @Field(() => String) key!: string;
}

const RolePage = PageOf(Role, 'RolePage');

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
