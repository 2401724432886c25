import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { randomUUID } from 'node:crypto';
import { stampNow } from '../../clock';

@ObjectType({ description: 'A user of the service: a member of organizations who holds personal API keys and creates things.' })
@Entity({ tableName: 'app_user' })
export class User {
  [OptionalProps]?: 'id' | 'uuid' | 'firstName' | 'isEmailVerified' | 'isActive' | 'createdAt' | 'currentProjectId';

  @Field(() => Int, { description: "The user's id (what `createdById` filters take)." })
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Field(() => String, { description: "The user's UUID (what `RoleMembershipInput.userUuid` takes)." })
  @Property({ type: 'uuid', unique: true })
  uuid: string = randomUUID();

  @Field(() => String, { description: "The user's own distinct id, which `myFeatureFlags` evaluates flags for." })
  @Property({ type: 'text', unique: true })
  distinctId!: string;

  @Field(() => String, { description: "The user's first name; may be empty." })
  @Property({ type: 'text' })
  firstName: string = '';

  @Field(() => String, { description: "The user's e-mail address." })
  @Property({ type: 'text', unique: true })
  email!: string;

  @Field(() => Boolean, { description: 'Whether the e-mail address is verified.' })
  @Property({ type: 'boolean' })
  isEmailVerified: boolean = false;

  @Property({ type: 'boolean' })
  isActive: boolean = true;

  /** The project `@current` resolves to: the first one the user was given access to. */
  @Property({ type: 'integer', nullable: true })
  currentProjectId: number | null = null;

  @Property({ type: 'timestamptz', onCreate: stampNow })
  createdAt!: Date;
}
