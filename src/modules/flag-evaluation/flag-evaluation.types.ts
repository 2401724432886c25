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
registerEnumType(FlagEvaluationReason, {
  name: 'FlagEvaluationReason',
  description: 'Why a flag has its value for a subject (docs/evaluation.md §3.3).',
  valuesConfig: {
    super_condition_value: { description: "The person has the flag's enrolment property: the super condition decided." },
    condition_match: { description: 'A condition matched and its rollout let the subject through.' },
    no_group_type: { description: 'A group flag, but the group type does not exist or `groups` gives no key for it.' },
    out_of_rollout_bound: { description: "A condition's properties matched, but its rollout left the subject out." },
    no_condition_match: { description: "No condition's properties matched." },
    disabled: { description: 'The flag is inactive.' },
  },
});

@ObjectType({ description: 'One flag evaluated for one distinct id, with why.' })
export class FlagEvaluation {
  @Field(() => String, { description: "The flag's key." })
  key!: string;

  @Field(() => JSONScalar, { description: "The flag's value: false, true or a variant key." })
  value!: boolean | string;

  @Field(() => FlagEvaluationReason, { description: 'Why the flag has this value.' })
  reason!: FlagEvaluationReason;

  @Field(() => Int, { nullable: true, description: 'The deciding condition; null for no_group_type and disabled.' })
  conditionIndex!: number | null;
}

@ObjectType({ description: "A flag's value for the caller's own distinct id." })
export class MyFeatureFlag {
  @Field(() => FeatureFlag, { description: 'The flag.' })
  featureFlag!: FeatureFlag;

  @Field(() => JSONScalar, { description: "The flag's value: false, true or a variant key (false when it is inactive)." })
  value!: boolean | string;
}
