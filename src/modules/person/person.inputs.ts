import { ArgsType, Field, Int } from 'type-graphql';

@ArgsType()
export class PersonListArgs {
  @Field(() => Int, { nullable: true, description: 'Page size: default 100, at most 1000.' }) limit?: number | null;
  @Field(() => Int, { nullable: true, description: 'How many to skip: default 0.' }) offset?: number | null;
  @Field(() => String, { nullable: true, description: 'Persons with exactly this distinct id.' }) distinctId?: string | null;
  @Field(() => String, { nullable: true, description: "Case-insensitive substring of a distinct id or of the properties' JSON text." })
  search?: string | null;
}
