import type { EntityManager } from '@mikro-orm/postgresql';
import { nowFor } from '../../clock';
import type { Page } from '../../pagination';
import type { User } from '../user/user.entity';
import { userFromRow } from '../user/user.rows';
import { dashboardFromRow, type DashboardRoot } from './dashboard.rows';
import { DAY_MS, type PropertyMatch } from './insight-filters';
import type { TileDefinition } from './usage-dashboard';

/** A dashboard as the API reads it (no unit of work), with the creator that rode on its row. */
export interface DashboardRead {
  dashboard: DashboardRoot;
  /** The dashboard's creator; null without one. */
  creator: User | null;
}

/** A dashboard with its tiles (in order), as a usage dashboard is written. */
export interface NewDashboard {
  projectId: number;
  name: string;
  description: string;
  filters: Record<string, unknown>;
  createdById: number | null;
  tiles: TileDefinition[];
}

/** The events of one event name, one property match, one breakdown and one range: one scan answers every tile asking for them. */
export interface TileSource {
  key: string;
  projectId: number;
  event: string;
  breakdown: string | null;
  daysBack: number;
  /** Rows are split by this property's value, so several flags' tiles share one statement. */
  splitKey: string | null;
  splitValues: Set<string>;
  otherProperties: PropertyMatch[];
  needsPersons: boolean;
}

/** What one source's scan found for one split value, by breakdown value. */
export interface TileCounts {
  eventsPerDay: Map<string | null, number[]>;
  personsPerDay: Map<string | null, number[]>;
  personsInRange: Map<string | null, number>;
}

/**
 * The dashboard columns plus what rides on each row: the tiles in creation order and the creator,
 * as JSON, so a page of dashboards is one statement.
 */
const DASHBOARD_COLUMNS = `d.*,
  (select coalesce(jsonb_agg(jsonb_build_object('id', t.id, 'name', t.name, 'description', t.description, 'color', t.color, 'filters', t.filters) order by t.id), '[]'::jsonb)
     from dashboard_tile t where t.dashboard_id = d.id) as tiles,
  (select to_jsonb(u) from app_user u where u.id = d.created_by_id) as creator`;

function dashboardRead({ creator, total_count: _, ...row }: Record<string, unknown>): DashboardRead {
  const dashboard = dashboardFromRow(row);
  return { dashboard, creator: creator && dashboard.createdBy ? userFromRow(creator as Record<string, unknown>) : null };
}

/** Days per bigint mask (bit 63 is the sign). */
const MASK_DAYS = 63;

const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;
// knex spreads an array binding into one placeholder per item, hence `array[?]` for lists (never empty here).
const property = (key: string) => `e.properties ->> ${literal(key)}`;

