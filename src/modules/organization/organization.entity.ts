import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { randomUUID } from 'node:crypto';
import { DateTimeScalar } from '../../graphql/scalars';
import { stampNow } from '../../clock';

@ObjectType({ description: 'An organization: its members, roles and projects, and the default flag access level.' })
@Entity({ tableName: 'organization' })
export class Organization {
  [OptionalProps]?: 'id' | 'createdAt';

  @Field(() => String, { description: "The organization's UUID: what `organizationId` arguments take." })
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Field(() => String, { description: "The organization's name." })
  @Property({ type: 'text' })
  name!: string;

  @Field(() => DateTimeScalar, { description: 'When the organization was created.' })
  @Property({ type: 'timestamptz', onCreate: stampNow })
  createdAt!: Date;
}
