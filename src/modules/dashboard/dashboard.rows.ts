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

/**
 * The dashboard columns plus what rides on each row: the tiles in creation order and the creator,
 * as JSON, so a page of dashboards is one statement.
 */
export const DASHBOARD_COLUMNS = `d.*,
  (select coalesce(jsonb_agg(jsonb_build_object('id', t.id, 'name', t.name, 'description', t.description, 'color', t.color, 'filters', t.filters) order by t.id), '[]'::jsonb)
     from dashboard_tile t where t.dashboard_id = d.id) as tiles,
  (select to_jsonb(u) from app_user u where u.id = d.created_by_id) as creator`;

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
