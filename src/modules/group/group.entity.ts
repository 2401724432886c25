import { BigIntType, Entity, ManyToOne, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { DateTimeScalar, JSONObjectScalar } from '../../graphql/scalars';
import { Project } from '../project/project.entity';

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

  @Field(() => Int)
  @Property({ type: 'smallint' })
  groupTypeIndex!: number;

  @Field(() => String)
  @Property({ type: 'text' })
  groupKey!: string;

  @Field(() => JSONObjectScalar)
  @Property({ type: 'jsonb' })
  groupProperties: Record<string, unknown> = {};

  @Field(() => DateTimeScalar)
  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
