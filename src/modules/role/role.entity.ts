import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { randomUUID } from 'node:crypto';
import { DateTimeScalar } from '../../graphql/scalars';
import { Organization } from '../organization/organization.entity';
import { User } from '../user/user.entity';

/** Flag access levels (docs/rest-api.md §5.1): 21 can only view, 37 can always edit. */
export const FlagAccessLevel = { view: 21, edit: 37 } as const;
export const FLAG_ACCESS_LEVELS: readonly number[] = Object.values(FlagAccessLevel);
/** An organization's flag access level until an admin sets one (docs/README.md decision 8). */
export const DEFAULT_FLAG_ACCESS_LEVEL = FlagAccessLevel.edit;

/** A role of an organization. Names are unique per organization, case-insensitively. */
@ObjectType()
@Entity({ tableName: 'role' })
@Unique({
  name: 'role_organization_id_lower_name_unique',
  expression: 'create unique index "role_organization_id_lower_name_unique" on "role" ("organization_id", lower("name"))',
})
export class Role {
  [OptionalProps]?: 'id' | 'createdAt' | 'createdBy';

  @Field(() => String)
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Index()
  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization;

  @Field(() => String)
  @Property({ type: 'text' })
  name!: string;

  @Field(() => Int)
  @Property({ type: 'smallint' })
  featureFlagsAccessLevel!: number;

  @Field(() => DateTimeScalar)
  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  createdBy: User | null = null;
}
