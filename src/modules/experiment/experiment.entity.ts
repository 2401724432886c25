import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { ExperimentDateTimeScalar, JSONObjectScalar, JSONScalar } from '../../graphql/scalars';
import { FeatureFlag } from '../feature-flag/feature-flag.entity';
import { Project } from '../project/project.entity';
import { User } from '../user/user.entity';

/** An A/B experiment over a multivariate flag (docs/experiments.md §1). Draft: no start date. */
@ObjectType()
@Entity({ tableName: 'experiment' })
@Index({ properties: ['project', 'createdAt'] })
export class Experiment {
  [OptionalProps]?:
    | 'id'
    | 'description'
    | 'startDate'
    | 'endDate'
    | 'parameters'
    | 'secondaryMetrics'
    | 'archived'
    | 'createdAt'
    | 'updatedAt'
    | 'createdBy';

  @Field(() => Int)
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => Project, { deleteRule: 'cascade' })
  project!: Project;

  @Field(() => String)
  @Property({ type: 'text' })
  name!: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  description: string | null = null;

  @Field(() => ExperimentDateTimeScalar, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  startDate: Date | null = null;

  @Field(() => ExperimentDateTimeScalar, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  endDate: Date | null = null;

  /** The linked flag; a flag used by an experiment cannot be hard-deleted (the service says why first). */
  @Index()
  @ManyToOne(() => FeatureFlag, { deleteRule: 'restrict' })
  featureFlag!: FeatureFlag;

  @Field(() => JSONObjectScalar)
  @Property({ type: 'jsonb' })
  parameters: Record<string, unknown> = {};

  @Field(() => JSONScalar)
  @Property({ type: 'jsonb' })
  secondaryMetrics: unknown[] = [];

  @Field(() => JSONObjectScalar)
  @Property({ type: 'jsonb' })
  filters!: Record<string, unknown>;

  @Field(() => Boolean)
  @Property({ type: 'boolean' })
  archived: boolean = false;

  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  createdBy: User | null = null;

  @Field(() => ExperimentDateTimeScalar)
  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Field(() => ExperimentDateTimeScalar)
  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
