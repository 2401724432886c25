import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { randomUUID } from 'node:crypto';
import { DateTimeScalar } from '../../graphql/scalars';
import { User } from '../user/user.entity';
import { Role } from './role.entity';
import { stampNow } from '../../clock';

@ObjectType({ description: "A user's membership of a role." })
@Entity({ tableName: 'role_membership' })
@Unique({ properties: ['role', 'user'] })
export class RoleMembership {
  [OptionalProps]?: 'id' | 'joinedAt' | 'updatedAt';

  @Field(() => String, { description: "The membership's UUID (not the user's)." })
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => Role, { deleteRule: 'cascade' })
  role!: Role;

  @Index()
  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User;

  @Field(() => DateTimeScalar, { description: 'When the user was added to the role.' })
  @Property({ type: 'timestamptz', onCreate: stampNow })
  joinedAt!: Date;

  @Field(() => DateTimeScalar, { description: 'When the membership last changed.' })
  @Property({ type: 'timestamptz', onCreate: stampNow, onUpdate: stampNow })
  updatedAt!: Date;
}
