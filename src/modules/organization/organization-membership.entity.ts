import { Entity, ManyToOne, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Organization } from './organization.entity';
import { User } from '../user/user.entity';

/** Membership levels (docs/rest-api.md §2.5): member 1, admin 8, owner 15; "admin" means >= 8. */
export const MembershipLevel = { member: 1, admin: 8, owner: 15 } as const;
export type MembershipLevelValue = (typeof MembershipLevel)[keyof typeof MembershipLevel];

@Entity({ tableName: 'organization_membership' })
@Unique({ properties: ['organization', 'user'] })
export class OrganizationMembership {
  [OptionalProps]?: 'id' | 'joinedAt' | 'level';

  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization;

  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User;

  @Property({ type: 'smallint' })
  level: number = MembershipLevel.member;

  @Property({ type: 'timestamptz' })
  joinedAt: Date = new Date();
}
