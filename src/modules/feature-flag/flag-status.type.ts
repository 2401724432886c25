import { Field, ObjectType, registerEnumType } from 'type-graphql';
/** The values are REST's (lower-case, as PostHog's status endpoint answers); GraphQL shows the names. */
export enum FeatureFlagStatusValue {
  ACTIVE = 'active',
  STALE = 'stale',
  DELETED = 'deleted',
}
registerEnumType(FeatureFlagStatusValue, {
  name: 'FeatureFlagStatusValue',
  description: 'Whether a flag is still worth keeping (docs/stale-flags.md).',
  valuesConfig: {
    ACTIVE: { description: 'Changed or evaluated in the last 30 days, with an answer that can vary.' },
    STALE: { description: 'Unchanged for 30 days, and its answer cannot vary or it was not evaluated in 30 days.' },
    DELETED: { description: 'Soft-deleted.' },
  },
});

@ObjectType('FeatureFlagStatus', { description: "A flag's status and why (REST: `GET …/feature_flags/:id/status/`)." })
export class FeatureFlagStatusType {
  @Field(() => FeatureFlagStatusValue, { description: 'active, stale or deleted.' })
  status!: FeatureFlagStatusValue;

  @Field(() => String, { description: 'Why, as a sentence.' })
  reason!: string;
}
