import { FlagAccessLevelName } from './role.entity';
import { Entity, ManyToOne, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { DateTimeScalar } from '../../graphql/scalars';
import { Organization } from '../organization/organization.entity';
import { User } from '../user/user.entity';
import { stampNow } from '../../clock';

/** The only resource an organization-wide access level exists for (docs/rest-api.md §5.3). */
export const FEATURE_FLAGS_RESOURCE = 'feature flags';

/** An organization's default access level for a resource; without a record, flags are level 37. */
@ObjectType({
  description:
    "An organization's access level for a resource: its flag access level, the only resource being `feature flags` (docs/rest-api.md §5.3).",
})
@Entity({ tableName: 'organization_resource_access' })
@Unique({ properties: ['organization', 'resource'] })
export class OrganizationResourceAccess {
  [OptionalProps]?: 'id' | 'createdAt' | 'updatedAt' | 'createdBy';

  @Field(() => Int, { description: "The record's id." })
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization;

  @Field(() => String, { description: 'Always `feature flags`.' })
  @Property({ type: 'text' })
  resource!: string;

  @Field(() => FlagAccessLevelName, { description: "The organization's flag access level (REST: `access_level`, 21 or 37)." })
  @Property({ type: 'smallint' })
  accessLevel!: number;

  @Field(() => DateTimeScalar, { description: 'When the record was created.' })
  @Property({ type: 'timestamptz', onCreate: stampNow })
  createdAt!: Date;

  @Field(() => DateTimeScalar, { description: 'When the record last changed.' })
  @Property({ type: 'timestamptz', onCreate: stampNow, onUpdate: stampNow })
  updatedAt!: Date;

  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  createdBy: User | null = null;
}
