import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { DateTimeScalar } from '../../graphql/scalars';
import { FeatureFlag } from '../feature-flag/feature-flag.entity';
import { Role } from './role.entity';
import { stampNow } from '../../clock';

/** Grants a role edit rights on one flag (docs/rest-api.md §5.4). */
@ObjectType({ description: "A grant letting one role's members edit one flag (docs/rest-api.md §5.4)." })
@Entity({ tableName: 'feature_flag_role_access' })
@Unique({ properties: ['featureFlag', 'role'] })
export class FeatureFlagRoleAccess {
  [OptionalProps]?: 'id' | 'addedAt' | 'updatedAt';

  @Field(() => Int, { description: "The record's id." })
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => FeatureFlag, { deleteRule: 'cascade' })
  featureFlag!: FeatureFlag;

  @Index()
  @ManyToOne(() => Role, { deleteRule: 'cascade' })
  role!: Role;

  @Field(() => DateTimeScalar, { description: 'When the access was granted.' })
  @Property({ type: 'timestamptz', onCreate: stampNow })
  addedAt!: Date;

  @Field(() => DateTimeScalar, { description: 'When the record last changed.' })
  @Property({ type: 'timestamptz', onCreate: stampNow, onUpdate: stampNow })
  updatedAt!: Date;
}
