import { ArgsType, Field, InputType, Int, registerEnumType } from 'type-graphql';
import { DateTimeScalar, JSONObjectScalar, JSONScalar } from '../../graphql/scalars';
import { FeatureFlagStatusValue } from './flag-status.type';

/**
 * GraphQL inputs: what a create or a replace needs is non-null, everything else optional. REST
 * does not go through these types' coercion: it reads bodies with its own lenient rules and the
 * API's messages (src/rest/input.ts), and the services check values the same way for both.
 */
/** The fields every flag write may send; the three inputs below add `key` and `version` as each needs. Never used as a type itself, so not in the schema. */
@InputType('FeatureFlagFields')
class FeatureFlagFields {
  @Field(() => String, { nullable: true, description: 'The description of the flag (named `name` for backwards compatibility).' })
  name?: string | null;
  @Field(() => JSONObjectScalar, {
    nullable: true,
    description: 'Release conditions, variants and payloads (docs/rest-api.md §3.3); `{}` when not sent.',
  })
  filters?: Record<string, unknown> | null;
  @Field(() => Boolean, { nullable: true, description: 'true soft-deletes the flag, false restores it.' }) deleted?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: 'Whether the flag is served (false: off for everyone).' }) active?: boolean | null;
  @Field(() => DateTimeScalar, { nullable: true, description: 'When the flag was created; the time of the create when not sent.' })
  createdAt?: Date | null;
  @Field(() => Boolean, { nullable: true, description: "Keep a person's value when they identify as another distinct id." })
  ensureExperienceContinuity?: boolean | null;
  @Field(() => JSONScalar, { nullable: true, description: 'Stored as given.' }) rollbackConditions?: unknown;
  @Field(() => Boolean, { nullable: true, description: 'Stored as given; activating the flag resets it to false.' })
  performedRollback?: boolean | null;
  @Field(() => [String], { nullable: true, description: 'Trimmed, lower-cased and de-duplicated.' }) tags?: string[] | null;
  @Field(() => [Int], { nullable: true, description: "Ids of this project's dashboards to link (links are only ever added)." })
  analyticsDashboards?: number[] | null;
  @Field(() => Boolean, { nullable: true, description: 'Whether the usage dashboard gets the enriched tiles.' })
  hasEnrichedAnalytics?: boolean | null;
}

@InputType({ description: 'A new feature flag.' })
export class FeatureFlagCreateInput extends FeatureFlagFields {
  @Field(() => String, { description: 'Unique in the project: letters, digits, `-` and `_`.' }) key!: string;
}

@InputType({ description: 'A partial update: absent fields are unchanged, null clears a nullable field.' })
export class FeatureFlagUpdateInput extends FeatureFlagFields {
  @Field(() => String, { nullable: true, description: 'Unique in the project: letters, digits, `-` and `_`.' }) key?: string | null;
  @Field(() => Int, { nullable: true, description: 'The version the client read; a different stored version answers CONFLICT.' })
  version?: number | null;
}

@InputType({ description: 'A whole flag (replaceFeatureFlag, REST PUT): `key` and `filters` with `groups` are required.' })
export class FeatureFlagReplaceInput extends FeatureFlagFields {
  @Field(() => String, { description: 'Unique in the project: letters, digits, `-` and `_`.' }) key!: string;
  @Field(() => JSONObjectScalar, { description: 'Release conditions, variants and payloads; `groups` is required.' })
  filters!: Record<string, unknown>;
  @Field(() => Int, { nullable: true, description: 'The version the client read; a different stored version answers CONFLICT.' })
  version?: number | null;
}

export enum FeatureFlagType {
  boolean = 'boolean',
  multivariant = 'multivariant',
  experiment = 'experiment',
}
registerEnumType(FeatureFlagType, {
  name: 'FeatureFlagType',
  description: 'What kind of flag a list keeps.',
  valuesConfig: {
    boolean: { description: 'Flags without variants.' },
    multivariant: { description: 'Flags with variants.' },
    experiment: { description: 'Flags an experiment uses.' },
  },
});

@ArgsType()
export class FeatureFlagListArgs {
  @Field(() => Int, { nullable: true, description: 'Page size: default 100, at most 1000.' }) limit?: number | null;
  @Field(() => Int, { nullable: true, description: 'How many to skip: default 0.' }) offset?: number | null;
  @Field(() => String, { nullable: true, description: 'Case-insensitive substring of key or name.' }) search?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'true: only active flags; false: only inactive ones.' }) active?: boolean | null;
  @Field(() => FeatureFlagType, { nullable: true, description: 'Only flags of this kind.' }) type?: FeatureFlagType | null;
  @Field(() => Int, { nullable: true, description: 'Only flags this user (by id) created.' }) createdById?: number | null;
  @Field(() => [String], { nullable: true, description: 'Flags carrying any of these tags.' }) tags?: string[] | null;
  @Field(() => FeatureFlagStatusValue, {
    nullable: true,
    description: 'Only flags with this status (REST: `active=STALE`; docs/stale-flags.md). The list never holds deleted flags.',
  })
  status?: FeatureFlagStatusValue | null;
}
