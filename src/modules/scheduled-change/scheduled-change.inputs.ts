import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { DateTimeScalar, JSONObjectScalar } from '../../graphql/scalars';

/**
 * Scheduled-change inputs. REST reads bodies with its own lenient rules (src/rest/input.ts); the
 * service checks values the same way for both transports.
 */
@InputType({ description: 'A change to apply to a flag at a given time.' })
export class ScheduledChangeCreateInput {
  @Field(() => String, { description: "The flag's id." }) recordId!: string;
  @Field(() => String, { nullable: true, description: '`FeatureFlag` (the default and only choice).' }) modelName?: string | null;
  @Field(() => JSONObjectScalar, {
    description:
      '`{"operation": "update_status", "value": true|false}` or `{"operation": "add_release_condition", "value": {"groups": [...]}}`.',
  })
  payload!: Record<string, unknown>;
  @Field(() => DateTimeScalar, { description: 'When to apply it; a time past applies it at once.' }) scheduledAt!: Date;
}

@InputType({ description: 'A partial update of a change not yet run: absent fields are unchanged.' })
export class ScheduledChangeUpdateInput {
  @Field(() => String, { nullable: true, description: "The flag's id." }) recordId?: string | null;
  @Field(() => String, { nullable: true, description: '`FeatureFlag`.' }) modelName?: string | null;
  @Field(() => JSONObjectScalar, { nullable: true, description: 'As on create.' }) payload?: Record<string, unknown> | null;
  @Field(() => DateTimeScalar, { nullable: true, description: 'A new time: the change is enqueued for it.' }) scheduledAt?: Date | null;
}

@ArgsType()
export class ScheduledChangeListArgsInput {
  @Field(() => Int, { nullable: true, description: 'Page size: default 100, at most 1000.' }) limit?: number | null;
  @Field(() => Int, { nullable: true, description: 'How many to skip: default 0.' }) offset?: number | null;
  @Field(() => String, { nullable: true, description: 'Only changes to this kind of record (`FeatureFlag`).' }) modelName?: string | null;
  @Field(() => String, { nullable: true, description: "Only changes to this record (a flag's id)." }) recordId?: string | null;
}
