import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeScalar, JSONScalar } from '../../graphql/scalars';

/** What an entry is about; the values are the wire's `scope` text. */
export enum ActivityScopeName {
  FeatureFlag = 'FeatureFlag',
  Experiment = 'Experiment',
  Cohort = 'Cohort',
}
registerEnumType(ActivityScopeName, { name: 'ActivityScope' });

@ObjectType('ActivityChange', { description: 'One field of an item before and after a change.' })
export class ActivityChangeType {
  @Field(() => ActivityScopeName) type!: ActivityScopeName;
  @Field(() => String, { description: '`created` (from nothing), `deleted` (to nothing) or `changed`.' }) action!: string;
  @Field(() => String) field!: string;
  @Field(() => JSONScalar, { nullable: true }) before!: unknown;
  @Field(() => JSONScalar, { nullable: true }) after!: unknown;
}

@ObjectType('ActivityDetail')
export class ActivityDetailType {
  @Field(() => [ActivityChangeType], { nullable: true, description: 'Null for `created` and for experiment `deleted`.' })
  changes!: ActivityChangeType[] | null;

  @Field(() => JSONScalar, { nullable: true }) trigger!: unknown;
  @Field(() => String, { nullable: true }) type!: string | null;
  @Field(() => String, { description: "The item's key (flags) or name as it was right after the change." }) name!: string;
  @Field(() => String, { nullable: true }) shortId!: string | null;
}

@ObjectType({ description: 'Who changed what, and when.' })
export class ActivityEntry {
  @Field(() => String, { description: 'The entry id (a 64-bit integer, as text).' }) id!: string;
  @Field(() => String, { description: '`created`, `updated`, `deleted` or `restored`.' }) activity!: string;
  @Field(() => ActivityScopeName) scope!: ActivityScopeName;
  @Field(() => String, { description: 'The id of the item, as text.' }) itemId!: string;
  @Field(() => ActivityDetailType) detail!: ActivityDetailType;
  @Field(() => DateTimeScalar) createdAt!: Date;
  /** Read by the `user` field through the user DataLoader. */
  userId!: number | null;
}

@ObjectType({ description: 'One page of activity, newest first.' })
export class ActivityPage {
  @Field(() => Int) totalCount!: number;
  @Field(() => Int, { description: 'The 1-based page shown.' }) page!: number;
  @Field(() => Int, { description: 'Entries per page.' }) limit!: number;
  @Field(() => [ActivityEntry]) results!: ActivityEntry[];
}

/** The paging arguments' descriptions, shared by every activity field. */
export const PAGE_DESCRIPTION = '1-based; invalid or below 1 means 1.';
export const LIMIT_DESCRIPTION = 'Entries per page: 10 by default, at most 1000; invalid or below 1 means 10.';
