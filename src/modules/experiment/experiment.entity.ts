import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { ExperimentDateTimeScalar, JSONObjectScalar, JSONScalar } from '../../graphql/scalars';
import { FeatureFlag } from '../feature-flag/feature-flag.entity';
import { Project } from '../project/project.entity';
import { User } from '../user/user.entity';
import { stampNow } from '../../clock';

/** An A/B experiment over a multivariate flag (docs/experiments.md §1). Draft: no start date. */
@ObjectType({
  description: 'An A/B test over a multivariate flag (docs/experiments.md): a draft until it starts, running until it ends, then complete.',
})
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

  @Field(() => Int, { description: "The experiment's id." })
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => Project, { deleteRule: 'cascade' })
  project!: Project;

  @Field(() => String, { description: "The experiment's name, shown in lists (up to 400 characters)." })
  @Property({ type: 'text' })
  name!: string;

  @Field(() => String, { nullable: true, description: 'Free text (up to 400 characters); null when not set.' })
  @Property({ type: 'text', nullable: true })
  description: string | null = null;

  @Field(() => ExperimentDateTimeScalar, { nullable: true, description: "The experiment's start; null while it is a draft." })
  @Property({ type: 'timestamptz', nullable: true })
  startDate: Date | null = null;

  @Field(() => ExperimentDateTimeScalar, {
    nullable: true,
    description: "The experiment's end, later than `startDate`; null until it is set.",
  })
  @Property({ type: 'timestamptz', nullable: true })
  endDate: Date | null = null;

  /** The linked flag; a flag used by an experiment cannot be hard-deleted (the service says why first). */
  @Index()
  @ManyToOne(() => FeatureFlag, { deleteRule: 'restrict' })
  featureFlag!: FeatureFlag;

  @Field(() => JSONObjectScalar, {
    description: 'Variants (`feature_flag_variants`), `aggregation_group_type_index` and other settings, as sent; `{}` by default.',
  })
  @Property({ type: 'jsonb' })
  parameters: Record<string, unknown> = {};

  @Field(() => JSONScalar, { description: 'A list of secondary metrics, each `{name, filters}`; `[]` by default.' })
  @Property({ type: 'jsonb' })
  secondaryMetrics: unknown[] = [];

  @Field(() => JSONObjectScalar, { description: 'The primary metric: a funnel or trend insight definition (docs/experiment-results.md).' })
  @Property({ type: 'jsonb' })
  filters!: Record<string, unknown>;

  @Field(() => Boolean, { description: 'Whether the experiment is archived; archiving does not change its state.' })
  @Property({ type: 'boolean' })
  archived: boolean = false;

  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  createdBy: User | null = null;

  @Field(() => ExperimentDateTimeScalar, { description: 'When the experiment was created.' })
  @Property({ type: 'timestamptz', onCreate: stampNow })
  createdAt!: Date;

  @Field(() => ExperimentDateTimeScalar, { description: 'When the experiment was last changed.' })
  @Property({ type: 'timestamptz', onCreate: stampNow, onUpdate: stampNow })
  updatedAt!: Date;
}
