import { Ctx, Field, ObjectType, Query, Resolver } from 'type-graphql';
import type { AppContext } from '../../context';
import { Organization } from '../organization/organization.entity';
import { User } from './user.entity';
import { MeService } from './me.service';

/** The caller, with what their key lets them see. Other users never expose their memberships. */
@ObjectType()
export class Me {
  @Field(() => User) user!: User;
  @Field(() => [Organization]) organizations!: Organization[];
}

@Resolver(() => Me)
export class MeResolver {
  @Query(() => Me, { description: 'The user the API key belongs to.' })
  me(@Ctx() ctx: AppContext): Promise<Me> {
    return MeService.me(ctx);
  }
}
