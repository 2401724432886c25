import { timestampOf } from '../../db/rows';
import type { ActivityDetail } from './activity.log';
import type { ActivityEntry, ActivityScopeName } from './activity.types';

/** An `activity_log` row as the plain object the resolvers read (no unit of work). */
export function activityFromRow(row: Record<string, unknown>): ActivityEntry {
  const detail = (typeof row.detail === 'string' ? JSON.parse(row.detail) : row.detail) as ActivityDetail;
  return {
    id: String(row.id),
    activity: row.activity as string,
    scope: row.scope as ActivityScopeName,
    itemId: row.item_id as string,
    detail: {
      changes: detail.changes ?? null,
      trigger: detail.trigger ?? null,
      type: detail.type ?? null,
      name: detail.name,
      shortId: detail.short_id ?? null,
    },
    createdAt: timestampOf(row.created_at),
    userId: row.user_id === null || row.user_id === undefined ? null : Number(row.user_id),
  } as ActivityEntry;
}
