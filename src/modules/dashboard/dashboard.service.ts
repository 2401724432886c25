import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { accessProject, parseId, type ProjectAccess } from '../../auth/access';
import type { AppContext } from '../../context';
import { AppError, requestErrors, translate } from '../../errors';
import { clampPage, type Page, type PageArgs } from '../../pagination';
import type { FeatureFlag } from '../feature-flag/feature-flag.entity';
import { findFlag, requireFlagEditor } from '../feature-flag/feature-flag.service';
import { userFromRow } from '../user/user.rows';
import { dashboardErrors } from './dashboard.errors';
import { DASHBOARD_COLUMNS, dashboardFromRow, type DashboardRoot } from './dashboard.rows';
import { appendTiles, ENRICHED_MARKER, enrichedTiles, insertUsageDashboard } from './usage-dashboard';

/** Dashboards (read-only over the API) and the flag's two dashboard helpers (docs/dashboards.md). */
export const DashboardService = {
  /** A flag's usage dashboard, for a caller with `dashboard:read` on its project; null when it has none. */
  async usageDashboardOf(ctx: AppContext, flag: Pick<FeatureFlag, 'usageDashboardId' | 'project'>): Promise<DashboardRoot | null> {
    if (flag.usageDashboardId === null) return null;
    await accessProject(ctx, flag.project.id, 'dashboard:read');
    const dashboard = await ctx.loaders.dashboard.load(flag.usageDashboardId);
    return dashboard && dashboard.project.id === flag.project.id ? dashboard : null;
  },

  /** SPEC-GAP: newest first, as the flag list; each dashboard with its tiles and their results. */
  async list(ctx: AppContext, projectRef: unknown, args: PageArgs): Promise<Page<DashboardRoot>> {
    const { project } = await accessProject(ctx, projectRef, 'dashboard:read');
    const { limit, offset } = clampPage(args);
    const rows: Array<Record<string, unknown>> = await ctx.em.execute(
      `select ${DASHBOARD_COLUMNS}, count(*) over() as total_count from dashboard d
        where d.project_id = ? order by d.created_at desc, d.id desc limit ? offset ?`,
      [project.id, limit, offset],
    );
    let count = rows.length > 0 ? Number(rows[0].total_count) : 0;
    if (rows.length === 0 && offset > 0) {
      const [{ n }] = await ctx.em.execute<Array<{ n: string }>>('select count(*) as n from dashboard where project_id = ?', [project.id]);
      count = Number(n);
    }
    return { count, results: rows.map((row) => readDashboardRow(ctx, row)), limit, offset };
  },

  async get(ctx: AppContext, projectRef: unknown, id: unknown): Promise<DashboardRoot> {
    const { project } = await accessProject(ctx, projectRef, 'dashboard:read');
    const dashboardId = parseId(id);
    if (!dashboardId) throw requestErrors.notFound();
    const rows: Array<Record<string, unknown>> = await ctx.em.execute(
      `select ${DASHBOARD_COLUMNS} from dashboard d where d.project_id = ? and d.id = ?`,
      [project.id, dashboardId],
    );
    if (rows.length === 0) throw requestErrors.notFound();
    return readDashboardRow(ctx, rows[0]);
  },

  /** docs/rest-api.md §4.2 (`POST /:id/dashboard`): a new usage dashboard for the flag's current key (enriched tiles too if it has enriched analytics); the old one stays. */
  async generateForFlag(ctx: AppContext, projectRef: unknown, flagId: unknown): Promise<FeatureFlag> {
    const access = await accessProject(ctx, projectRef, 'feature_flag:write');
    return ctx.em.transactional(async (em) => {
      const flag = await editableFlag(em, access, flagId);
      const enriched = flag.hasEnrichedAnalytics === true;
      flag.usageDashboardId = await failingAs(dashboardErrors.unableToGenerate, () =>
        insertUsageDashboard(em, access.project.id, access.caller.user.id, flag.key, enriched),
      );
      // No activity and no version change (docs/dashboards.md): this is not an edit of the flag's definition.
      await em.flush();
      return flag;
    });
  },

  /** docs/rest-api.md §4.3 (`POST /:id/enrich_usage_dashboard`): adds the two enriched tiles to the flag's usage dashboard, once. */
  async enrichForFlag(ctx: AppContext, projectRef: unknown, flagId: unknown): Promise<FeatureFlag> {
    const access = await accessProject(ctx, projectRef, 'feature_flag:write');
    return ctx.em.transactional(async (em) => {
      const flag = await editableFlag(em, access, flagId);
      const names: Array<{ name: string | null }> =
        flag.usageDashboardId === null
          ? []
          : await em.execute(
              `select t.name from dashboard d left join dashboard_tile t on t.dashboard_id = d.id where d.id = ? and d.project_id = ?`,
              [flag.usageDashboardId, access.project.id],
            );
      if (names.length === 0) throw dashboardErrors.notFound();
      if (names.some(({ name }) => name?.includes(ENRICHED_MARKER))) throw dashboardErrors.alreadyEnriched();
      if (flag.hasEnrichedAnalytics !== true) throw dashboardErrors.noEnrichedAnalytics();
      await failingAs(dashboardErrors.unableToEnrich, () => appendTiles(em, flag.usageDashboardId!, enrichedTiles(flag.key)));
      return flag;
    });
  },
};

/** The flag, locked (two helpers on one flag take turns, so "already enriched" holds), after 404 and edit rights (403). */
async function editableFlag(em: EntityManager, access: ProjectAccess, flagId: unknown): Promise<FeatureFlag> {
  const flag = await findFlag(em, access.project.id, flagId, LockMode.PESSIMISTIC_WRITE);
  await requireFlagEditor(em, access, flag);
  return flag;
}

/**
 * An unexpected failure while building becomes upstream's 400 (the transaction rolls back, so
 * nothing changed); errors with a meaning of their own (a database timeout: 503) keep it.
 */
async function failingAs<T>(refusal: () => AppError, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const known = translate(error);
    throw known.status === 500 ? refusal() : known;
  }
}

function readDashboardRow(ctx: AppContext, { creator, total_count: _, ...row }: Record<string, unknown>): DashboardRoot {
  const dashboard = dashboardFromRow(row);
  if (creator && dashboard.createdBy) ctx.loaders.user.prime(dashboard.createdBy.id, userFromRow(creator as Record<string, unknown>));
  return dashboard;
}

/** Dashboards by id, for `FeatureFlag.usageDashboardDetails` (the caller checks the project). */
export async function loadDashboards(ctx: AppContext, ids: readonly number[]): Promise<Array<DashboardRoot | null>> {
  const rows: Array<Record<string, unknown>> = await ctx.em.execute(`select ${DASHBOARD_COLUMNS} from dashboard d where d.id in (?)`, [
    [...ids],
  ]);
  const byId = new Map(rows.map((row) => [Number(row.id), readDashboardRow(ctx, row)]));
  return ids.map((id) => byId.get(id) ?? null);
}
