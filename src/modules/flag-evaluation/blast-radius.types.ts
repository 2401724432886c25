import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { JSONScalar } from '../../graphql/scalars';

@InputType({ description: "A release condition to size (docs/rest-api.md §4.7); values are checked with the API's messages." })
export class BlastRadiusInput {
  @Field(() => JSONScalar, { description: '{"properties": [...], "rollout_percentage": n}; the rollout is ignored.' })
  condition!: unknown;

  @Field(() => JSONScalar, { nullable: true, description: 'null for persons, 0–4 for groups of that type.' })
  groupTypeIndex?: unknown;
}

@ObjectType({ description: 'How many persons (or groups) a condition matches, of how many.' })
export class BlastRadius {
  @Field(() => Int, { description: 'How many persons (or groups of the type) the condition matches.' })
  usersAffected!: number;

  @Field(() => Int, { description: 'How many persons (or groups of the type) the project has.' })
  totalUsers!: number;
}
