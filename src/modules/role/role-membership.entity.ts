import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { randomUUID } from 'node:crypto';
import { DateTimeScalar } from '../../graphql/scalars';
import { User } from '../user/user.entity';
import { Role } from './role.entity';

@ObjectType()
@Entity({ tableName: 'role_membership' })
@Unique({ properties: ['role', 'user'] })
export class RoleMembership {
  [OptionalProps]?: 'id' | 'joinedAt' | 'updatedAt';

  @Field(() => String)
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => Role, { deleteRule: 'cascade' })
  role!: Role;

  @Index()
  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User;

  @Field(() => DateTimeScalar)
  @Property({ type: 'timestamptz' })
  joinedAt: Date = new Date();

  @Field(() => DateTimeScalar)
  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
