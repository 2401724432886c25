import { ArgsType, Field, InputType, Int, registerEnumType } from 'type-graphql';
import { ExperimentDateTimeScalar, JSONObjectScalar, JSONScalar } from '../../graphql/scalars';

/**
 * The fields every experiment write may send. Create makes `name`, `featureFlagKey` and `filters`
 * non-null; REST reads bodies with its own lenient rules and the API's messages (src/rest/input.ts).
 * Never used as a type itself, so not in the schema.
 */
@InputType('ExperimentFields')
class ExperimentFields {
  @Field(() => String, { nullable: true, description: "The experiment's name, shown in lists." }) name?: string | null;
  @Field(() => String, { nullable: true, description: 'Free text.' }) description?: string | null;
  @Field(() => ExperimentDateTimeScalar, { nullable: true, description: 'Setting it launches the experiment.' }) startDate?: Date | null;
  @Field(() => ExperimentDateTimeScalar, { nullable: true, description: 'Setting it ends the experiment; after `startDate`.' })
  endDate?: Date | null;
  @Field(() => String, { nullable: true, description: 'The flag to create or reuse; immutable afterwards.' }) featureFlagKey?:
    string | null;
  @Field(() => JSONObjectScalar, {
    nullable: true,
    description: 'Variants (`feature_flag_variants`), aggregation and metric settings (docs/experiments.md §2).',
  })
  parameters?: Record<string, unknown> | null;
  @Field(() => JSONScalar, { nullable: true, description: 'A list of secondary metrics, each with `name` and `filters`.' })
  secondaryMetrics?: unknown;
  @Field(() => JSONObjectScalar, {
    nullable: true,
    description: 'The primary metric: a funnel or trend insight definition; its `properties` must be empty.',
  })
  filters?: Record<string, unknown> | null;
  @Field(() => Boolean, { nullable: true, description: 'Whether the experiment is archived (lists can filter on it).' })
  archived?: boolean | null;
}

@InputType({ description: 'A new experiment.' })
export class ExperimentCreateInput extends ExperimentFields {
  @Field(() => String, { description: "The experiment's name, shown in lists." }) name!: string;
  @Field(() => String, { description: 'The flag to create or reuse; immutable afterwards.' }) featureFlagKey!: string;
  @Field(() => JSONObjectScalar, {
    description: 'The primary metric: a funnel or trend insight definition; not empty, and its `properties` empty.',
  })
  filters!: Record<string, unknown>;
}

@InputType({ description: 'A partial update; `filters`, `parameters` and `secondaryMetrics` are replaced whole.' })
export class ExperimentUpdateInput extends ExperimentFields {}

export enum ExperimentStatusFilter {
  draft = 'draft',
  running = 'running',
  complete = 'complete',
  all = 'all',
}
registerEnumType(ExperimentStatusFilter, {
  name: 'ExperimentStatus',
  description: "An experiment's state, which follows from its dates; `all` lists every state.",
  valuesConfig: {
    draft: { description: 'No start date yet.' },
    running: { description: 'Started, not ended.' },
    complete: { description: 'Started and ended.' },
    all: { description: 'Any state: the same as no `status`.' },
  },
});

@ArgsType()
export class ExperimentListArgs {
  @Field(() => Int, { nullable: true, description: 'Page size: default 100, at most 1000.' }) limit?: number | null;
  @Field(() => Int, { nullable: true, description: 'How many to skip: default 0.' }) offset?: number | null;
  @Field(() => Boolean, { nullable: true, description: 'true: only archived experiments; false: only the others; absent: both.' })
  archived?: boolean | null;
  @Field(() => ExperimentStatusFilter, { nullable: true, description: 'Only experiments in this state.' })
  status?: ExperimentStatusFilter | null;
  @Field(() => String, { nullable: true, description: 'Case-insensitive substring of the name.' }) search?: string | null;
  @Field(() => Int, { nullable: true, description: 'Only experiments this user (by id) created.' }) createdById?: number | null;
}
