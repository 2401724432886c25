import { ArgsType, Field, Int } from 'type-graphql';

@ArgsType()
export class EventListArgs {
  @Field(() => Int, { nullable: true, description: 'Page size: default 100, at most 1000.' }) limit?: number | null;
  @Field(() => Int, { nullable: true, description: 'How many to skip: default 0.' }) offset?: number | null;
  @Field(() => String, { nullable: true, description: 'Exact event name.' }) event?: string | null;
  @Field(() => String, { nullable: true, description: 'Exact distinct id.' }) distinctId?: string | null;
  @Field(() => String, { nullable: true, description: "The person's uuid." }) personId?: string | null;
  @Field(() => String, { nullable: true, description: 'Only events strictly after this ISO 8601 time.' }) after?: string | null;
  @Field(() => String, { nullable: true, description: 'Only events strictly before this ISO 8601 time.' }) before?: string | null;
}

@ArgsType()
export class EventNameArgs {
  @Field(() => String, { nullable: true, description: 'Only names containing this text, case-insensitively (up to 200 characters).' })
  search?: string | null;
  @Field(() => Int, { nullable: true, description: 'How many names: default 100, at most 1000.' }) limit?: number | null;
}
