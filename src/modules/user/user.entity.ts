import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { randomUUID } from 'node:crypto';

@ObjectType()
@Entity({ tableName: 'app_user' })
export class User {
  [OptionalProps]?: 'id' | 'uuid' | 'firstName' | 'isEmailVerified' | 'isActive' | 'createdAt' | 'currentProjectId';

  @Field(() => Int)
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Field(() => String)
  @Property({ type: 'uuid', unique: true })
  uuid: string = randomUUID();

  @Field(() => String)
  @Property({ type: 'text', unique: true })
  distinctId!: string;

  @Field(() => String)
  @Property({ type: 'text' })
  firstName: string = '';

  @Field(() => String)
  @Property({ type: 'text', unique: true })
  email!: string;

  @Field(() => Boolean)
  @Property({ type: 'boolean' })
  isEmailVerified: boolean = false;

  @Property({ type: 'boolean' })
  isActive: boolean = true;

  /** The project `@current` resolves to: the first one the user was given access to. */
  @Property({ type: 'integer', nullable: true })
  currentProjectId: number | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
