import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { User } from '../user/user.entity';

@Entity({ tableName: 'personal_api_key' })
export class PersonalApiKey {
  [OptionalProps]?: 'id' | 'label' | 'scopes' | 'scopedTeams' | 'scopedOrganizations' | 'createdAt' | 'lastUsedAt';

  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Index()
  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User;

  @Property({ type: 'varchar', length: 40 })
  label: string = '';

  /** `sha256$<hex>` of the whole key; the key itself is never stored. */
  @Property({ type: 'text', unique: true })
  secureValue!: string;

  /** `phx_...` + the last 4 characters, for display. */
  @Property({ type: 'text' })
  maskValue!: string;

  @Property({ type: 'text[]', nullable: true })
  scopes: string[] | null = null;

  @Property({ type: 'integer[]', columnType: 'int[]', nullable: true })
  scopedTeams: number[] | null = null;

  @Property({ type: 'text[]', nullable: true })
  scopedOrganizations: string[] | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null = null;
}
