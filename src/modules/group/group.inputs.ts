import { ArgsType, Field, Int } from 'type-graphql';

@ArgsType()
export class GroupListArgs {
  @Field(() => Int, { nullable: true, description: 'Required: the group type (0–4).' }) groupTypeIndex?: number | null;
  @Field(() => Int, { nullable: true, description: 'Page size: default 100, at most 1000.' }) limit?: number | null;
  @Field(() => Int, { nullable: true, description: 'How many to skip: default 0.' }) offset?: number | null;
  @Field(() => String, { nullable: true, description: "Case-insensitive substring of the key or of the properties' JSON text." })
  search?: string | null;
}
