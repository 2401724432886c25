import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { groupBy } from '../../group-by';
import type { ActivityScope } from './activity.log';
import { ActivityStore } from './activity.store';
import type { ActivityEntry, ActivityPage } from './activity.types';

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
export function createActivityLoaders(em: () => EntityManager) {
  return {
    itemActivity: new DataLoader<ItemPageKey, ActivityPage, string>(
      async (keys) => {
        const groups = groupBy(keys, groupOf);
        const answers = new Map<string, ActivityPage>();
        for (const group of groups.values()) {
          const { projectId, scope, page, limit } = group[0];
          const itemIds = [...new Set(group.map((key) => key.itemId))];
          const offset = (page - 1) * limit;
          const totals = await ActivityStore.itemCounts(em(), projectId, scope, itemIds);
          const reaching = itemIds.filter((id) => (totals.get(id) ?? 0) > offset);
          const pages = reaching.length
            ? await ActivityStore.itemPages(em(), projectId, scope, reaching, limit, offset)
            : new Map<string, ActivityEntry[]>();
          for (const itemId of itemIds) {
            answers.set(`${groupOf(group[0])}|${itemId}`, {
              totalCount: totals.get(itemId) ?? 0,
              page,
              limit,
              results: pages.get(itemId) ?? [],
            });
          }
        }
        return keys.map((key) => answers.get(`${groupOf(key)}|${key.itemId}`)!);
      },
      { cacheKeyFn: (key) => `${groupOf(key)}|${key.itemId}` },
    ),
  };
}
