import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';
import { JSONScalar } from '../../graphql/scalars';
import { FeatureFlag } from '../feature-flag/feature-flag.entity';

/** docs/evaluation.md §3.3, plus `disabled` for inactive flags. Values keep the API's snake_case names. */
export enum FlagEvaluationReason {
  super_condition_value = 'super_condition_value',
  condition_match = 'condition_match',
  no_group_type = 'no_group_type',
  out_of_rollout_bound = 'out_of_rollout_bound',
  no_condition_match = 'no_condition_match',
  disabled = 'disabled',
}
registerEnumType(FlagEvaluationReason, { name: 'FlagEvaluationReason' });

@ObjectType({ description: 'One flag evaluated for one distinct id, with why.' })
export class FlagEvaluation {
  @Field(() => String)
  key!: string;

  @Field(() => JSONScalar, { description: 'false, true or a variant key.' })
  value!: boolean | string;

  @Field(() => FlagEvaluationReason)
  reason!: FlagEvaluationReason;

  @Field(() => Int, { nullable: true, description: 'The deciding condition; null for no_group_type and disabled.' })
  conditionIndex!: number | null;
}

@ObjectType({ description: "A flag's value for the caller's own distinct id." })
export class MyFeatureFlag {
  @Field(() => FeatureFlag)
  featureFlag!: FeatureFlag;

  @Field(() => JSONScalar, { description: 'false, true or a variant key.' })
  value!: boolean | string;
}
