import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ActivityScope } from './activity.log';
import { activityFromRow } from './activity.rows';
import type { ActivityPage } from './activity.types';

/** One item's page of history, as `FeatureFlag.activity` / `Experiment.activity` ask for it (page and limit already clamped). */
export interface ItemPageKey {
  projectId: number;
  scope: ActivityScope;
  itemId: string;
  page: number;
  limit: number;
}

const groupOf = (key: ItemPageKey) => `${key.projectId}|${key.scope}|${key.page}|${key.limit}`;

/**
 * The history of every item a list shows, in two statements per (project, scope, page, limit):
 * the counts, grouped by item, and each item's page through a lateral join. Both walk the item
 * index of `activity_log`, so a list of flags costs what one flag does.
 */
export function createActivityLoaders(em: EntityManager) {
  return {
    itemActivity: new DataLoader<ItemPageKey, ActivityPage, string>(
      async (keys) => {
        const groups = new Map<string, ItemPageKey[]>();
        for (const key of keys) groups.set(groupOf(key), [...(groups.get(groupOf(key)) ?? []), key]);
        const answers = new Map<string, ActivityPage>();
        for (const group of groups.values()) {
          const { projectId, scope, page, limit } = group[0];
          const itemIds = [...new Set(group.map((key) => key.itemId))];
          const offset = (page - 1) * limit;
          const counted: Array<{ item_id: string; total: number }> = await em.execute(
            'select item_id, count(*)::int as total from activity_log where project_id = ? and scope = ? and item_id in (?) group by item_id',
            [projectId, scope, itemIds],
          );
          const totals = new Map(counted.map((row) => [row.item_id, Number(row.total)]));
          const reaching = itemIds.filter((id) => (totals.get(id) ?? 0) > offset);
          const rows: Array<Record<string, unknown>> = reaching.length
            ? await em.execute(
                `select a.id, a.scope, a.item_id, a.activity, a.user_id, a.detail, a.created_at
                   from unnest(array[?]::text[]) as i(item_id)
                   cross join lateral (
                     select * from activity_log l where l.project_id = ? and l.scope = ? and l.item_id = i.item_id
                      order by l.created_at desc, l.id desc limit ? offset ?) a
                  order by a.item_id, a.created_at desc, a.id desc`,
                [reaching, projectId, scope, limit, offset],
              )
            : [];
          for (const itemId of itemIds) {
            answers.set(`${groupOf(group[0])}|${itemId}`, {
              totalCount: totals.get(itemId) ?? 0,
              page,
              limit,
              results: rows.filter((row) => row.item_id === itemId).map(activityFromRow),
            });
          }
        }
        return keys.map((key) => answers.get(`${groupOf(key)}|${key.itemId}`)!);
      },
      { cacheKeyFn: (key) => `${groupOf(key)}|${key.itemId}` },
    ),
  };
}
