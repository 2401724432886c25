import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { randomUUID } from 'node:crypto';
import { DateTimeScalar } from '../../graphql/scalars';

@ObjectType()
@Entity({ tableName: 'organization' })
export class Organization {
  [OptionalProps]?: 'id' | 'createdAt';

  @Field(() => String)
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Field(() => String)
  @Property({ type: 'text' })
  name!: string;

  @Field(() => DateTimeScalar)
  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
