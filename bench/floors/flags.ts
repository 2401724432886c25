import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import type { Pool } from '../pg';

/**
 * Floor of the create row: what the service must at least do, by hand with `pg` and JSON.stringify.
 * Every request looks its key up (the service authenticates each one), then runs one insert.
 * (The read rows' floors are in sql-floors.ts: one statement that builds the JSON.)
 */

type UserRow = { id: number; uuid: string; distinct_id: string; first_name: string; email: string; is_email_verified: boolean };
type FlagRow = Record<string, unknown> & { filters: Record<string, unknown>; created_at: Date };

const FLAG_COLUMNS = `f.id, f.name, f.key, f.filters, f.deleted, f.active, f.created_at, f.ensure_experience_continuity,
  f.rollback_conditions, f.performed_rollback, f.tags, f.usage_dashboard_id, f.analytics_dashboards, f.has_enriched_analytics, f.version`;

const KEY_LOOKUP = `select u.id, u.uuid, u.distinct_id, u.first_name, u.email, u.is_email_verified
  from personal_api_key k join app_user u on u.id = k.user_id where k.secure_value = $1 and u.is_active`;
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

  return {
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
  };
}
