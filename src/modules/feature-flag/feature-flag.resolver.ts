import { Arg, Args, Ctx, FieldResolver, Float, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { PageOf } from '../../graphql/page';
import { RestOnly } from '../../graphql/rest-only';
import type { AppContext } from '../../context';
import { JSONObjectScalar, JSONScalar } from '../../graphql/scalars';
import { User } from '../user/user.entity';
import { FeatureFlag } from './feature-flag.entity';
import { FeatureFlagCreateInput, FeatureFlagListArgs, FeatureFlagUpdateInput } from './feature-flag.inputs';
import { isSimpleFlag, rolloutPercentage, shownFilters } from './feature-flag.presenter';
import { FeatureFlagService } from './feature-flag.service';
import { servedFilters } from '../../evaluation/served-filters';
import type { FlagRoot } from './feature-flag.rows';

const FeatureFlagPage = PageOf(FeatureFlag, 'FeatureFlagPage');

@Resolver(() => FeatureFlag)
export class FeatureFlagResolver {
  @Query(() => FeatureFlagPage, { description: "A project's non-deleted flags, newest first." })
  featureFlags(@Ctx() ctx: AppContext, @Arg('projectId', () => ID) projectId: string, @Args() args: FeatureFlagListArgs) {
    return FeatureFlagService.list(ctx, projectId, args);
  }

  @Query(() => FeatureFlag, { description: 'One flag by id or key; soft-deleted flags included.' })
  featureFlag(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID) projectId: string,
    @Arg('id', () => Int, { nullable: true }) id?: number | null,
    @Arg('key', () => String, { nullable: true }) key?: string | null,
  ) {
    return key !== undefined && key !== null && (id === undefined || id === null)
      ? FeatureFlagService.getByKey(ctx, projectId, key)
      : FeatureFlagService.get(ctx, projectId, id);
  }

  @Mutation(() => FeatureFlag)
  createFeatureFlag(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID) projectId: string,
    @Arg('input', () => FeatureFlagCreateInput) input: FeatureFlagCreateInput,
  ) {
    return FeatureFlagService.create(ctx, projectId, input);
  }

  @Mutation(() => FeatureFlag, { description: 'Partial update; `deleted: true` soft-deletes and `false` restores.' })
  updateFeatureFlag(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID) projectId: string,
    @Arg('id', () => Int) id: number,
    @Arg('input', () => FeatureFlagUpdateInput) input: FeatureFlagUpdateInput,
  ) {
    return FeatureFlagService.update(ctx, projectId, id, input);
  }

  @Mutation(() => FeatureFlag, { description: 'Full update: like updateFeatureFlag, but `key` and `filters.groups` are required.' })
  replaceFeatureFlag(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID) projectId: string,
    @Arg('id', () => Int) id: number,
    @Arg('input', () => FeatureFlagUpdateInput) input: FeatureFlagUpdateInput,
  ) {
    return FeatureFlagService.update(ctx, projectId, id, input, 'put');
  }

  @FieldResolver(() => JSONObjectScalar)
  filters(@Root() flag: FlagRoot) {
    return shownFilters(flag.filters);
  }

  @FieldResolver(() => JSONObjectScalar, { description: 'The normalised filters server SDKs receive and evaluation reads.' })
  sdkFilters(@Root() flag: FlagRoot) {
    return servedFilters(flag.filters);
  }

  @FieldResolver(() => User, { nullable: true })
  createdBy(@Root() flag: FlagRoot, @Ctx() ctx: AppContext) {
    return flag.createdBy ? ctx.loaders.user.load(flag.createdBy.id) : null;
  }

  @FieldResolver(() => Boolean)
  isSimpleFlag(@Root() flag: FlagRoot) {
    return isSimpleFlag(flag.filters);
  }

  @FieldResolver(() => Float, { nullable: true })
  rolloutPercentage(@Root() flag: FlagRoot) {
    return rolloutPercentage(flag.filters);
  }

  @FieldResolver(() => Boolean, { description: 'Whether the caller may change this flag.' })
  canEdit(@Root() flag: FlagRoot, @Ctx() ctx: AppContext) {
    return FeatureFlagService.canEdit(ctx, flag);
  }

  @FieldResolver(() => [Int], { description: 'Ids of the experiments using this flag, ascending.' })
  experimentSet(@Root() flag: FlagRoot, @Ctx() ctx: AppContext) {
    return ctx.loaders.flagExperimentIds.load(flag.id);
  }

  @FieldResolver(() => Int, { description: "The id of the flag's project (REST calls it `team_id`, as PostHog does)." })
  projectId(@Root() flag: FlagRoot) {
    return flag.project.id;
  }

  /** SPEC-GAP: PostHog's flag shape carries `features` (early-access features), which this service does not have: always []. */
  @RestOnly()
  @FieldResolver(() => JSONScalar)
  features() {
    return [];
  }
}
