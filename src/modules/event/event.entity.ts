import { BigIntType, Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { DateTimeScalar, JSONObjectScalar } from '../../graphql/scalars';
import { Project } from '../project/project.entity';
import { EventTimestampScalar } from './event-timestamp.scalar';
import { stampNow } from '../../clock';

/**
 * A captured event (docs/ingestion.md §2). The indexes serve the reads later capabilities make:
 * metrics by event name and time, the newest-first list, one distinct id's or person's events,
 * and `$feature_flag_called` exposures by flag and response (experiments, usage dashboards).
 */
@ObjectType({ description: 'An event an SDK captured.' })
@Entity({ tableName: 'event' })
@Unique({ properties: ['project', 'uuid'] })
@Index({ properties: ['project', 'event', 'timestamp'] })
@Index({ properties: ['project', 'distinctId', 'timestamp'] })
@Index({ properties: ['project', 'personId'] })
@Index({
  name: 'event_project_id_timestamp_id_index',
  expression: 'create index "event_project_id_timestamp_id_index" on "event" ("project_id", "timestamp" desc, "id" desc)',
})
// SPEC-GAP: docs/ingestion.md §7 names (project, flag, timestamp); the response is indexed too, after the flag.
// The flag and its response lead, so exposures of one flag (or one variant) over a time range are one index range.
@Index({
  name: 'event_feature_flag_called_index',
  expression:
    `create index "event_feature_flag_called_index" on "event" ("project_id", ("properties" ->> '$feature_flag'), ` +
    `("properties" ->> '$feature_flag_response'), "timestamp") where "event" = '$feature_flag_called'`,
})
// A flag's last evaluation (docs/stale-flags.md): the newest call of one key is one index probe.
@Index({
  name: 'event_feature_flag_last_called_index',
  expression:
    `create index "event_feature_flag_last_called_index" on "event" ("project_id", ("properties" ->> '$feature_flag'), "timestamp") ` +
    `where "event" = '$feature_flag_called'`,
})
export class Event {
  [OptionalProps]?: 'id' | 'createdAt' | 'personId';

  @PrimaryKey({ type: new BigIntType('number'), autoincrement: true })
  id!: number;

  @ManyToOne(() => Project, { deleteRule: 'cascade' })
  project!: Project;

  @Field(() => String, { description: "The event's uuid (REST shows it as `id`)." })
  @Property({ type: 'uuid' })
  uuid!: string;

  @Field(() => String, { description: "The event's name, e.g. `$feature_flag_called`." })
  @Property({ type: 'text' })
  event!: string;

  @Field(() => String, { description: 'The distinct id that sent the event.' })
  @Property({ type: 'text' })
  distinctId!: string;

  @Field(() => JSONObjectScalar, { description: "The event's properties as stored (with `$group_<index>` added for its groups)." })
  @Property({ type: 'jsonb' })
  properties: Record<string, unknown> = {};

  @Field(() => EventTimestampScalar, { description: "When the event happened, corrected for the client's clock (docs/ingestion.md §2.2)." })
  @Property({ type: 'timestamptz' })
  timestamp!: Date;

  @Field(() => String, { nullable: true, description: "The person's uuid; null for personless events." })
  @Property({ type: 'uuid', nullable: true })
  personId: string | null = null;

  @Field(() => DateTimeScalar, { description: 'When the service received it.' })
  @Property({ type: 'timestamptz', onCreate: stampNow })
  createdAt!: Date;
}