/** The dashboard tables' queries: reads with their tiles, usage dashboards' writes, and tile results' event scans. */
export const DashboardStore = {
  /** A project's dashboards, newest first, with tiles and creators: one statement, a second for a page past the end. */
  async page(em: EntityManager, projectId: number, limit: number, offset: number): Promise<Page<DashboardRead>> {
    const rows: Array<Record<string, unknown>> = await em.execute(
      `select ${DASHBOARD_COLUMNS}, count(*) over() as total_count from dashboard d
        where d.project_id = ? order by d.created_at desc, d.id desc limit ? offset ?`,
      [projectId, limit, offset],
    );
    let count = rows.length > 0 ? Number(rows[0].total_count) : 0;
    if (rows.length === 0 && offset > 0) {
      const [{ n }] = await em.execute<Array<{ n: string }>>('select count(*) as n from dashboard where project_id = ?', [projectId]);
      count = Number(n);
    }
    return { count, results: rows.map(dashboardRead), limit, offset };
  },

  /** One dashboard of a project, with its tiles and creator, or null: one statement. */
  async byId(em: EntityManager, projectId: number, dashboardId: number): Promise<DashboardRead | null> {
    const rows: Array<Record<string, unknown>> = await em.execute(
      `select ${DASHBOARD_COLUMNS} from dashboard d where d.project_id = ? and d.id = ?`,
      [projectId, dashboardId],
    );
    return rows.length === 0 ? null : dashboardRead(rows[0]);
  },

  /** These dashboards by id, whatever their project (unknown ids absent), with tiles and creators: one statement. */
  async byIds(em: EntityManager, ids: readonly number[]): Promise<Map<number, DashboardRead>> {
    const rows: Array<Record<string, unknown>> = await em.execute(`select ${DASHBOARD_COLUMNS} from dashboard d where d.id in (?)`, [
      [...ids],
    ]);
    return new Map(rows.map((row) => [Number(row.id), dashboardRead(row)]));
  },

  /** The names of a project's dashboard's tiles, or null when the project has no such dashboard: one statement. */
  async tileNames(em: EntityManager, projectId: number, dashboardId: number): Promise<string[] | null> {
    const rows: Array<{ name: string | null }> = await em.execute(
      `select t.name from dashboard d left join dashboard_tile t on t.dashboard_id = d.id where d.id = ? and d.project_id = ?`,
      [dashboardId, projectId],
    );
    return rows.length === 0 ? null : rows.flatMap(({ name }) => (name === null ? [] : [name]));
  },

  /** Inserts a dashboard (tagged `feature flags`) with its tiles, in order; answers its id: one statement. */
  async insertWithTiles(em: EntityManager, dashboard: NewDashboard): Promise<number> {
    const rows: Array<{ id: number }> = await em.execute(
      `with d as (
       insert into dashboard (project_id, name, description, filters, tags, created_at, created_by_id)
       values (?, ?, ?, ?::jsonb, array['feature flags']::text[], ?, ?) returning id, created_at),
     t as (
       insert into dashboard_tile (dashboard_id, name, description, color, filters, created_at)
       select d.id, x.name, x.description, x.color, x.filters, d.created_at
         from d, rows from (jsonb_to_recordset(?::jsonb) as (name text, description text, color text, filters jsonb)) with ordinality as x(name, description, color, filters, position)
        order by x.position)
     select id from d`,
      [
        dashboard.projectId,
        dashboard.name,
        dashboard.description,
        JSON.stringify(dashboard.filters),
        nowFor(em),
        dashboard.createdById,
        JSON.stringify(dashboard.tiles),
      ],
    );
    return Number(rows[0].id);
  },

  /** Appends tiles, in order, after a dashboard's existing ones: one statement. */
  async appendTiles(em: EntityManager, dashboardId: number, tiles: TileDefinition[]): Promise<void> {
    await em.execute(
      `insert into dashboard_tile (dashboard_id, name, description, color, filters, created_at)
     select ?, x.name, x.description, x.color, x.filters, ?::timestamptz
       from rows from (jsonb_to_recordset(?::jsonb) as (name text, description text, color text, filters jsonb)) with ordinality as x(name, description, color, filters, position)
      order by x.position`,
      [dashboardId, nowFor(em), JSON.stringify(tiles)],
    );
  },

  /** Rewrites the description and filters of a dashboard's tiles named as these are (others keep theirs): one statement. */
  async rewriteTiles(em: EntityManager, dashboardId: number, tiles: TileDefinition[]): Promise<void> {
    await em.execute(
      `update dashboard_tile t
        set description = x.description, filters = x.filters
       from jsonb_to_recordset(?::jsonb) as x(name text, description text, filters jsonb)
      where t.dashboard_id = ? and t.name = x.name`,
      [JSON.stringify(tiles), dashboardId],
    );
  },

  /**
   * One source's events from the first of its days to the end of `today` (days since the epoch, UTC),
   * by split value: events per breakdown value and day and, when the source needs persons, distinct
   * persons per day and over the range. One transaction of two statements: the session settings,
   * then the scan. Without persons the scan counts by (split value, breakdown, day). With persons one
   * pass groups the same rows two ways (grouping sets): by day for the counts, and by person with a
   * bit per day seen, from which distinct persons per day and over the range follow without a second
   * scan or a sort of the events.
   */
  async tileCounts(em: EntityManager, source: TileSource, today: number): Promise<Map<string, TileCounts>> {
    const days = source.daysBack + 1;
    const firstDay = today - source.daysBack;
    const from = new Date(firstDay * DAY_MS);
    const until = new Date((today + 1) * DAY_MS);
    const params: unknown[] = [from.toISOString().slice(0, 10), source.projectId, from, until];
    const conditions = source.otherProperties.map((p) => {
      params.push(p.values);
      return `${property(p.key)} = any(array[?]::text[])`;
    });
    if (source.splitKey !== null) {
      params.push([...source.splitValues]);
      conditions.push(`${property(source.splitKey)} = any(array[?]::text[])`);
    }
    // One split value (a lone usage dashboard): the filter already fixed it, so no second extraction per row.
    const split =
      source.splitKey === null
        ? `''`
        : source.splitValues.size === 1
          ? `${literal([...source.splitValues][0])}::text`
          : property(source.splitKey);
    const events = `select ${split} as src,
           ${source.breakdown === null ? 'null::text' : property(source.breakdown)} as bv,
           (e.timestamp at time zone 'UTC')::date - ?::date as di,
           -- One uuid per actor: the person, else the distinct id hashed (as experiment results count them).
           coalesce(e.person_id, md5('distinct:' || e.distinct_id)::uuid) as actor
      from event e
     where e.project_id = ? and e.event = ${literal(source.event)} and e.timestamp >= ? and e.timestamp < ?
           ${conditions.map((c) => `and ${c}`).join(' ')}`;
    let sql: string;
    if (!source.needsPersons) {
      sql = `select 0 as g, src, bv, di, count(*)::int as n, null::int as persons, null::int[] as dau from (${events}) e group by src, bv, di`;
    } else {
      const chunks = Math.ceil(days / MASK_DAYS);
      const masks = Array.from({ length: chunks }, (_, c) =>
        chunks === 1
          ? `bit_or(1::bigint << di) as m0`
          : `bit_or(case when di >= ${c * MASK_DAYS} and di < ${(c + 1) * MASK_DAYS} then 1::bigint << (di - ${c * MASK_DAYS}) else 0::bigint end) as m${c}`,
      );
      const perDay = Array.from({ length: days }, (_, i) => `sum((m${Math.floor(i / MASK_DAYS)} >> ${i % MASK_DAYS}) & 1)`);
      sql = `with s as (
             select src, bv, di, count(*) as n, ${masks.join(', ')}, grouping(di) as g
               from (${events}) e
              group by grouping sets ((src, bv, di), (src, bv, actor)))
           select 0 as g, src, bv, di, n::int as n, null::int as persons, null::int[] as dau from s where g = 0
           union all
           select 1, src, bv, null, null, count(*)::int, array[${perDay.join(', ')}]::int[] from s where g = 1 group by src, bv`;
    }
    const rows: Array<{
      g: number;
      src: string;
      bv: string | null;
      di: number | null;
      n: number | null;
      persons: number | null;
      dau: number[] | null;
    }> = await em.transactional(async (tx) => {
      // The planner expects up to one group per event for the person grouping set; with the default
      // 4 MB it then sorts every event (7-15 s at 1,000,000) instead of hashing the ~30,000 actual groups
      // in one pass (under 1 s; bench/README.md). JIT off: compiling this statement costs more than it saves.
      await tx.execute(`select set_config('work_mem', '64MB', true), set_config('jit', 'off', true)`);
      return tx.execute(sql, params);
    });

    const bySplit = new Map<string, TileCounts>();
    const at = (src: string) => {
      let entry = bySplit.get(src);
      if (!entry) bySplit.set(src, (entry = { eventsPerDay: new Map(), personsPerDay: new Map(), personsInRange: new Map() }));
      return entry;
    };
    for (const row of rows) {
      const entry = at(row.src);
      if (Number(row.g) === 0) {
        let data = entry.eventsPerDay.get(row.bv);
        if (!data) entry.eventsPerDay.set(row.bv, (data = new Array<number>(days).fill(0)));
        const day = Number(row.di);
        if (day >= 0 && day < days) data[day] += Number(row.n);
      } else {
        entry.personsInRange.set(row.bv, Number(row.persons));
        entry.personsPerDay.set(row.bv, (row.dau ?? []).map(Number));
      }
    }
    return bySplit;
  },
};
