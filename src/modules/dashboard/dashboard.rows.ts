import { referenceOf, timestampOf } from '../../db/rows';
import type { Project } from '../project/project.entity';
import type { User } from '../user/user.entity';
import type { Dashboard } from './dashboard.entity';

/** A tile as resolvers read it; it is also the root of its `insight` (the tile holds the definition). */
export interface TileRoot {
  id: number;
  projectId: number;
  name: string;
  description: string;
  color: string | null;
  filters: Record<string, unknown>;
  /** The dashboard's filters: its `date_from` wins over the tile's. */
  dashboardFilters: Record<string, unknown>;
}

/** A dashboard read without a unit of work, its tiles riding on the row. */
export type DashboardRoot = Readonly<Dashboard> & { tiles: TileRoot[] };

/** A `dashboard` row with its `tiles` (as the dashboard store reads them) as the plain object resolvers read. */
export function dashboardFromRow(row: Record<string, unknown>): DashboardRoot {
  const projectId = Number(row.project_id);
  const filters = (row.filters ?? {}) as Record<string, unknown>;
  return {
    id: Number(row.id),
    project: referenceOf<Project>(projectId)!,
    name: row.name as string,
    description: row.description as string,
    filters,
    tags: row.tags as string[],
    createdAt: timestampOf(row.created_at),
    createdBy: referenceOf<User>(row.created_by_id),
    tiles: (row.tiles as Array<Record<string, unknown>>).map((tile) => ({
      id: Number(tile.id),
      projectId,
      name: tile.name as string,
      description: tile.description as string,
      color: (tile.color as string | null) ?? null,
      filters: tile.filters as Record<string, unknown>,
      dashboardFilters: filters,
    })),
  };
}
