import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { Dashboard } from './dashboard.entity';
import { stampNow } from '../../clock';

/**
 * One tile of a dashboard. SPEC-GAP: upstream keeps insights apart and places them on tiles; here an
 * insight belongs to exactly one tile, so the tile row holds its definition and `insight.id` is the tile's id.
 */
@ObjectType({ description: 'A tile of a dashboard; its `insight` holds the definition and the computed result.' })
@Entity({ tableName: 'dashboard_tile' })
@Index({ properties: ['dashboard', 'id'] })
export class DashboardTile {
  [OptionalProps]?: 'id' | 'description' | 'color' | 'createdAt';

  @Field(() => Int, { description: "The tile's id, which its insight shares." })
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => Dashboard, { deleteRule: 'cascade' })
  dashboard!: Dashboard;

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text' })
  description: string = '';

  @Field(() => String, { nullable: true, description: "The tile's colour name (e.g. `blue`), or null." })
  @Property({ type: 'text', nullable: true })
  color: string | null = null;

  /** The insight definition (upstream's TRENDS filters). */
  @Property({ type: 'jsonb' })
  filters!: Record<string, unknown>;

  @Property({ type: 'timestamptz', onCreate: stampNow })
  createdAt!: Date;
}
