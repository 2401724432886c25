import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { Organization } from '../organization/organization.entity';
import { DateTimeScalar } from '../../graphql/scalars';

@ObjectType()
@Entity({ tableName: 'project' })
export class Project {
  [OptionalProps]?: 'id' | 'createdAt';

  @Field(() => Int)
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Index()
  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization;

  @Field(() => String)
  @Property({ type: 'text' })
  name!: string;

  /** Public SDK token (`phc_…`): identifies the project for SDKs and ingestion; authenticates nothing here. */
  @Field(() => String)
  @Property({ type: 'text', unique: true })
  apiToken!: string;

  /** Secret token (`phs_…`): may replace a personal key on the local-evaluation paths. Never exposed over GraphQL. */
  @Property({ type: 'text', unique: true })
  secretApiToken!: string;

  @Field(() => DateTimeScalar)
  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
