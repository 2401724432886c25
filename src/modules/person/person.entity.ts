import { BigIntType, Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { DateTimeScalar, JSONObjectScalar } from '../../graphql/scalars';
import { Project } from '../project/project.entity';
import { stampNow } from '../../clock';

/** A person of a project (docs/ingestion.md §3): made and changed only by the capture endpoints. */
@ObjectType({ description: 'A person: the distinct ids an SDK has sent for one human, with their properties.' })
@Entity({ tableName: 'person' })
@Unique({ properties: ['project', 'uuid'] })
@Index({ properties: ['project', 'createdAt'] })
export class Person {
  [OptionalProps]?: 'id' | 'properties' | 'isIdentified' | 'createdAt';

  // SPEC-GAP: the column is bigint (docs/ingestion.md §3.1); GraphQL shows it as Int, as REST shows a number.
  @Field(() => Int, { description: "The person's id." })
  @PrimaryKey({ type: new BigIntType('number'), autoincrement: true })
  id!: number;

  @Field(() => String, { description: "The person's uuid, fixed for life; events carry it as `personId`." })
  @Property({ type: 'uuid' })
  uuid!: string;

  @ManyToOne(() => Project, { deleteRule: 'cascade' })
  project!: Project;

  @Field(() => JSONObjectScalar, { description: "The person's properties, as `$set`, `$set_once` and `$unset` left them." })
  @Property({ type: 'jsonb' })
  properties: Record<string, unknown> = {};

  @Field(() => Boolean, {
    description: 'Whether the person is identified: set by `$identify`, `$create_alias` and `$merge_dangerously` (docs/ingestion.md §3.3).',
  })
  @Property({ type: 'boolean' })
  isIdentified: boolean = false;

  @Field(() => DateTimeScalar, { description: "The timestamp of the person's first event." })
  @Property({ type: 'timestamptz', onCreate: stampNow })
  createdAt!: Date;
}
