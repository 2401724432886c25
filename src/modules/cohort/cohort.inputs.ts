import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { JSONScalar } from '../../graphql/scalars';

/** The fields every cohort write may send; REST reads bodies with its own lenient rules (src/rest/input.ts). Not in the schema itself. */
@InputType('CohortFields')
class CohortFields {
  @Field(() => String, { nullable: true, description: 'Up to 400 characters.' }) name?: string | null;
  @Field(() => String, { nullable: true, description: 'Free text.' }) description?: string | null;
  @Field(() => JSONScalar, {
    nullable: true,
    description: '{"properties": <property group>} (docs/cohorts.md §2); required for a dynamic cohort, ignored for a static one.',
  })
  filters?: unknown;
  @Field(() => Boolean, { nullable: true, description: 'Create only (false by default); it cannot change afterwards.' })
  isStatic?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: 'true soft-deletes, false restores.' }) deleted?: boolean | null;
}

@InputType({ description: 'A new cohort: static (members added by distinct id) or dynamic (a property group).' })
export class CohortCreateInput extends CohortFields {
  @Field(() => String, { description: 'Up to 400 characters.' }) name!: string;
}

@InputType({ description: 'A partial update: absent fields are unchanged.' })
export class CohortUpdateInput extends CohortFields {}

@InputType({ description: 'Persons to add to a static cohort, by distinct id (unknown ones are skipped).' })
export class CohortMembersInput {
  @Field(() => [String], { description: 'A non-empty list of at most 10,000 distinct ids.' }) distinctIds!: string[];
}

@ArgsType()
export class CohortListArgs {
  @Field(() => Int, { nullable: true, description: 'Page size: default 100, at most 1000.' }) limit?: number | null;
  @Field(() => Int, { nullable: true, description: 'How many to skip: default 0.' }) offset?: number | null;
}
