import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../../context';
import { FeatureFlag } from '../feature-flag/feature-flag.entity';
import type { FlagRoot } from '../feature-flag/feature-flag.rows';
import { FeatureFlagRoleAccess } from './feature-flag-role-access.entity';

@Resolver(() => FeatureFlag)
export class FeatureFlagRoleAccessFieldResolver {
  @FieldResolver(() => [FeatureFlagRoleAccess], { description: 'The roles granted edit rights on this flag.' })
  roleAccess(@Root() flag: FlagRoot, @Ctx() ctx: AppContext) {
    return ctx.loaders.flagRoleAccess.load(flag.id);
  }
}
