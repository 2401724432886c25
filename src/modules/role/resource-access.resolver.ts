import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../../context';
import { ORGANIZATION_ID_DESCRIPTION } from '../../graphql/arguments';
import { PageOf } from '../../graphql/page';
import { RestOnly } from '../../graphql/rest-only';
import { User } from '../user/user.entity';
import { OrganizationResourceAccess } from './organization-resource-access.entity';
import { ResourceAccessService } from './resource-access.service';
import { PageArgsInput, ResourceAccessCreateInput, ResourceAccessReplaceInput, ResourceAccessUpdateInput } from './role.inputs';

const ResourceAccessPage = PageOf(OrganizationResourceAccess, 'OrganizationResourceAccessPage', 'resource-access records');

@Resolver(() => OrganizationResourceAccess)
export class ResourceAccessResolver {
  @Query(() => ResourceAccessPage, {
    description: "The organization's resource-access records: at most one, for `feature flags` (needs `organization:read`).",
  })
  resourceAccesses(
    @Ctx() ctx: AppContext,
    @Arg('organizationId', () => ID, { description: ORGANIZATION_ID_DESCRIPTION }) organizationId: string,
    @Args() page: PageArgsInput,
  ) {
    return ResourceAccessService.list(ctx, organizationId, page);
  }

  @Query(() => OrganizationResourceAccess, { description: 'One resource-access record by id (needs `organization:read`).' })
  resourceAccess(
    @Ctx() ctx: AppContext,
    @Arg('organizationId', () => ID, { description: ORGANIZATION_ID_DESCRIPTION }) organizationId: string,
    @Arg('id', () => Int, { description: "The record's id." }) id: number,
  ) {
    return ResourceAccessService.get(ctx, organizationId, id);
  }

  @Mutation(() => OrganizationResourceAccess, {
    description: "Sets the organization's flag access level; one record at most. Admins only (needs `organization:write`).",
  })
  createResourceAccess(
    @Ctx() ctx: AppContext,
    @Arg('organizationId', () => ID, { description: ORGANIZATION_ID_DESCRIPTION }) organizationId: string,
    @Arg('input', () => ResourceAccessCreateInput, { description: 'The new record.' }) input: ResourceAccessCreateInput,
  ) {
    return ResourceAccessService.create(ctx, organizationId, input);
  }

  @Mutation(() => OrganizationResourceAccess, {
    description: 'Partial update: absent fields are unchanged. Admins only (needs `organization:write`).',
  })
  updateResourceAccess(
    @Ctx() ctx: AppContext,
    @Arg('organizationId', () => ID, { description: ORGANIZATION_ID_DESCRIPTION }) organizationId: string,
    @Arg('id', () => Int, { description: "The record's id." }) id: number,
    @Arg('input', () => ResourceAccessUpdateInput, { description: 'The fields to change.' }) input: ResourceAccessUpdateInput,
  ) {
    return ResourceAccessService.update(ctx, organizationId, id, input);
  }

  @Mutation(() => OrganizationResourceAccess, {
    description:
      'Full update (REST PUT): like updateResourceAccess, but `accessLevel` is required. Admins only (needs `organization:write`).',
  })
  replaceResourceAccess(
    @Ctx() ctx: AppContext,
    @Arg('organizationId', () => ID, { description: ORGANIZATION_ID_DESCRIPTION }) organizationId: string,
    @Arg('id', () => Int, { description: "The record's id." }) id: number,
    @Arg('input', () => ResourceAccessReplaceInput, { description: 'The whole record.' }) input: ResourceAccessReplaceInput,
  ) {
    return ResourceAccessService.update(ctx, organizationId, id, input, 'put');
  }

  @Mutation(() => Int, {
    description:
      'Deletes the record, so the flag access level returns to CAN_ALWAYS_EDIT (37); answers its id. Admins only (needs `organization:write`).',
  })
  async deleteResourceAccess(
    @Ctx() ctx: AppContext,
    @Arg('organizationId', () => ID, { description: ORGANIZATION_ID_DESCRIPTION }) organizationId: string,
    @Arg('id', () => Int, { description: "The record's id." }) id: number,
  ) {
    return (await ResourceAccessService.delete(ctx, organizationId, id)).id;
  }

  /** REST's `access_level` is the number (21 or 37); GraphQL shows the level by name. */
  @RestOnly()
  @FieldResolver(() => Int)
  accessLevelNumber(@Root() record: OrganizationResourceAccess) {
    return record.accessLevel;
  }

  @FieldResolver(() => User, { nullable: true, description: 'Who created the record; null once that user is gone.' })
  createdBy(@Root() record: OrganizationResourceAccess, @Ctx() ctx: AppContext) {
    return record.createdBy ? ctx.loaders.user.load(record.createdBy.id) : null;
  }
}
