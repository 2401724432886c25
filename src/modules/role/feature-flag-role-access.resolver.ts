import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../../context';
import { requestErrors } from '../../errors';
import { PROJECT_ID_DESCRIPTION } from '../../graphql/arguments';
import { PageOf } from '../../graphql/page';
import { FeatureFlag } from '../feature-flag/feature-flag.entity';
import { FeatureFlagRoleAccess } from './feature-flag-role-access.entity';
import { FeatureFlagRoleAccessService } from './feature-flag-role-access.service';
import { Role } from './role.entity';
import { FeatureFlagRoleAccessInput, PageArgsInput } from './role.inputs';

const FeatureFlagRoleAccessPage = PageOf(FeatureFlagRoleAccess, 'FeatureFlagRoleAccessPage', 'role-access records');

@Resolver(() => FeatureFlagRoleAccess)
export class FeatureFlagRoleAccessResolver {
  @Query(() => FeatureFlagRoleAccessPage, { description: "A flag's role-access records, oldest first (needs `feature_flag:read`)." })
  featureFlagRoleAccesses(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Arg('featureFlagId', () => Int, { description: "The flag's id (a soft-deleted flag will do)." }) featureFlagId: number,
    @Args() page: PageArgsInput,
  ) {
    return FeatureFlagRoleAccessService.list(ctx, projectId, featureFlagId, page);
  }

  @Query(() => FeatureFlagRoleAccess, { description: "One of a flag's role-access records (needs `feature_flag:read`)." })
  featureFlagRoleAccess(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Arg('featureFlagId', () => Int, { description: "The flag's id; a record of another flag is not found." }) featureFlagId: number,
    @Arg('id', () => Int, { description: "The record's id." }) id: number,
  ) {
    return FeatureFlagRoleAccessService.get(ctx, projectId, featureFlagId, id);
  }

  @Mutation(() => FeatureFlagRoleAccess, {
    description:
      "Lets a role's members edit the flag (needs `feature_flag:write` and the right to manage its roles: docs/rest-api.md §5.4).",
  })
  grantFeatureFlagRoleAccess(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Arg('featureFlagId', () => Int, { description: "The flag's id (a soft-deleted flag will do)." }) featureFlagId: number,
    @Arg('input', () => FeatureFlagRoleAccessInput, { description: 'The role to grant.' }) input: FeatureFlagRoleAccessInput,
  ) {
    return FeatureFlagRoleAccessService.create(ctx, projectId, featureFlagId, input);
  }

  @Mutation(() => Int, {
    description:
      'Removes a role-access record and answers its id (needs `feature_flag:write` and the right to manage its roles: docs/rest-api.md §5.4).',
  })
  async revokeFeatureFlagRoleAccess(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Arg('featureFlagId', () => Int, { description: "The flag's id; a record of another flag is not found." }) featureFlagId: number,
    @Arg('id', () => Int, { description: "The record's id." }) id: number,
  ) {
    return (await FeatureFlagRoleAccessService.delete(ctx, projectId, featureFlagId, id)).id;
  }

  @FieldResolver(() => FeatureFlag, { description: 'The flag the role may edit.' })
  async featureFlag(@Root() record: FeatureFlagRoleAccess, @Ctx() ctx: AppContext) {
    return stillThere(await ctx.loaders.flag.load(record.featureFlag.id));
  }

  @FieldResolver(() => Role, { description: 'The role granted access.' })
  async role(@Root() record: FeatureFlagRoleAccess, @Ctx() ctx: AppContext) {
    return stillThere(await ctx.loaders.role.load(record.role.id));
  }
}

/**
 * A record's flag or role is gone only when deleted after the record was read (the delete cascades
 * to the record, e.g. a role deleted while a grant is answered): the record is gone too, so 404.
 */
function stillThere<T>(row: T | null): T {
  if (row === null) throw requestErrors.notFound();
  return row;
}
