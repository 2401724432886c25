import { Entity, ManyToOne, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { Project } from '../project/project.entity';

export const MAX_GROUP_TYPES = 5;

/** A project's group type: index 0–4 in order of first appearance in captured events (docs/ingestion.md §4). */
@ObjectType('GroupType', { description: 'A group type (e.g. `organization`) and its index.' })
@Entity({ tableName: 'group_type_mapping' })
@Unique({ properties: ['project', 'groupType'] })
@Unique({ properties: ['project', 'groupTypeIndex'] })
export class GroupTypeMapping {
  [OptionalProps]?: 'id' | 'nameSingular' | 'namePlural';

  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => Project, { deleteRule: 'cascade' })
  project!: Project;

  @Field(() => String, { description: "The type's name, as events give it (e.g. `company`)." })
  @Property({ type: 'text' })
  groupType!: string;

  @Field(() => Int, { description: "The type's index, 0–4, given in order of first appearance; flags and groups refer to it." })
  @Property({ type: 'smallint' })
  groupTypeIndex!: number;

  @Field(() => String, { nullable: true, description: "PostHog's display name for one group; always null here (nothing sets it)." })
  @Property({ type: 'text', nullable: true })
  nameSingular: string | null = null;

  @Field(() => String, { nullable: true, description: "PostHog's display name for several groups; always null here (nothing sets it)." })
  @Property({ type: 'text', nullable: true })
  namePlural: string | null = null;
}
