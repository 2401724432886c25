import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { Project } from '../project/project.entity';
import { User } from '../user/user.entity';
import { DateTimeScalar, JSONScalar } from '../../graphql/scalars';
import { stampNow } from '../../clock';

/**
 * A feature flag. `filters` holds the stored form; GraphQL's `filters` field shows the
 * normalised form (see feature-flag.presenter.ts). Computed fields live on the resolver.
 */
@ObjectType({
  description: 'A feature flag: release conditions that decide which persons or groups get it, and with which value (docs/rest-api.md §3).',
})
@Entity({ tableName: 'feature_flag' })
// SPEC-GAP: one row per (project, key), deleted or not (docs/rest-api.md §3.4): a create or re-key
// first hard-deletes a soft-deleted holder, so the unique index also settles concurrent creates.
@Unique({ properties: ['project', 'key'] })
@Index({ properties: ['project', 'deleted', 'createdAt'] })
export class FeatureFlag {
  [OptionalProps]?:
    | 'id'
    | 'name'
    | 'filters'
    | 'deleted'
    | 'active'
    | 'createdAt'
    | 'updatedAt'
    | 'createdBy'
    | 'lastModifiedBy'
    | 'ensureExperienceContinuity'
    | 'rollbackConditions'
    | 'performedRollback'
    | 'tags'
    | 'analyticsDashboards'
    | 'usageDashboardId'
    | 'hasEnrichedAnalytics'
    | 'version';

  @Field(() => Int, { description: "The flag's id." })
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => Project, { deleteRule: 'cascade' })
  project!: Project;

  @Field(() => String, { description: 'The description of the flag (named `name` for backwards compatibility).' })
  @Property({ type: 'text' })
  name: string = '';

  @Field(() => String, { description: "The flag's key, which SDKs ask for: unique in the project; letters, digits, `-` and `_`." })
  @Property({ type: 'text' })
  key!: string;

  @Property({ type: 'jsonb' })
  filters: Record<string, unknown> = {};

  @Field(() => Boolean, { description: 'Whether the flag is soft-deleted: left out of lists and evaluation until restored.' })
  @Property({ type: 'boolean' })
  deleted: boolean = false;

  @Field(() => Boolean, { description: 'Whether the flag is on; an inactive flag is false for everyone.' })
  @Property({ type: 'boolean' })
  active: boolean = true;

  @Index()
  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  createdBy: User | null = null;

  /** The last successful writer, named in the 409 message. */
  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  lastModifiedBy: User | null = null;

  @Field(() => DateTimeScalar, { description: 'When the flag was created (a create may set it).' })
  @Property({ type: 'timestamptz', onCreate: stampNow })
  createdAt!: Date;

  @Property({ type: 'timestamptz', onCreate: stampNow, onUpdate: stampNow })
  updatedAt!: Date;

  @Field(() => Boolean, {
    nullable: true,
    description: "PostHog's experience-continuity switch: stored and sent to SDKs, but this service's evaluation ignores it.",
  })
  @Property({ type: 'boolean', nullable: true })
  ensureExperienceContinuity: boolean | null = false;

  @Field(() => JSONScalar, { nullable: true, description: 'Any JSON, stored as given; nothing here acts on it.' })
  @Property({ type: 'jsonb', nullable: true })
  rollbackConditions: unknown = null;

  @Field(() => Boolean, { nullable: true, description: 'Stored as given; turning the flag on resets it to false.' })
  @Property({ type: 'boolean', nullable: true })
  performedRollback: boolean | null = null;

  @Field(() => [String], { description: "The flag's tags: lower-case, sorted." })
  @Property({ type: 'text[]' })
  tags: string[] = [];

  @Field(() => [Int], { description: 'Ids of other dashboards of the project linked to the flag, ascending.' })
  @Property({ type: 'integer[]', columnType: 'int[]' })
  analyticsDashboards: number[] = [];

  @Field(() => Int, { nullable: true, description: "The id of the flag's usage dashboard (REST's `usage_dashboard`)." })
  @Property({ type: 'integer', nullable: true })
  usageDashboardId: number | null = null;

  @Field(() => Boolean, {
    nullable: true,
    description: 'Whether the usage dashboard may get the feature view and interaction tiles; null counts as false.',
  })
  @Property({ type: 'boolean', nullable: true })
  hasEnrichedAnalytics: boolean | null = false;

  @Field(() => Int, { description: '1 when created, one more after every accepted change; send it with an update to detect conflicts.' })
  @Property({ type: 'integer' })
  version: number = 1;
}
