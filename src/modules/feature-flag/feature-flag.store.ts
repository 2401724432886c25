import { raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { runPrepared, type PreparedStatement } from '../../db/prepared';
import { BatchedLookup } from '../../db/batched-lookup';
import { containsPattern, storableText } from '../../db/sql';
import { windowPage, type Page } from '../../pagination';
import type { User } from '../user/user.entity';
import { userFromRow } from '../user/user.rows';
import { FeatureFlag } from './feature-flag.entity';
import { FLAG_COLUMNS, flagFromRow } from './feature-flag.rows';
import { staleCutoff, type FlagStatusValue } from './flag-status';
import { lastCallOf, staleFlagCondition } from './flag-status.sql';

export type FlagTypeFilter = 'boolean' | 'multivariant' | 'experiment';

/** What a flag list is narrowed by (each absent, null or empty: no condition). */
export interface FlagListFilters {
  search?: string | null;
  active?: boolean | null;
  type?: FlagTypeFilter | null;
  createdById?: number | null;
  tags?: string[] | null;
  /** docs/stale-flags.md: only flags with this status (the list never holds deleted ones). */
  status?: FlagStatusValue | null;
}

/** A flag as the API reads it (a plain object, no unit of work), with what rode on its row. */
export interface FlagRead {
  flag: FeatureFlag;
  /** `experiment_set`: the flag's experiment ids, ascending. */
  experimentIds: number[];
  /** The flag's creator; null without one. */
  creator: User | null;
  /** When the flag's key was last evaluated; null for never. */
  lastCalledAt: Date | null;
}

/**
 * What rides on each flag row so a read costs no statement per relation: `experiment_set`, and
 * the creator (as JSON, so its columns cannot clash with the flag's).
 */
const RIDERS = `array(select e.id from experiment e where e.feature_flag_id = f.id order by e.id) as experiment_ids,
  (select to_jsonb(u) from app_user u where u.id = f.created_by_id) as creator,
  (${lastCallOf('f.project_id', 'f.key')}) as last_called_at`;

function flagRead({
  experiment_ids: experimentIds,
  creator,
  last_called_at: lastCalledAt,
  total_count: _,
  ...row
}: Record<string, unknown>): FlagRead {
  return {
    flag: flagFromRow(row),
    experimentIds: (experimentIds as number[]).map(Number),
    creator: creator ? userFromRow(creator as Record<string, unknown>) : null,
    lastCalledAt: lastCalledAt === null || lastCalledAt === undefined ? null : new Date(lastCalledAt as string | Date),
  };
}

/** A prepared flag read's columns: named, never `f.*` (docs/operations.md, "The route table"), with its riders. */
const FLAG_READ_COLUMNS = `${FLAG_COLUMNS.map((column) => `f.${column}`).join(', ')}, ${RIDERS}`;

/**
 * Flags by id or by key (`$1` the project, `$2` the ids or keys): prepared, as a retrieve runs it on
 * every request; the retrieves of one turn share it (BatchedLookup).
 */
const flagsBy = (by: 'id' | 'key') => {
  const statement: PreparedStatement = {
    name: `flagship_flags_by_${by}`,
    text: `select ${FLAG_READ_COLUMNS} from feature_flag f where f.project_id = $1 and f.${by} = any($2::${by === 'id' ? 'int' : 'text'}[])`,
  };
  return new BatchedLookup<Record<string, unknown>>(async (em, projectId, values) => {
    const rows = await runPrepared<Record<string, unknown>>(em, statement, [projectId, by === 'id' ? values.map(Number) : values]);
    return new Map(rows.map((row) => [String(row[by]), row]));
  });
};
const FLAGS_BY = { id: flagsBy('id'), key: flagsBy('key') };

/**
 * A page of a project's flags with no filter (`$1` the project, `$2` limit, `$3` offset), the total
 * riding on the rows: prepared, as it is what a console or script loads first; a filtered list
 * builds its statement instead.
 */
const FLAG_PAGE: PreparedStatement = {
  name: 'flagship_flag_page',
  text: `select ${FLAG_READ_COLUMNS}, count(*) over () as total_count
    from feature_flag f where f.project_id = $1 and not f.deleted order by f.created_at desc, f.id desc limit $2 offset $3`,
};
const FLAG_COUNT: PreparedStatement = {
  name: 'flagship_flag_count',
  text: 'select count(*) as count from feature_flag f where f.project_id = $1 and not f.deleted',
};

const unfiltered = (filters: FlagListFilters) =>
  !filters.search &&
  (filters.active === undefined || filters.active === null) &&
  !filters.type &&
  !filters.createdById &&
  !filters.tags?.length &&
  !filters.status;

async function readOneFlag(em: EntityManager, by: 'id' | 'key', projectId: number, value: number | string): Promise<FlagRead | null> {
  const row = await FLAGS_BY[by].get(em, projectId, String(value));
  return row ? flagRead(row) : null;
}

/** The feature_flag table's queries: the API's reads, evaluation's, and the CLI import's. */
export const FeatureFlagStore = {
  /** A project's non-deleted flags by id, as plain objects (no unit of work). */
  async live(em: EntityManager, projectId: number): Promise<FeatureFlag[]> {
    const rows: Array<Record<string, unknown>> = await em
      .getConnection()
      .execute('select * from feature_flag where project_id = ? and not deleted order by id', [projectId]);
    return rows.map(flagFromRow);
  },

  /**
   * A page of a project's non-deleted flags, newest first, each with its experiment ids and creator:
   * one statement (the total rides on the rows as a window count), a second for a page past the end.
   */
  async page(
    em: EntityManager,
    projectId: number,
    filters: FlagListFilters,
    limit: number,
    offset: number,
    now: Date,
  ): Promise<Page<FlagRead>> {
    if (unfiltered(filters)) {
      const rows = await runPrepared<Record<string, unknown>>(em, FLAG_PAGE, [projectId, limit, offset]);
      const count =
        rows.length > 0
          ? Number(rows[0].total_count)
          : offset > 0
            ? Number((await runPrepared<{ count: string }>(em, FLAG_COUNT, [projectId]))[0].count)
            : 0;
      return { count, results: rows.map(flagRead), limit, offset };
    }
    const qb = em.createQueryBuilder(FeatureFlag, 'f').select(['f.*']).addSelect(raw(RIDERS)).where({ project: projectId, deleted: false });
    if (filters.search)
      qb.andWhere({ $or: [{ key: { $ilike: containsPattern(filters.search) } }, { name: { $ilike: containsPattern(filters.search) } }] });
    if (filters.active !== undefined && filters.active !== null) qb.andWhere({ active: filters.active });
    if (filters.createdById) qb.andWhere({ createdBy: filters.createdById });
    if (filters.tags?.length) qb.andWhere({ tags: { $overlap: filters.tags.map((t) => t.trim().toLowerCase()) } });
    if (filters.type === 'boolean') qb.andWhere(`coalesce(jsonb_typeof(f.filters -> 'multivariate'), 'null') = 'null'`);
    if (filters.type === 'multivariant') qb.andWhere(`coalesce(jsonb_typeof(f.filters -> 'multivariate'), 'null') <> 'null'`);
    if (filters.type === 'experiment') qb.andWhere('exists (select 1 from experiment e where e.feature_flag_id = f.id)');
    if (filters.status === 'deleted') qb.andWhere('false');
    else if (filters.status) {
      const [stale, params] = staleFlagCondition(staleCutoff(now));
      qb.andWhere(filters.status === 'stale' ? stale : `not ${stale}`, params);
    }
    qb.orderBy({ createdAt: 'desc', id: 'desc' });
    return windowPage(qb, limit, offset, flagRead);
  },

  /** One flag of a project by id, deleted or not, with its experiment ids and creator, or null: one statement. */
  async byId(em: EntityManager, projectId: number, flagId: number): Promise<FlagRead | null> {
    return readOneFlag(em, 'id', projectId, flagId);
  },

  /**
   * One flag of a project by key (a deleted one too), with its experiment ids and creator, or null: one
   * statement. A key PostgreSQL cannot store names no flag, and must not fail the lookups it would share a statement with.
   */
  async byKey(em: EntityManager, projectId: number, key: string): Promise<FlagRead | null> {
    return storableText(key) ? readOneFlag(em, 'key', projectId, key) : null;
  },

  /**
   * When each of these flag keys was last evaluated, null for never: one statement, one index probe per key.
   * For flags read elsewhere (an experiment's flag, a write's answer); the reads here carry it on the row.
   */
  async lastCalls(em: EntityManager, projectId: number, keys: string[]): Promise<Map<string, Date | null>> {
    const rows: Array<{ key: string; last_called_at: Date | string | null }> = await em.execute(
      `select k.key, (${lastCallOf('?', 'k.key')}) as last_called_at from unnest(array[?]::text[]) as k(key)`,
      [projectId, keys],
    );
    return new Map(rows.map((row) => [row.key, row.last_called_at === null ? null : new Date(row.last_called_at)]));
  },

  /** The users who created the project's non-deleted flags, by id: one statement. */
  async creatorIds(em: EntityManager, projectId: number): Promise<number[]> {
    const rows: Array<{ id: number }> = await em.execute(
      'select distinct created_by_id as id from feature_flag where project_id = ? and not deleted and created_by_id is not null order by 1',
      [projectId],
    );
    return rows.map((row) => Number(row.id));
  },

  /** The id of the project's non-deleted flag with this key, or null: one statement. */
  async liveIdByKey(em: EntityManager, projectId: number, key: string): Promise<number | null> {
    const rows: Array<{ id: number }> = await em.execute('select id from feature_flag where project_id = ? and key = ? and not deleted', [
      projectId,
      key,
    ]);
    return rows.length === 0 ? null : Number(rows[0].id);
  },

  /** The stored fields a flag import may change, as the row holds them (undefined for an unknown flag): one statement. */
  async importedFields(em: EntityManager, flagId: number): Promise<Record<string, unknown> | undefined> {
    const [row]: Array<Record<string, unknown>> = await em.execute(
      `select key, name, filters, active, ensure_experience_continuity, rollback_conditions, performed_rollback, tags from feature_flag where id = ?`,
      [flagId],
    );
    return row;
  },
};
