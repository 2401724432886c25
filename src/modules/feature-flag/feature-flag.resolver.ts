import { Arg, Args, Ctx, FieldResolver, Float, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { PROJECT_ID_DESCRIPTION } from '../../graphql/arguments';
import { PageOf } from '../../graphql/page';
import { RestOnly } from '../../graphql/rest-only';
import type { AppContext } from '../../context';
import { DateTimeScalar, JSONObjectScalar, JSONScalar } from '../../graphql/scalars';
import { User } from '../user/user.entity';
import { FeatureFlag } from './feature-flag.entity';
import { FeatureFlagCreateInput, FeatureFlagListArgs, FeatureFlagReplaceInput, FeatureFlagUpdateInput } from './feature-flag.inputs';
import { isSimpleFlag, rolloutPercentage, shownFilters } from './feature-flag.presenter';
import { FeatureFlagService } from './feature-flag.service';
import { servedFilters } from '../../evaluation/served-filters';
import type { FlagRoot } from './feature-flag.rows';
import { FeatureFlagStatusType } from './flag-status.type';

const FeatureFlagPage = PageOf(FeatureFlag, 'FeatureFlagPage', 'feature flags');

@Resolver(() => FeatureFlag)
export class FeatureFlagResolver {
  @Query(() => FeatureFlagPage, { description: "A project's non-deleted flags, newest first (needs `feature_flag:read`)." })
  featureFlags(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Args() args: FeatureFlagListArgs,
  ) {
    return FeatureFlagService.list(ctx, projectId, args);
  }

  @Query(() => [User], { description: "The users who created the project's non-deleted flags, by id (needs `feature_flag:read`)." })
  featureFlagCreators(@Ctx() ctx: AppContext, @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string) {
    return FeatureFlagService.creators(ctx, projectId);
  }

  @Query(() => FeatureFlag, { description: 'One flag by id or key, soft-deleted flags included (needs `feature_flag:read`).' })
  featureFlag(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Arg('id', () => Int, { nullable: true, description: "The flag's id; wins over `key` when both are given." }) id?: number | null,
    @Arg('key', () => String, { nullable: true, description: "The flag's key, used when no `id` is given." }) key?: string | null,
  ) {
    return key !== undefined && key !== null && (id === undefined || id === null)
      ? FeatureFlagService.getByKey(ctx, projectId, key)
      : FeatureFlagService.get(ctx, projectId, id);
  }

  @Mutation(() => FeatureFlag, { description: 'Creates a flag, at version 1, with its usage dashboard (needs `feature_flag:write`).' })
  createFeatureFlag(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Arg('input', () => FeatureFlagCreateInput, { description: 'The new flag.' }) input: FeatureFlagCreateInput,
  ) {
    return FeatureFlagService.create(ctx, projectId, input);
  }

  @Mutation(() => FeatureFlag, {
    description:
      'Partial update; `deleted: true` soft-deletes and `false` restores (needs `feature_flag:write` and the right to edit the flag).',
  })
  updateFeatureFlag(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Arg('id', () => Int, { description: "The flag's id." }) id: number,
    @Arg('input', () => FeatureFlagUpdateInput, { description: 'The fields to change.' }) input: FeatureFlagUpdateInput,
  ) {
    return FeatureFlagService.update(ctx, projectId, id, input);
  }

  @Mutation(() => FeatureFlag, {
    description: 'Full update (REST PUT): like updateFeatureFlag, but `key` and `filters.groups` are required.',
  })
  replaceFeatureFlag(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Arg('id', () => Int, { description: "The flag's id." }) id: number,
    @Arg('input', () => FeatureFlagReplaceInput, { description: 'The whole flag.' }) input: FeatureFlagReplaceInput,
  ) {
    return FeatureFlagService.update(ctx, projectId, id, input, 'put');
  }

  @FieldResolver(() => JSONObjectScalar, {
    description:
      'Release conditions (`groups`), variants, payloads and aggregation (docs/rest-api.md §3.3); stored filters without `groups` show as one condition.',
  })
  filters(@Root() flag: FlagRoot) {
    return shownFilters(flag.filters);
  }

  @FieldResolver(() => JSONObjectScalar, { description: 'The normalised filters server SDKs receive and evaluation reads.' })
  sdkFilters(@Root() flag: FlagRoot) {
    return servedFilters(flag.filters);
  }

  @FieldResolver(() => User, { nullable: true, description: 'Who created the flag; null when nobody did or that user is gone.' })
  createdBy(@Root() flag: FlagRoot, @Ctx() ctx: AppContext) {
    return flag.createdBy ? ctx.loaders.user.load(flag.createdBy.id) : null;
  }

  @FieldResolver(() => Boolean, {
    description: 'True when the flag has exactly one condition, without properties, and no group aggregation.',
  })
  isSimpleFlag(@Root() flag: FlagRoot) {
    return isSimpleFlag(flag.filters);
  }

  @FieldResolver(() => Float, { nullable: true, description: "That single condition's rollout when `isSimpleFlag`, else null." })
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

  @FieldResolver(() => DateTimeScalar, {
    nullable: true,
    description: "When the flag was last evaluated: its key's newest `$feature_flag_called` event; null for never (docs/stale-flags.md).",
  })
  lastCalledAt(@Root() flag: FlagRoot, @Ctx() ctx: AppContext) {
    return FeatureFlagService.lastCalledAt(ctx, flag);
  }

  @FieldResolver(() => FeatureFlagStatusType, { description: 'Active, stale or deleted, and why (docs/stale-flags.md).' })
  status(@Root() flag: FlagRoot, @Ctx() ctx: AppContext) {
    return FeatureFlagService.status(ctx, flag);
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
