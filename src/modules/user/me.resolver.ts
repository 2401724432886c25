import { Ctx, Field, ObjectType, Query, Resolver } from 'type-graphql';
import type { AppContext } from '../../context';
import { Organization } from '../organization/organization.entity';
import { User } from './user.entity';
import { MeService } from './me.service';

/** The caller, with what their key lets them see. Other users never expose their memberships. */
@ObjectType({ description: "The caller: the calling key's user and the organizations the key may reach." })
export class Me {
  @Field(() => User, { description: 'The user the calling key belongs to.' }) user!: User;
  @Field(() => [Organization], { description: "The user's organizations the key may reach, in the order the user joined them." })
  organizations!: Organization[];
}

@Resolver(() => Me)
export class MeResolver {
  @Query(() => Me, {
    description: 'The user the calling key belongs to, with the organizations and projects it may reach (any key may ask).',
  })
  me(@Ctx() ctx: AppContext): Promise<Me> {
    return MeService.me(ctx);
  }
}
