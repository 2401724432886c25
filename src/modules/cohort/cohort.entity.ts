import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { DateTimeScalar, JSONScalar } from '../../graphql/scalars';
import { Project } from '../project/project.entity';
import { User } from '../user/user.entity';
import { stampNow } from '../../clock';

/**
 * A cohort (docs/evaluation.md §5): dynamic (a property group in `filters.properties`, evaluated on the
 * fly) or static (`filters` null; members in `cohort_person`, by person). Never hard-deleted.
 * `count` and `createdBy` are field resolvers.
 */
@ObjectType({ description: 'A set of persons flags can target: by properties (dynamic) or by explicit membership (static).' })
@Entity({ tableName: 'cohort' })
@Index({ properties: ['project', 'deleted'] })
export class Cohort {
  [OptionalProps]?: 'id' | 'description' | 'filters' | 'isStatic' | 'deleted' | 'createdBy' | 'createdAt' | 'updatedAt';

  @Field(() => Int, { description: "The cohort's id: the `value` of a flag condition's `cohort` property." })
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => Project, { deleteRule: 'cascade' })
  project!: Project;

  @Field(() => String, { description: "The cohort's name (1 to 400 characters)." })
  @Property({ type: 'text' })
  name!: string;

  @Field(() => String, { description: 'Free text; `""` by default.' })
  @Property({ type: 'text' })
  description: string = '';

  @Field(() => JSONScalar, { nullable: true, description: '{"properties": <property group>} for dynamic cohorts; null for static ones.' })
  @Property({ type: 'jsonb', nullable: true })
  filters: Record<string, unknown> | null = null;

  @Field(() => Boolean, {
    description: 'True for a static cohort (members added by distinct id), false for a dynamic one; fixed at creation.',
  })
  @Property({ type: 'boolean' })
  isStatic: boolean = false;

  @Field(() => Boolean, { description: 'Whether the cohort is soft-deleted; flags that still name it treat it as empty.' })
  @Property({ type: 'boolean' })
  deleted: boolean = false;

  @Index()
  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  createdBy: User | null = null;

  @Field(() => DateTimeScalar, { description: 'When the cohort was created.' })
  @Property({ type: 'timestamptz', onCreate: stampNow })
  createdAt!: Date;

  @Property({ type: 'timestamptz', onCreate: stampNow, onUpdate: stampNow })
  updatedAt!: Date;
}
