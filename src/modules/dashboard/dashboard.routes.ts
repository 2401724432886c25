import { FLAG } from '../../rest/paths';
import { pathId, projectScope, type Route } from '../../rest/route';
import { flagById } from '../feature-flag/feature-flag.routes';
import { dashboardById, dashboardsPage } from './dashboard.operations';
import { DashboardService } from './dashboard.service';

const DASHBOARDS = '/api/projects/:project_id/dashboards';

/** A flag's usage-dashboard helpers (docs/README.md decision 4: they ignore the body and answer the updated flag). */
export const flagDashboardRoutes: Route[] = [
  {
    method: 'POST',
    path: `${FLAG}/dashboard`,
    auth: projectScope('feature_flag:write'),
    kind: 'mutation',
    call: (ctx, { params }) => DashboardService.generateForFlag(ctx, params.project_id, pathId(params.id)),
    render: flagById,
    status: 200,
    shape: 'one',
  },
  {
    method: 'POST',
    path: `${FLAG}/enrich_usage_dashboard`,
    auth: projectScope('feature_flag:write'),
    kind: 'mutation',
    call: (ctx, { params }) => DashboardService.enrichForFlag(ctx, params.project_id, pathId(params.id)),
    render: flagById,
    status: 200,
    shape: 'one',
  },
];

/** Dashboards (docs/dashboards.md, docs/README.md decision 12): read-only; each tile's result is computed on the read. */
export const dashboardRoutes: Route[] = [
  {
    method: 'GET',
    path: DASHBOARDS,
    auth: projectScope('dashboard:read'),
    kind: 'query',
    operation: dashboardsPage,
    status: 200,
    shape: 'page',
  },
  {
    method: 'GET',
    path: `${DASHBOARDS}/:id`,
    auth: projectScope('dashboard:read'),
    kind: 'query',
    operation: dashboardById,
    status: 200,
    shape: 'one',
  },
];
