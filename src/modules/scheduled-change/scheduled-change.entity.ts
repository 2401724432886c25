import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { DateTimeScalar, JSONObjectScalar } from '../../graphql/scalars';
import { Project } from '../project/project.entity';
import { User } from '../user/user.entity';
import { stampNow } from '../../clock';

/**
 * A change to a flag that the job engine applies at `scheduledAt` (docs/scheduled-changes.md), as its
 * creator, through the flag service's update. `executedAt` or `failureReason` is set once it ran.
 */
@ObjectType({ description: 'A change to a feature flag applied at a given time (docs/scheduled-changes.md).' })
@Entity({ tableName: 'scheduled_change' })
@Index({ properties: ['project', 'scheduledAt'] })
export class ScheduledChange {
  [OptionalProps]?: 'id' | 'modelName' | 'executedAt' | 'failureReason' | 'createdAt' | 'updatedAt' | 'createdBy';

  @Field(() => Int, { description: "The scheduled change's id." })
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => Project, { deleteRule: 'cascade' })
  project!: Project;

  @Field(() => String, { description: "The changed record's id (a flag's id, as a string, as PostHog has it)." })
  @Property({ type: 'text' })
  recordId!: string;

  @Field(() => String, { description: 'The kind of record changed: `FeatureFlag` (the only one).' })
  @Property({ type: 'text' })
  modelName: string = 'FeatureFlag';

  @Field(() => JSONObjectScalar, {
    description:
      '`{"operation": "update_status", "value": true|false}` or `{"operation": "add_release_condition", "value": {"groups": [...]}}`.',
  })
  @Property({ type: 'jsonb' })
  payload!: Record<string, unknown>;

  @Field(() => DateTimeScalar, { description: 'When the change is applied (within a few seconds).' })
  @Property({ type: 'timestamptz' })
  scheduledAt!: Date;

  @Field(() => DateTimeScalar, { nullable: true, description: 'When the change was applied; null until then.' })
  @Property({ type: 'timestamptz', nullable: true })
  executedAt: Date | null = null;

  @Field(() => String, { nullable: true, description: 'Why applying the change failed; null unless it did (it is not retried).' })
  @Property({ type: 'text', nullable: true })
  failureReason: string | null = null;

  @Field(() => DateTimeScalar, { description: 'When the change was scheduled.' })
  @Property({ type: 'timestamptz', onCreate: stampNow })
  createdAt!: Date;

  @Field(() => DateTimeScalar, { description: 'When the scheduled change was last edited or run.' })
  @Property({ type: 'timestamptz', onCreate: stampNow, onUpdate: stampNow })
  updatedAt!: Date;

  /** Who scheduled it: the change is applied as this user. */
  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  createdBy: User | null = null;
}
