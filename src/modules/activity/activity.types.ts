import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeScalar, JSONScalar } from '../../graphql/scalars';

/** What an entry is about; the values are the wire's `scope` text. */
export enum ActivityScopeName {
  FeatureFlag = 'FeatureFlag',
  Experiment = 'Experiment',
  Cohort = 'Cohort',
}
registerEnumType(ActivityScopeName, {
  name: 'ActivityScope',
  description: 'What kind of item an activity entry is about.',
  valuesConfig: {
    FeatureFlag: { description: 'A feature flag.' },
    Experiment: { description: 'An experiment.' },
    Cohort: { description: 'A cohort.' },
  },
});

/** What happened to the item; the values are the wire's `activity` text. */
export enum ActivityKindName {
  created = 'created',
  updated = 'updated',
  deleted = 'deleted',
  restored = 'restored',
}
registerEnumType(ActivityKindName, {
  name: 'ActivityKind',
  description: 'What happened to the item.',
  valuesConfig: {
    created: { description: 'It was created.' },
    updated: { description: 'Fields changed (listed in `detail.changes`).' },
    deleted: { description: 'It was soft-deleted (flags, cohorts) or deleted (experiments).' },
    restored: { description: 'A soft-deleted flag or cohort was restored.' },
  },
});

/** How one field changed; the values are the wire's `action` text. */
export enum ActivityChangeActionName {
  created = 'created',
  changed = 'changed',
  deleted = 'deleted',
}
registerEnumType(ActivityChangeActionName, {
  name: 'ActivityChangeAction',
  description: 'How one field changed.',
  valuesConfig: {
    created: { description: 'From no value to a value.' },
    changed: { description: 'From one value to another.' },
    deleted: { description: 'From a value to none.' },
  },
});

@ObjectType('ActivityChange', { description: 'One field of an item before and after a change.' })
export class ActivityChangeType {
  @Field(() => ActivityScopeName, { description: "The kind of item changed (the entry's `scope`)." }) type!: ActivityScopeName;
  @Field(() => ActivityChangeActionName, { description: 'How the field changed.' }) action!: string;
  @Field(() => String, { description: "The field's REST name, e.g. `filters`; `role_access` for role grants on a flag." }) field!: string;
  @Field(() => JSONScalar, { nullable: true, description: 'The value before the change; null when there was none.' }) before!: unknown;
  @Field(() => JSONScalar, { nullable: true, description: 'The value after the change; null when there is none.' }) after!: unknown;
}

@ObjectType('ActivityDetail', { description: "An activity entry's details: the item's name and the fields that changed." })
export class ActivityDetailType {
  @Field(() => [ActivityChangeType], { nullable: true, description: 'Null for `created` and for experiment `deleted`.' })
  changes!: ActivityChangeType[] | null;

  @Field(() => JSONScalar, { nullable: true, description: 'Always null here (kept for PostHog compatibility).' }) trigger!: unknown;
  @Field(() => String, { nullable: true, description: 'Always null here (kept for PostHog compatibility).' }) type!: string | null;
  @Field(() => String, { description: "The item's key (flags) or name as it was right after the change." }) name!: string;
  @Field(() => String, { nullable: true, description: 'Always null here (kept for PostHog compatibility).' }) shortId!: string | null;
}

@ObjectType({ description: 'Who changed what, and when.' })
export class ActivityEntry {
  @Field(() => String, { description: 'The entry id (a 64-bit integer, as text).' }) id!: string;
  @Field(() => ActivityKindName, { description: 'What happened to the item.' }) activity!: string;
  @Field(() => ActivityScopeName, { description: 'What kind of item it is.' }) scope!: ActivityScopeName;
  @Field(() => String, { description: 'The id of the item, as text.' }) itemId!: string;
  @Field(() => ActivityDetailType, { description: "The item's name and the changed fields." }) detail!: ActivityDetailType;
  @Field(() => DateTimeScalar, { description: 'When the change was made.' }) createdAt!: Date;
  /** Read by the `user` field through the user DataLoader. */
  userId!: number | null;
}

@ObjectType({ description: 'One page of activity, newest first.' })
export class ActivityPage {
  @Field(() => Int, { description: 'How many entries match, over all pages.' }) totalCount!: number;
  @Field(() => Int, { description: 'The 1-based page shown.' }) page!: number;
  @Field(() => Int, { description: 'Entries per page.' }) limit!: number;
  @Field(() => [ActivityEntry], { description: "This page's entries, newest first." }) results!: ActivityEntry[];
}

/** The paging arguments' descriptions, shared by every activity field. */
export const PAGE_DESCRIPTION = '1-based; invalid or below 1 means 1.';
export const LIMIT_DESCRIPTION = 'Entries per page: 10 by default, at most 1000; invalid or below 1 means 10.';
