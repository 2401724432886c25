import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Field, ObjectType, registerEnumType } from 'type-graphql';
import { randomUUID } from 'node:crypto';
import { DateTimeScalar } from '../../graphql/scalars';
import { Organization } from '../organization/organization.entity';
import { User } from '../user/user.entity';
import { stampNow } from '../../clock';

/** Flag access levels (docs/rest-api.md §5.1): 21 can only view, 37 can always edit. */
export const FlagAccessLevel = { view: 21, edit: 37 } as const;
export const FLAG_ACCESS_LEVELS: readonly number[] = Object.values(FlagAccessLevel);
/** An organization's flag access level until an admin sets one (docs/README.md decision 8). */
export const DEFAULT_FLAG_ACCESS_LEVEL = FlagAccessLevel.edit;

/** The flag access levels as GraphQL names; REST speaks their numbers (21, 37). */
export enum FlagAccessLevelName {
  CAN_ONLY_VIEW = FlagAccessLevel.view,
  CAN_ALWAYS_EDIT = FlagAccessLevel.edit,
}
registerEnumType(FlagAccessLevelName, {
  name: 'FlagAccessLevel',
  description: 'Who may edit feature flags (docs/rest-api.md §5); REST uses the numbers 21 and 37.',
  valuesConfig: {
    CAN_ONLY_VIEW: { description: '21: may view flags, edit only where granted.' },
    CAN_ALWAYS_EDIT: { description: '37: may edit every flag.' },
  },
});

/** A role of an organization. Names are unique per organization, case-insensitively. */
@ObjectType({ description: 'A role of an organization: a named set of members with a flag access level (docs/rest-api.md §5.1).' })
@Entity({ tableName: 'role' })
@Unique({
  name: 'role_organization_id_lower_name_unique',
  expression: 'create unique index "role_organization_id_lower_name_unique" on "role" ("organization_id", lower("name"))',
})
export class Role {
  [OptionalProps]?: 'id' | 'createdAt' | 'createdBy';

  @Field(() => String, { description: "The role's UUID." })
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Index()
  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization;

  @Field(() => String, { description: 'Unique in the organization, case-insensitively; up to 200 characters.' })
  @Property({ type: 'text' })
  name!: string;

  @Field(() => FlagAccessLevelName, { description: "Its members' flag access (REST: `feature_flags_access_level`, 21 or 37)." })
  @Property({ type: 'smallint' })
  featureFlagsAccessLevel!: number;

  @Field(() => DateTimeScalar, { description: 'When the role was created.' })
  @Property({ type: 'timestamptz', onCreate: stampNow })
  createdAt!: Date;

  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  createdBy: User | null = null;
}
