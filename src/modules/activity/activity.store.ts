import type { EntityManager } from '@mikro-orm/postgresql';
import { timestampOf } from '../../db/rows';
import { groupBy } from '../../group-by';
import type { ActivityDetail, ActivityKind, ActivityScope } from './activity.log';
import { activityFromRow } from './activity.rows';
import type { ActivityEntry } from './activity.types';

/** Which entries a read is about: a project's, of one scope (null: every scope), of one item (null: every item). */
export interface ActivityWhere {
  projectId: number;
  scope: ActivityScope | null;
  itemId: string | null;
}

/** One entry to write. */
export interface ActivityRecord {
  projectId: number;
  scope: ActivityScope;
  itemId: string;
  activity: ActivityKind;
  userId: number;
  detail: ActivityDetail;
}

const condition = (where: ActivityWhere) =>
  ['project_id = ?', ...(where.scope ? ['scope = ?'] : []), ...(where.itemId !== null ? ['item_id = ?'] : [])].join(' and ');

const parameters = (where: ActivityWhere) => [
  where.projectId,
  ...(where.scope ? [where.scope] : []),
  ...(where.itemId !== null ? [where.itemId] : []),
];

/**
 * The activity_log table's queries. Reads walk an index of `activity_log` that starts with the
 * filtered columns and ends with the page order (see the migration), so they cost the same however
 * long the history is.
 */
export const ActivityStore = {
  /** Writes one entry, `created_at` being the database's clock at this statement: one statement. */
  async insert(em: EntityManager, entry: ActivityRecord): Promise<{ id: string; createdAt: Date }> {
    const [row] = await em.execute<Array<{ id: unknown; created_at: unknown }>>(
      'insert into activity_log (project_id, scope, item_id, activity, user_id, detail) values (?, ?, ?, ?, ?, ?) returning id, created_at',
      [entry.projectId, entry.scope, entry.itemId, entry.activity, entry.userId, JSON.stringify(entry.detail)],
    );
    return { id: String(row.id), createdAt: timestampOf(row.created_at) };
  },

  /** How many entries there are: one statement. */
  async count(em: EntityManager, where: ActivityWhere): Promise<number> {
    const [{ total }] = await em.execute(`select count(*)::int as total from activity_log where ${condition(where)}`, parameters(where));
    return Number(total);
  },

  /** How many entries there are, and whether the project has the flag `flagId` (soft-deleted or not): one statement for both. */
  async countWithFlag(em: EntityManager, where: ActivityWhere, flagId: number): Promise<{ total: number; found: boolean }> {
    const [{ total, found }] = await em.execute(
      `select (select count(*)::int from activity_log where ${condition(where)}) as total,
              exists (select 1 from feature_flag where project_id = ? and id = ?) as found`,
      [...parameters(where), where.projectId, flagId],
    );
    return { total: Number(total), found: Boolean(found) };
  },

  /** One page of entries, newest first: one statement. */
  async page(em: EntityManager, where: ActivityWhere, limit: number, offset: number): Promise<ActivityEntry[]> {
    const rows: Array<Record<string, unknown>> = await em.execute(
      `select id, scope, item_id, activity, user_id, detail, created_at from activity_log
            where ${condition(where)} order by created_at desc, id desc limit ? offset ?`,
      [...parameters(where), limit, offset],
    );
    return rows.map(activityFromRow);
  },

  /** How many entries each of these items of one scope has (none: absent): one statement. */
  async itemCounts(em: EntityManager, projectId: number, scope: ActivityScope, itemIds: string[]): Promise<Map<string, number>> {
    const rows: Array<{ item_id: string; total: number }> = await em.execute(
      'select item_id, count(*)::int as total from activity_log where project_id = ? and scope = ? and item_id in (?) group by item_id',
      [projectId, scope, itemIds],
    );
    return new Map(rows.map((row) => [row.item_id, Number(row.total)]));
  },

  /** The same page of each of these items' entries, newest first, by item (no entries: absent): one statement, a lateral join. */
  async itemPages(
    em: EntityManager,
    projectId: number,
    scope: ActivityScope,
    itemIds: string[],
    limit: number,
    offset: number,
  ): Promise<Map<string, ActivityEntry[]>> {
    const rows: Array<Record<string, unknown>> = await em.execute(
      `select a.id, a.scope, a.item_id, a.activity, a.user_id, a.detail, a.created_at
                   from unnest(array[?]::text[]) as i(item_id)
                   cross join lateral (
                     select * from activity_log l where l.project_id = ? and l.scope = ? and l.item_id = i.item_id
                      order by l.created_at desc, l.id desc limit ? offset ?) a
                  order by a.item_id, a.created_at desc, a.id desc`,
      [itemIds, projectId, scope, limit, offset],
    );
    return groupBy(rows.map(activityFromRow), (entry) => entry.itemId);
  },
};
