import { Arg, Ctx, Field, FieldResolver, ID, InputType, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../../context';
import { PersonalApiKey } from './personal-api-key.entity';
import { PersonalApiKeyService, revealedValue, shownScopes } from './personal-api-key.service';

/** Loose at the type level, like every input: the service answers wrong values with the API's messages. */
@InputType()
export class PersonalApiKeyInput {
  @Field(() => String, { nullable: true, description: 'Required; at most 40 characters.' }) label?: string | null;
  @Field(() => [String], { nullable: true, description: 'Required: `<object>:<read|write>` or `*`; `[]` or `["*"]` allow everything.' })
  scopes?: string[] | null;
  @Field(() => [Int], { nullable: true, description: 'Project ids the key is limited to (projects of your organizations).' })
  scopedTeams?: number[] | null;
  @Field(() => [String], { nullable: true, description: 'Organization UUIDs the key is limited to (organizations you belong to).' })
  scopedOrganizations?: string[] | null;
}

/**
 * The caller's own personal API keys (`/api/personal_api_keys/` over REST). Any valid key may
 * list its user's keys and revoke itself; creating or revoking another key needs a key with at
 * least that key's access (personal-api-key.service.ts).
 */
@Resolver(() => PersonalApiKey)
export class PersonalApiKeyResolver {
  @Query(() => [PersonalApiKey], { description: "The caller's personal API keys, newest first." })
  personalApiKeys(@Ctx() ctx: AppContext) {
    return PersonalApiKeyService.list(ctx);
  }

  @Query(() => PersonalApiKey, { description: 'One of the caller\'s keys by id; "@current" is the calling key.' })
  personalApiKey(@Ctx() ctx: AppContext, @Arg('id', () => ID) id: string) {
    return PersonalApiKeyService.get(ctx, id);
  }

  @Mutation(() => PersonalApiKey, { description: 'Makes a key for the caller; its `value` is shown in this answer only.' })
  createPersonalApiKey(@Ctx() ctx: AppContext, @Arg('input', () => PersonalApiKeyInput) input: PersonalApiKeyInput) {
    return PersonalApiKeyService.createForCaller(ctx, input);
  }

  @Mutation(() => Int, { description: 'Deletes one of the caller\'s keys ("@current": the calling key); answers its id.' })
  async revokePersonalApiKey(@Ctx() ctx: AppContext, @Arg('id', () => ID) id: string) {
    return (await PersonalApiKeyService.revoke(ctx, id)).id;
  }

  @FieldResolver(() => String, { nullable: true, description: 'The key itself: only in the answer to the mutation that created it.' })
  value(@Root() key: PersonalApiKey, @Ctx() ctx: AppContext): string | null {
    return revealedValue(ctx, key.id);
  }

  @FieldResolver(() => [String], { description: 'What the key may do; `["*"]`: everything.' })
  scopes(@Root() key: PersonalApiKey): string[] {
    return shownScopes(key);
  }

  @FieldResolver(() => Int)
  userId(@Root() key: PersonalApiKey): number {
    return key.user.id;
  }
}
