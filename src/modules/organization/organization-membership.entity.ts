import { Entity, ManyToOne, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeScalar } from '../../graphql/scalars';
import { Organization } from './organization.entity';
import { User } from '../user/user.entity';
import { stampNow } from '../../clock';

/** Membership levels (docs/rest-api.md §2.5): member 1, admin 8, owner 15; "admin" means >= 8. */
export const MembershipLevel = { member: 1, admin: 8, owner: 15 } as const;
export type MembershipLevelValue = (typeof MembershipLevel)[keyof typeof MembershipLevel];

/** The membership levels as GraphQL names (REST would speak the numbers 1, 8 and 15). */
export enum OrganizationLevelName {
  MEMBER = MembershipLevel.member,
  ADMIN = MembershipLevel.admin,
  OWNER = MembershipLevel.owner,
}
registerEnumType(OrganizationLevelName, {
  name: 'OrganizationMembershipLevel',
  description: "A member's level in an organization (docs/rest-api.md §2.5); admins and owners manage roles.",
  valuesConfig: {
    MEMBER: { description: '1: a member.' },
    ADMIN: { description: '8: an admin.' },
    OWNER: { description: '15: the owner.' },
  },
});

@ObjectType('OrganizationMember', { description: "A user's membership of an organization, with their level." })
@Entity({ tableName: 'organization_membership' })
@Unique({ properties: ['organization', 'user'] })
export class OrganizationMembership {
  [OptionalProps]?: 'id' | 'joinedAt' | 'level';

  @Field(() => Int, { description: "The membership's id." })
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization;

  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User;

  @Field(() => OrganizationLevelName, { description: "The member's level." })
  @Property({ type: 'smallint' })
  level: number = MembershipLevel.member;

  @Field(() => DateTimeScalar, { description: 'When the user joined the organization.' })
  @Property({ type: 'timestamptz', onCreate: stampNow })
  joinedAt!: Date;
}
