import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import type { Pool } from '../pg';

/**
 * Floors of the flag rows: what the service must at least do, by hand with `pg` and JSON.stringify.
 * Every request looks its key up (the service authenticates each one), then runs the row's one
 * statement: the page of flags joined with their creators (count included), one flag, or one insert.
 */

type UserRow = { id: number; uuid: string; distinct_id: string; first_name: string; email: string; is_email_verified: boolean };
type FlagRow = Record<string, unknown> & { filters: Record<string, unknown>; created_at: Date };

const FLAG_COLUMNS = `f.id, f.name, f.key, f.filters, f.deleted, f.active, f.created_at, f.ensure_experience_continuity,
  f.rollback_conditions, f.performed_rollback, f.tags, f.usage_dashboard_id, f.analytics_dashboards, f.has_enriched_analytics, f.version`;
const CREATOR_COLUMNS = `u.id as u_id, u.uuid as u_uuid, u.distinct_id as u_distinct_id, u.first_name as u_first_name,
  u.email as u_email, u.is_email_verified as u_is_email_verified`;

const KEY_LOOKUP = `select u.id, u.uuid, u.distinct_id, u.first_name, u.email, u.is_email_verified
  from personal_api_key k join app_user u on u.id = k.user_id where k.secure_value = $1 and u.is_active`;
const PAGE = `select ${FLAG_COLUMNS}, ${CREATOR_COLUMNS}, count(*) over () as total
  from feature_flag f left join app_user u on u.id = f.created_by_id
  where f.project_id = $1 and not f.deleted order by f.created_at desc, f.id desc limit $2 offset $3`;
const ONE = `select ${FLAG_COLUMNS}, ${CREATOR_COLUMNS}
  from feature_flag f left join app_user u on u.id = f.created_by_id where f.project_id = $1 and f.id = $2 and not f.deleted`;
const INSERT = `insert into feature_flag (project_id, name, key, filters, active, created_by_id, last_modified_by_id, created_at, updated_at, tags, analytics_dashboards)
  values ($1, $2, $3, $4, $5, $6, $6, now(), now(), '{}', '{}') returning ${FLAG_COLUMNS.replace(/f\./g, '')}`;

const timestamp = (date: Date) => date.toISOString().replace(/(\.\d{3})Z$/, '$1000Z');

function restUser(user: UserRow | null) {
  if (!user) return null;
  return {
    id: user.id,
    uuid: user.uuid,
    distinct_id: user.distinct_id,
    first_name: user.first_name,
    email: user.email,
    is_email_verified: user.is_email_verified,
  };
}

const creatorOf = (row: Record<string, unknown>): UserRow | null =>
  row.u_id === null
    ? null
    : {
        id: row.u_id as number,
        uuid: row.u_uuid as string,
        distinct_id: row.u_distinct_id as string,
        first_name: row.u_first_name as string,
        email: row.u_email as string,
        is_email_verified: row.u_is_email_verified as boolean,
      };

/** The REST flag (fragments.ts RestFeatureFlag), with the service's derived fields computed the cheap way. */
function restFlag(row: FlagRow, creator: UserRow | null) {
  const groups = Array.isArray(row.filters.groups) ? (row.filters.groups as Array<Record<string, unknown>>) : [];
  const simple =
    groups.length === 1 && !row.filters.multivariate && (!Array.isArray(groups[0].properties) || groups[0].properties.length === 0);
  return {
    id: row.id,
    name: row.name,
    key: row.key,
    filters: row.filters,
    deleted: row.deleted,
    active: row.active,
    created_by: restUser(creator),
    created_at: timestamp(row.created_at),
    is_simple_flag: simple,
    rollout_percentage: simple ? (groups[0].rollout_percentage ?? null) : null,
    ensure_experience_continuity: row.ensure_experience_continuity,
    experiment_set: [],
    features: [],
    rollback_conditions: row.rollback_conditions,
    performed_rollback: row.performed_rollback,
    can_edit: true,
    tags: row.tags,
    usage_dashboard: row.usage_dashboard_id,
    analytics_dashboards: row.analytics_dashboards,
    has_enriched_analytics: row.has_enriched_analytics,
    version: row.version,
  };
}

