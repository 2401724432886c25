import { Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../../context';
import { Organization } from '../organization/organization.entity';
import { organizationFlagAccessLevel } from './role.service';

@Resolver(() => Organization)
export class OrganizationAccessLevelResolver {
  @FieldResolver(() => Int, { description: 'The default flag access level: 37 (everyone edits) unless an admin set 21.' })
  featureFlagsAccessLevel(@Root() organization: Organization, @Ctx() ctx: AppContext) {
    return organizationFlagAccessLevel(ctx.em, organization.id);
  }
}
