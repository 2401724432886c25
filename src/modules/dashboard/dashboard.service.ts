import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { accessProject, parseId, type ProjectAccess } from '../../auth/access';
import type { AppContext } from '../../context';
import { AppError, requestErrors, translate } from '../../errors';
import { clampPage, type Page, type PageArgs } from '../../pagination';
import type { FeatureFlag } from '../feature-flag/feature-flag.entity';
import { findFlag, requireFlagEditor } from '../feature-flag/feature-flag.service';
import { dashboardErrors } from './dashboard.errors';
import type { DashboardRoot, TileRoot } from './dashboard.rows';
import { DashboardStore, type DashboardRead } from './dashboard.store';
import { parseDateFromOverride } from './insight-filters';
import { ENRICHED_MARKER, enrichedTiles, insertUsageDashboard } from './usage-dashboard';

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
    const page = await DashboardStore.page(ctx.em, project.id, limit, offset);
    return { ...page, results: page.results.map((read) => primed(ctx, read)) };
  },

  async get(ctx: AppContext, projectRef: unknown, id: unknown): Promise<DashboardRoot> {
    const { project } = await accessProject(ctx, projectRef, 'dashboard:read');
    const dashboardId = parseId(id);
    if (!dashboardId) throw requestErrors.notFound();
    const read = await DashboardStore.byId(ctx.em, project.id, dashboardId);
    if (!read) throw requestErrors.notFound();
    return primed(ctx, read);
  },

  /**
   * A dashboard's tiles, read over the dashboard's range or, with `dateFrom`, over that one instead
   * (docs/dashboards.md, "The date range"): the stored dashboard is not changed.
   */
  tilesOf(dashboard: DashboardRoot, dateFrom: string | null): TileRoot[] {
    if (dateFrom === null) return dashboard.tiles;
    const override = parseDateFromOverride(dateFrom);
    if (override === null) throw dashboardErrors.badDateFrom();
    return dashboard.tiles.map((tile) => ({ ...tile, dashboardFilters: { ...tile.dashboardFilters, date_from: override } }));
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
      const names = flag.usageDashboardId === null ? null : await DashboardStore.tileNames(em, access.project.id, flag.usageDashboardId);
      if (names === null) throw dashboardErrors.notFound();
      if (names.some((name) => name.includes(ENRICHED_MARKER))) throw dashboardErrors.alreadyEnriched();
      if (flag.hasEnrichedAnalytics !== true) throw dashboardErrors.noEnrichedAnalytics();
      await failingAs(dashboardErrors.unableToEnrich, () =>
        DashboardStore.appendTiles(em, flag.usageDashboardId!, enrichedTiles(flag.key)),
      );
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

/** A read-only dashboard, no unit of work; the creator that rode on its row primes the user loader. */
function primed(ctx: AppContext, { dashboard, creator }: DashboardRead): DashboardRoot {
  if (creator) ctx.loaders.user.prime(dashboard.createdBy!.id, creator);
  return dashboard;
}

/** Dashboards by id, for `FeatureFlag.usageDashboard` (the caller checks the project). */
export async function loadDashboards(ctx: AppContext, ids: readonly number[]): Promise<Array<DashboardRoot | null>> {
  const byId = await DashboardStore.byIds(ctx.em, ids);
  return ids.map((id) => {
    const read = byId.get(id);
    return read ? primed(ctx, read) : null;
  });
}
