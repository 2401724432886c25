import { ArgsType, Field, InputType, Int, registerEnumType } from 'type-graphql';
import { ExperimentDateTimeScalar, JSONObjectScalar, JSONScalar } from '../../graphql/scalars';

/** Loose at the type level: the service answers missing and wrong values with the API's messages. */
@InputType({ description: 'A new experiment: `name`, `featureFlagKey` and non-empty `filters` are required.' })
export class ExperimentCreateInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => ExperimentDateTimeScalar, { nullable: true, description: 'Setting it launches the experiment.' }) startDate?: Date | null;
  @Field(() => ExperimentDateTimeScalar, { nullable: true }) endDate?: Date | null;
  @Field(() => String, { nullable: true, description: 'The flag to create or reuse; immutable afterwards.' }) featureFlagKey?:
    string | null;
  @Field(() => JSONObjectScalar, { nullable: true }) parameters?: Record<string, unknown> | null;
  @Field(() => JSONScalar, { nullable: true }) secondaryMetrics?: unknown;
  @Field(() => JSONObjectScalar, { nullable: true }) filters?: Record<string, unknown> | null;
  @Field(() => Boolean, { nullable: true }) archived?: boolean | null;
}

@InputType({ description: 'A partial update; `filters`, `parameters` and `secondaryMetrics` are replaced whole.' })
export class ExperimentUpdateInput extends ExperimentCreateInput {}

export enum ExperimentStatusFilter {
  draft = 'draft',
  running = 'running',
  complete = 'complete',
  all = 'all',
}
registerEnumType(ExperimentStatusFilter, { name: 'ExperimentStatus' });

@ArgsType()
export class ExperimentListArgs {
  @Field(() => Int, { nullable: true, description: 'Page size: default 100, at most 1000.' }) limit?: number | null;
  @Field(() => Int, { nullable: true }) offset?: number | null;
  @Field(() => Boolean, { nullable: true }) archived?: boolean | null;
  @Field(() => ExperimentStatusFilter, { nullable: true }) status?: ExperimentStatusFilter | null;
  @Field(() => String, { nullable: true, description: 'Case-insensitive substring of the name.' }) search?: string | null;
  @Field(() => Int, { nullable: true }) createdById?: number | null;
}
