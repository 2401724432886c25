import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { DateTimeScalar } from '../../graphql/scalars';
import { User } from '../user/user.entity';
import { stampNow } from '../../clock';

/**
 * A user's personal API key (docs/rest-api.md §2.1). Only its digest is stored; `value` (the key
 * itself) and `scopes` are field resolvers (personal-api-key.resolver.ts).
 */
@ObjectType({ description: "One of the caller's personal API keys; the key itself is shown only when it is created." })
@Entity({ tableName: 'personal_api_key' })
export class PersonalApiKey {
  [OptionalProps]?: 'id' | 'label' | 'scopes' | 'scopedTeams' | 'scopedOrganizations' | 'createdAt' | 'lastUsedAt';

  @Field(() => Int, { description: "The key's id (not the key itself)." })
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Index()
  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User;

  @Field(() => String, { description: "The key's label (up to 40 characters)." })
  @Property({ type: 'varchar', length: 40 })
  label: string = '';

  /** `sha256$<hex>` of the whole key; the key itself is never stored. Never a GraphQL field. */
  @Property({ type: 'text', unique: true })
  secureValue!: string;

  /** `phx_...` + the last 4 characters, for display. */
  @Field(() => String, { description: '`phx_...` and the last 4 characters of the key.' })
  @Property({ type: 'text' })
  maskValue!: string;

  @Property({ type: 'text[]', nullable: true })
  scopes: string[] | null = null;

  @Field(() => [Int], { nullable: true, description: 'The projects the key is limited to; null: any.' })
  @Property({ type: 'integer[]', columnType: 'int[]', nullable: true })
  scopedTeams: number[] | null = null;

  @Field(() => [String], { nullable: true, description: 'The organizations (UUIDs) the key is limited to; null: any.' })
  @Property({ type: 'text[]', nullable: true })
  scopedOrganizations: string[] | null = null;

  @Field(() => DateTimeScalar, { description: 'When the key was made.' })
  @Property({ type: 'timestamptz', onCreate: stampNow })
  createdAt!: Date;

  @Field(() => DateTimeScalar, { nullable: true, description: 'When the key was last used (updated at most hourly); null if never.' })
  @Property({ type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null = null;
}
