import { ArgsType, Field, InputType, Int, registerEnumType } from 'type-graphql';
import { DateTimeScalar, JSONObjectScalar, JSONScalar } from '../../graphql/scalars';

/**
 * GraphQL inputs. Every field is optional at the type level so that the service answers
 * missing and null values with the same messages on both transports.
 */
@InputType({ description: 'A new feature flag; `key` is required.' })
export class FeatureFlagCreateInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) key?: string | null;
  @Field(() => JSONObjectScalar, { nullable: true }) filters?: Record<string, unknown> | null;
  @Field(() => Boolean, { nullable: true }) deleted?: boolean | null;
  @Field(() => Boolean, { nullable: true }) active?: boolean | null;
  @Field(() => DateTimeScalar, { nullable: true }) createdAt?: Date | null;
  @Field(() => Boolean, { nullable: true }) ensureExperienceContinuity?: boolean | null;
  @Field(() => JSONScalar, { nullable: true }) rollbackConditions?: unknown;
  @Field(() => Boolean, { nullable: true }) performedRollback?: boolean | null;
  @Field(() => [String], { nullable: true }) tags?: string[] | null;
  @Field(() => [Int], { nullable: true }) analyticsDashboards?: number[] | null;
  @Field(() => Boolean, { nullable: true }) hasEnrichedAnalytics?: boolean | null;
}

@InputType({ description: 'A partial update: absent fields are unchanged, null clears a nullable field.' })
export class FeatureFlagUpdateInput extends FeatureFlagCreateInput {
  @Field(() => Int, { nullable: true, description: 'The version the client read; a different stored version answers CONFLICT.' })
  version?: number | null;
}

export enum FeatureFlagType {
  boolean = 'boolean',
  multivariant = 'multivariant',
  experiment = 'experiment',
}
registerEnumType(FeatureFlagType, { name: 'FeatureFlagType' });

@ArgsType()
export class FeatureFlagListArgs {
  @Field(() => Int, { nullable: true, description: 'Page size: default 100, at most 1000.' }) limit?: number | null;
  @Field(() => Int, { nullable: true }) offset?: number | null;
  @Field(() => String, { nullable: true, description: 'Case-insensitive substring of key or name.' }) search?: string | null;
  @Field(() => Boolean, { nullable: true }) active?: boolean | null;
  @Field(() => FeatureFlagType, { nullable: true }) type?: FeatureFlagType | null;
  @Field(() => Int, { nullable: true }) createdById?: number | null;
  @Field(() => [String], { nullable: true, description: 'Flags carrying any of these tags.' }) tags?: string[] | null;
}
