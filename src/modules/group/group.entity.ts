import { BigIntType, Entity, ManyToOne, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { DateTimeScalar, JSONObjectScalar } from '../../graphql/scalars';
import { Project } from '../project/project.entity';
import { stampNow } from '../../clock';

/** A group (docs/ingestion.md §4): made and updated by `$groupidentify` events. */
@ObjectType({ description: 'A group (e.g. one organization) and its properties.' })
@Entity({ tableName: 'group' })
@Unique({ properties: ['project', 'groupTypeIndex', 'groupKey'] })
export class Group {
  [OptionalProps]?: 'id' | 'groupProperties' | 'createdAt';

  @PrimaryKey({ type: new BigIntType('number'), autoincrement: true })
  id!: number;

  @ManyToOne(() => Project, { deleteRule: 'cascade' })
  project!: Project;

  @Field(() => Int, { description: "The group's type, 0–4 (see `groupTypes`)." })
  @Property({ type: 'smallint' })
  groupTypeIndex!: number;

  @Field(() => String, { description: "The group's key, unique within its type (e.g. a company id)." })
  @Property({ type: 'text' })
  groupKey!: string;

  @Field(() => JSONObjectScalar, { description: "The group's properties, as `$groupidentify` events set them." })
  @Property({ type: 'jsonb' })
  groupProperties: Record<string, unknown> = {};

  @Field(() => DateTimeScalar, { description: 'The timestamp of the event that created the group.' })
  @Property({ type: 'timestamptz', onCreate: stampNow })
  createdAt!: Date;
}
