import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../../context';
import { PageOf } from '../../graphql/page';
import { User } from '../user/user.entity';
import { OrganizationResourceAccess } from './organization-resource-access.entity';
import { ResourceAccessService } from './resource-access.service';
import { PageArgsInput, ResourceAccessInput } from './role.inputs';

const ResourceAccessPage = PageOf(OrganizationResourceAccess, 'OrganizationResourceAccessPage');

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
