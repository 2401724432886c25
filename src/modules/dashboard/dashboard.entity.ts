import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { DateTimeScalar, JSONObjectScalar } from '../../graphql/scalars';
import { Project } from '../project/project.entity';
import { User } from '../user/user.entity';
import { stampNow } from '../../clock';

/**
 * A project's dashboard: a name, filters that apply to every tile (`date_from`), and tiles
 * (dashboard-tile.entity.ts). Every flag gets a generated usage dashboard (usage-dashboard.ts);
 * flags link to others through `analytics_dashboards`. Tiles and `createdBy` live on the resolver.
 */
@ObjectType({ description: 'A dashboard: tiles, each an insight whose result is computed from stored events on every read.' })
@Entity({ tableName: 'dashboard' })
@Index({ properties: ['project', 'createdAt'] })
export class Dashboard {
  [OptionalProps]?: 'id' | 'description' | 'filters' | 'tags' | 'createdAt' | 'createdBy';

  @Field(() => Int, { description: "The dashboard's id (a flag's `usageDashboardId` names one)." })
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Index()
  @ManyToOne(() => Project, { deleteRule: 'cascade' })
  project!: Project;

  @Field(() => String, { description: "The dashboard's name, e.g. `Generated Dashboard: <flag key> Usage`." })
  @Property({ type: 'text' })
  name!: string;

  @Field(() => String, { description: 'Free text; `""` when there is none.' })
  @Property({ type: 'text' })
  description: string = '';

  @Field(() => JSONObjectScalar, { description: 'Filters applied to every tile; `date_from` (e.g. `-30d`) sets the date range.' })
  @Property({ type: 'jsonb' })
  filters: Record<string, unknown> = {};

  @Field(() => [String], { description: "The dashboard's tags; usage dashboards have `feature flags`." })
  @Property({ type: 'text[]' })
  tags: string[] = [];

  @Field(() => DateTimeScalar, { description: 'When the dashboard was created.' })
  @Property({ type: 'timestamptz', onCreate: stampNow })
  createdAt!: Date;

  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  createdBy: User | null = null;
}
