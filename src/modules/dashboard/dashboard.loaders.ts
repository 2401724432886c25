import DataLoader from 'dataloader';
import type { AppContext } from '../../context';
import type { DashboardRoot, TileRoot } from './dashboard.rows';
import { loadDashboards } from './dashboard.service';
import { computeTileResults, type InsightSeries } from './tile-results';

/** Dashboards by id, and tile results for every tile a response shows, computed together (tile-results.ts). */
export function createDashboardLoaders(ctx: AppContext) {
  return {
    dashboard: new DataLoader<number, DashboardRoot | null>((ids) => loadDashboards(ctx, ids)),
    tileResult: new DataLoader<TileRoot, InsightSeries[], string>(
      (tiles) => ctx.work.run((signal) => computeTileResults(ctx.em, tiles, new Date(ctx.clock.now()), signal)),
      {
        // A tile read over two ranges in one request (`tiles(dateFrom:)` under two aliases) is two results.
        cacheKeyFn: (tile) => `${tile.id}:${JSON.stringify(tile.dashboardFilters.date_from ?? null)}`,
      },
    ),
  };
}
