import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../../context';
import { Organization } from '../organization/organization.entity';
import { FlagAccessLevelName } from './role.entity';
import { organizationFlagAccessLevel } from './role.service';

@Resolver(() => Organization)
export class OrganizationAccessLevelResolver {
  @FieldResolver(() => FlagAccessLevelName, {
    description: 'The default flag access level: CAN_ALWAYS_EDIT unless an admin set CAN_ONLY_VIEW.',
  })
  featureFlagsAccessLevel(@Root() organization: Organization, @Ctx() ctx: AppContext) {
    return organizationFlagAccessLevel(ctx.em, organization.id);
  }
}
