import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../../context';
import { Project } from '../project/project.entity';
import { MeService } from '../user/me.service';
import { Organization } from './organization.entity';

@Resolver(() => Organization)
export class OrganizationResolver {
  @FieldResolver(() => [Project], { description: "The organization's projects the caller's key may reach." })
  projects(@Root() organization: Organization, @Ctx() ctx: AppContext): Promise<Project[]> {
    return MeService.reachableProjects(ctx, organization.id);
  }
}
