import { Arg, Ctx, Field, FieldResolver, ID, InputType, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../../context';
import { PersonalApiKey } from './personal-api-key.entity';
import { PersonalApiKeyService, revealedValue, shownScopes } from './personal-api-key.service';

/** A new key; REST reads bodies with its own lenient rules and the API's messages (src/rest/input.ts). */
@InputType({ description: 'A new personal API key, at most as broad as the calling key.' })
export class PersonalApiKeyInput {
  @Field(() => String, { description: 'At most 40 characters.' }) label!: string;
  @Field(() => [String], { description: '`<object>:<read|write>` or `*`; `[]` or `["*"]` allow everything.' })
  scopes!: string[];
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
  @Query(() => [PersonalApiKey], { description: "The caller's personal API keys, newest first (any key may ask)." })
  personalApiKeys(@Ctx() ctx: AppContext) {
    return PersonalApiKeyService.list(ctx);
  }

  @Query(() => PersonalApiKey, { description: "One of the caller's keys by id (any key may ask)." })
  personalApiKey(
    @Ctx() ctx: AppContext,
    @Arg('id', () => ID, { description: "The key's id, or `@current` for the calling key." }) id: string,
  ) {
    return PersonalApiKeyService.get(ctx, id);
  }

  @Mutation(() => PersonalApiKey, {
    description:
      'Makes a key for the caller (at most 10 per user), no broader than the calling key; its `value` is shown in this answer only.',
  })
  createPersonalApiKey(
    @Ctx() ctx: AppContext,
    @Arg('input', () => PersonalApiKeyInput, { description: "The new key's label, scopes and limits." }) input: PersonalApiKeyInput,
  ) {
    return PersonalApiKeyService.createForCaller(ctx, input);
  }

  @Mutation(() => Int, {
    description: "Deletes one of the caller's keys and answers its id: the calling key itself, or one no broader than it.",
  })
  async revokePersonalApiKey(
    @Ctx() ctx: AppContext,
    @Arg('id', () => ID, { description: "The key's id, or `@current` for the calling key." }) id: string,
  ) {
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

  @FieldResolver(() => Int, { description: 'The id of the user the key belongs to.' })
  userId(@Root() key: PersonalApiKey): number {
    return key.user.id;
  }
}
