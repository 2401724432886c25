import { accessProject, parseId } from '../../auth/access';
import type { AppContext } from '../../context';
import { requestErrors } from '../../errors';
import type { ActivityScope } from './activity.log';
import { ActivityStore, type ActivityWhere } from './activity.store';
import type { ActivityPage } from './activity.types';

export interface ActivityPageArgs {
  page?: number | null;
  limit?: number | null;
}

export const DEFAULT_ACTIVITY_LIMIT = 10;
export const MAX_ACTIVITY_LIMIT = 1000;

/** docs/activity.md: `limit` 10 by default, at most 1000; `page` 1-based; anything invalid falls back. */
export function clampActivityPage(args: ActivityPageArgs): { page: number; limit: number } {
  const { page, limit } = args;
  return {
    limit: Number.isInteger(limit) && (limit as number) > 0 ? Math.min(limit as number, MAX_ACTIVITY_LIMIT) : DEFAULT_ACTIVITY_LIMIT,
    page: Number.isInteger(page) && (page as number) > 0 ? (page as number) : 1,
  };
}

/**
 * Reading the activity log. A page costs the same statements however long the history is: one
 * count and one page read, both served by an index of `activity_log` that starts with the
 * filtered columns and ends with the page order (see the migration), plus one batch of users.
 */
export const ActivityService = {
  /** A project's entries, of one scope or (null) all of them. */
  async list(ctx: AppContext, projectRef: unknown, scope: ActivityScope | null, args: ActivityPageArgs): Promise<ActivityPage> {
    const { project } = await accessProject(ctx, projectRef, 'activity_log:read');
    const where: ActivityWhere = { projectId: project.id, scope, itemId: null };
    return readPage(ctx, where, await ActivityStore.count(ctx.em, where), args);
  },

  /** One flag's entries; the flag must be one of the project's (soft-deleted counts), else 404. */
  async forFlag(ctx: AppContext, projectRef: unknown, flagId: unknown, args: ActivityPageArgs): Promise<ActivityPage> {
    const { project } = await accessProject(ctx, projectRef, 'activity_log:read');
    const id = parseId(flagId);
    if (!id) throw requestErrors.notFound();
    const where: ActivityWhere = { projectId: project.id, scope: 'FeatureFlag', itemId: String(id) };
    // The flag's existence rides on the count: one statement for both.
    const { total, found } = await ActivityStore.countWithFlag(ctx.em, where, id);
    if (!found) throw requestErrors.notFound();
    return readPage(ctx, where, total, args);
  },

  /**
   * An item the caller already holds (a flag or an experiment read through GraphQL): batched with
   * the other items of the same list by the request's loader.
   */
  async forItem(ctx: AppContext, projectId: number, scope: ActivityScope, itemId: number, args: ActivityPageArgs): Promise<ActivityPage> {
    await accessProject(ctx, projectId, 'activity_log:read');
    return ctx.loaders.itemActivity.load({ projectId, scope, itemId: String(itemId), ...clampActivityPage(args) });
  },
};

async function readPage(ctx: AppContext, where: ActivityWhere, totalCount: number, args: ActivityPageArgs): Promise<ActivityPage> {
  const { page, limit } = clampActivityPage(args);
  const offset = (page - 1) * limit;
  // A page past the end needs no second statement.
  const results = offset >= totalCount ? [] : await ActivityStore.page(ctx.em, where, limit, offset);
  return { totalCount, page, limit, results };
}
