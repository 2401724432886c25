import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { Organization } from '../organization/organization.entity';
import { DateTimeScalar } from '../../graphql/scalars';
import { stampNow } from '../../clock';

@ObjectType({
  description:
    'A project of an organization: it holds flags, experiments, cohorts, dashboards, and the events, persons and groups SDKs send.',
})
@Entity({ tableName: 'project' })
export class Project {
  [OptionalProps]?: 'id' | 'createdAt';

  @Field(() => Int, { description: "The project's id: what `projectId` arguments take." })
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Index()
  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization;

  @Field(() => String, { description: "The project's name." })
  @Property({ type: 'text' })
  name!: string;

  /** Public SDK token (`phc_…`): identifies the project for SDKs and ingestion; authenticates nothing here. */
  @Field(() => String, {
    description: 'The public project token (`phc_…`) that SDKs and the capture endpoints send; it authenticates no API call.',
  })
  @Property({ type: 'text', unique: true })
  apiToken!: string;

  /** Secret token (`phs_…`): may replace a personal key on the local-evaluation paths. Never exposed over GraphQL. */
  @Property({ type: 'text', unique: true })
  secretApiToken!: string;

  @Field(() => DateTimeScalar, { description: 'When the project was created.' })
  @Property({ type: 'timestamptz', onCreate: stampNow })
  createdAt!: Date;
}
