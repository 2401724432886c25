import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { JSONScalar } from '../../graphql/scalars';

/** Loose at the type level: the service answers missing and wrong values with the API's messages. */
@InputType({ description: 'A cohort write: `name` is required on create, and `filters` for a dynamic cohort.' })
export class CohortInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => JSONScalar, { nullable: true, description: '{"properties": <property group>}; ignored for static cohorts.' })
  filters?: unknown;
  @Field(() => Boolean, { nullable: true, description: 'Create only; it cannot change afterwards.' }) isStatic?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: 'true soft-deletes, false restores.' }) deleted?: boolean | null;
}

@InputType({ description: 'Persons to add to a static cohort, by distinct id (unknown ones are skipped).' })
export class CohortMembersInput {
  @Field(() => JSONScalar, { nullable: true, description: 'A non-empty list of at most 10,000 distinct ids.' }) distinctIds?: unknown;
}

@ArgsType()
export class CohortListArgs {
  @Field(() => Int, { nullable: true, description: 'Page size: default 100, at most 1000.' }) limit?: number | null;
  @Field(() => Int, { nullable: true }) offset?: number | null;
}