/** The GraphQL twin: the same fields under their camelCase names. */
function graphqlFlag(row: FlagRow, creator: UserRow | null) {
  const rest = restFlag(row, creator);
  return {
    id: rest.id,
    name: rest.name,
    key: rest.key,
    filters: rest.filters,
    deleted: rest.deleted,
    active: rest.active,
    createdBy: creator && {
      id: creator.id,
      uuid: creator.uuid,
      distinctId: creator.distinct_id,
      firstName: creator.first_name,
      email: creator.email,
      isEmailVerified: creator.is_email_verified,
    },
    createdAt: rest.created_at,
    isSimpleFlag: rest.is_simple_flag,
    rolloutPercentage: rest.rollout_percentage,
    ensureExperienceContinuity: rest.ensure_experience_continuity,
    experimentSet: [],
    rollbackConditions: rest.rollback_conditions,
    performedRollback: rest.performed_rollback,
    canEdit: true,
    tags: rest.tags,
    usageDashboardId: rest.usage_dashboard,
    analyticsDashboards: rest.analytics_dashboards,
    hasEnrichedAnalytics: rest.has_enriched_analytics,
    version: rest.version,
  };
}

async function readBody(ctx: Context): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function json(ctx: Context, status: number, value: unknown) {
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.body = JSON.stringify(value);
}

export function flagFloors(pool: Pool) {
  async function authenticate(ctx: Context): Promise<UserRow | null> {
    const bearer = /^Bearer (.+)$/.exec(ctx.get('Authorization'))?.[1];
    const hash = bearer ? `sha256$${createHash('sha256').update(bearer).digest('hex')}` : '';
    const { rows } = await pool.query<UserRow>(KEY_LOOKUP, [hash]);
    if (rows.length === 0)
      json(ctx, 401, {
        type: 'authentication_error',
        code: 'authentication_failed',
        detail: 'Incorrect authentication credentials.',
        attr: null,
      });
    return rows[0] ?? null;
  }

  const page = (projectId: number, limit: number, offset: number) => pool.query<FlagRow>(PAGE, [projectId, limit, offset]);

  return {
    async list(ctx: Context, projectId: number) {
      if (!(await authenticate(ctx))) return;
      const limit = Math.min(Number(ctx.query.limit ?? 100) || 100, 1000);
      const { rows } = await page(projectId, limit, 0);
      const count = rows.length ? Number(rows[0].total) : 0;
      json(ctx, 200, { count, next: null, previous: null, results: rows.map((row) => restFlag(row, creatorOf(row))) });
    },

    async retrieve(ctx: Context, projectId: number, flagId: number) {
      if (!(await authenticate(ctx))) return;
      const { rows } = await pool.query<FlagRow>(ONE, [projectId, flagId]);
      if (rows.length === 0) return json(ctx, 404, { type: 'invalid_request', code: 'not_found', detail: 'Not found.', attr: null });
      json(ctx, 200, restFlag(rows[0], creatorOf(rows[0])));
    },

    async create(ctx: Context, projectId: number) {
      const input = JSON.parse((await readBody(ctx)).toString('utf8')) as {
        key: string;
        name?: string;
        filters?: unknown;
        active?: boolean;
      };
      const user = await authenticate(ctx);
      if (!user) return;
      const { rows } = await pool.query<FlagRow>(INSERT, [
        projectId,
        input.name ?? '',
        input.key,
        JSON.stringify(input.filters ?? {}),
        input.active ?? true,
        user.id,
      ]);
      json(ctx, 201, restFlag(rows[0], user));
    },

    async graphqlList(ctx: Context) {
      const { variables } = JSON.parse((await readBody(ctx)).toString('utf8')) as { variables: { projectId: string; limit: number } };
      if (!(await authenticate(ctx))) return;
      const { rows } = await page(Number(variables.projectId), variables.limit, 0);
      const count = rows.length ? Number(rows[0].total) : 0;
      json(ctx, 200, { data: { featureFlags: { count, results: rows.map((row) => graphqlFlag(row, creatorOf(row))) } } });
    },
  };
}
