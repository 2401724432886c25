import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../../context';
import { PageOf } from '../../graphql/page';
import { FeatureFlag } from '../feature-flag/feature-flag.entity';
import { FeatureFlagRoleAccess } from './feature-flag-role-access.entity';
import { FeatureFlagRoleAccessService } from './feature-flag-role-access.service';
import { Role } from './role.entity';
import { FeatureFlagRoleAccessInput, PageArgsInput } from './role.inputs';

const FeatureFlagRoleAccessPage = PageOf(FeatureFlagRoleAccess, 'FeatureFlagRoleAccessPage');

@Resolver(() => FeatureFlagRoleAccess)
export class FeatureFlagRoleAccessResolver {
  @Query(() => FeatureFlagRoleAccessPage, { description: "A flag's role-access records, oldest first." })
  featureFlagRoleAccesses(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID) projectId: string,
    @Arg('featureFlagId', () => Int) featureFlagId: number,
    @Args() page: PageArgsInput,
  ) {
    return FeatureFlagRoleAccessService.list(ctx, projectId, featureFlagId, page);
  }

  @Query(() => FeatureFlagRoleAccess)
  featureFlagRoleAccess(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID) projectId: string,
    @Arg('featureFlagId', () => Int) featureFlagId: number,
    @Arg('id', () => Int) id: number,
  ) {
    return FeatureFlagRoleAccessService.get(ctx, projectId, featureFlagId, id);
  }

  @Mutation(() => FeatureFlagRoleAccess, { description: "Lets a role's members edit the flag." })
  grantFeatureFlagRoleAccess(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID) projectId: string,
    @Arg('featureFlagId', () => Int) featureFlagId: number,
    @Arg('input', () => FeatureFlagRoleAccessInput) input: FeatureFlagRoleAccessInput,
  ) {
    return FeatureFlagRoleAccessService.create(ctx, projectId, featureFlagId, input);
  }

  @Mutation(() => Int, { description: 'Answers the id of the removed record.' })
  async revokeFeatureFlagRoleAccess(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID) projectId: string,
    @Arg('featureFlagId', () => Int) featureFlagId: number,
    @Arg('id', () => Int) id: number,
  ) {
    return (await FeatureFlagRoleAccessService.delete(ctx, projectId, featureFlagId, id)).id;
  }

  @FieldResolver(() => FeatureFlag)
  featureFlag(@Root() record: FeatureFlagRoleAccess, @Ctx() ctx: AppContext) {
    return ctx.loaders.flag.load(record.featureFlag.id);
  }

  @FieldResolver(() => Role)
  role(@Root() record: FeatureFlagRoleAccess, @Ctx() ctx: AppContext) {
    return ctx.loaders.role.load(record.role.id);
  }
}
