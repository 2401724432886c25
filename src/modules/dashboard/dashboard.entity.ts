import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Project } from '../project/project.entity';
import { User } from '../user/user.entity';

/**
 * A project's dashboard. Flags link to dashboards through `analytics_dashboards`; the generated
 * usage dashboards and their tiles arrive with the usage-dashboard capability.
 */
@Entity({ tableName: 'dashboard' })
export class Dashboard {
  [OptionalProps]?: 'id' | 'description' | 'filters' | 'tags' | 'createdAt' | 'createdBy';

  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Index()
  @ManyToOne(() => Project, { deleteRule: 'cascade' })
  project!: Project;

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text' })
  description: string = '';

  @Property({ type: 'jsonb' })
  filters: Record<string, unknown> = {};

  @Property({ type: 'text[]' })
  tags: string[] = [];

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  createdBy: User | null = null;
}
