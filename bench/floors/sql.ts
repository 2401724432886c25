/**
 * The statements of the SQL floors: each request is ONE statement, and PostgreSQL builds the
 * response's JSON, which the floor writes as is. The caller's key is checked inside the statement
 * (key hash, active user, membership of the project's organization, the key's project, organization
 * and scope limits), so the floors authenticate what the service authenticates, in the same round trip.
 */

type Shape = 'rest' | 'graphql';

/** The key lookup, as a CTE over $1 (the key's `sha256$…` hash) and $2 (the project id). */
const CALLER = `caller as (
  select 1 from personal_api_key k
    join app_user u on u.id = k.user_id and u.is_active
    join project p on p.id = $2
    join organization_membership m on m.user_id = u.id and m.organization_id = p.organization_id
  where k.secure_value = $1
    and (k.scoped_teams is null or cardinality(k.scoped_teams) = 0 or p.id = any(k.scoped_teams))
    and (k.scoped_organizations is null or cardinality(k.scoped_organizations) = 0 or p.organization_id::text = any(k.scoped_organizations))
    and (k.scopes is null or cardinality(k.scopes) = 0 or k.scopes && array['*', 'feature_flag:read', 'feature_flag:write'])
)`;

/** The stored filters as the service shows them (legacy filters without `groups` become one condition), and is_simple_flag. */
const SHOWN = `case when f.filters ? 'groups' then f.filters else jsonb_build_object('groups', jsonb_build_array(
    jsonb_build_object('properties', coalesce(f.filters->'properties', '[]'), 'rollout_percentage', null))) end as shown`;
const SIMPLE = `jsonb_typeof(g.shown->'groups') = 'array' and jsonb_array_length(g.shown->'groups') = 1
    and coalesce(g.shown->'groups'->0->'properties', 'null') in ('[]', 'null')
    and coalesce(g.shown->'aggregation_group_type_index', 'null') = 'null' as simple`;

/** The flag's fields in the order and under the names the service answers them (REST: fragments.ts RestFeatureFlag). */
function flagColumns(shape: Shape): string {
  const rest = shape === 'rest';
  const name = (snake: string, camel: string) => (rest ? snake : `"${camel}"`);
  const creator = rest
    ? 'u.id, u.uuid, u.distinct_id, u.first_name, u.email, u.is_email_verified'
    : 'u.id, u.uuid, u.distinct_id as "distinctId", u.first_name as "firstName", u.email, u.is_email_verified as "isEmailVerified"';
  return `g.id, g.name, g.key, g.shown as filters, g.deleted, g.active,
    (select row_to_json(c) from (select ${creator} from app_user u where u.id = g.created_by_id) c) as ${name('created_by', 'createdBy')},
    to_char(g.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"000Z"') as ${name('created_at', 'createdAt')},
    g.simple as ${name('is_simple_flag', 'isSimpleFlag')},
    case when g.simple and jsonb_typeof(g.shown->'groups'->0->'rollout_percentage') = 'number'
      then g.shown->'groups'->0->'rollout_percentage' end as ${name('rollout_percentage', 'rolloutPercentage')},
    g.ensure_experience_continuity as ${name('ensure_experience_continuity', 'ensureExperienceContinuity')},
    array(select e.id from experiment e where e.feature_flag_id = g.id order by e.id) as ${name('experiment_set', 'experimentSet')},
    ${rest ? `'[]'::json as features,` : ''}
    g.rollback_conditions as ${name('rollback_conditions', 'rollbackConditions')},
    g.performed_rollback as ${name('performed_rollback', 'performedRollback')},
    true as ${name('can_edit', 'canEdit')}, g.tags,
    g.usage_dashboard_id as ${name('usage_dashboard', 'usageDashboardId')},
    g.analytics_dashboards as ${name('analytics_dashboards', 'analyticsDashboards')},
    g.has_enriched_analytics as ${name('has_enriched_analytics', 'hasEnrichedAnalytics')}, g.version
    ${rest ? `, ${LAST_CALLED} as last_called_at` : ''}`;
}

/** REST's `last_called_at` (docs/stale-flags.md): the flag's latest `$feature_flag_called`, as the service reads it. */
const LAST_CALLED = `to_char((select max(e.timestamp) from event e where e.project_id = g.project_id
    and e.event = '$feature_flag_called' and (e.properties ->> '$feature_flag') = g.key) at time zone 'UTC',
    'YYYY-MM-DD"T"HH24:MI:SS.MS"000Z"')`;

/**
 * The list page: $1 key hash, $2 project, $3 limit, $4 offset. Answers (authorized, body): the body
 * is `{count, next, previous, results}` (REST) or `{data: {featureFlags: {count, results}}}` (GraphQL),
 * newest first, count from a window over the same scan.
 */
export function listStatement(shape: Shape): string {
  const page =
    shape === 'rest' ? 'coalesce(max(t.total), 0) as count, null as next, null as previous' : 'coalesce(max(t.total), 0) as count';
  const body = `select ${page}, coalesce(json_agg(shaped order by shaped.${shape === 'rest' ? 'created_at' : '"createdAt"'} desc, shaped.id desc), '[]') as results
    from (select ${flagColumns(shape)} from flag g) shaped, (select max(total) as total from flag) t`;
  return `with ${CALLER}, page as (
    select f.*, count(*) over () as total, ${SHOWN}
    from feature_flag f
    where f.project_id = $2 and not f.deleted and exists (select from caller)
    order by f.created_at desc, f.id desc limit $3 offset $4
  ), flag as (select g.*, ${SIMPLE} from page g)
  select exists (select from caller) as authorized,
    ${shape === 'rest' ? 'row_to_json(body)::text' : `'{"data":{"featureFlags":' || row_to_json(body)::text || '}}'`} as body
  from (${body}) body`;
}

/** One flag (deleted or not, as the service's retrieve): $1 key hash, $2 project, $3 flag id; body null when there is none. */
export const RETRIEVE = `with ${CALLER}, one as (
    select f.*, ${SHOWN} from feature_flag f where f.project_id = $2 and f.id = $3 and exists (select from caller)
  ), flag as (select g.*, ${SIMPLE} from one g)
  select exists (select from caller) as authorized, (select row_to_json(r)::text from (select ${flagColumns('rest')} from flag g) r) as body`;

/**
 * What `/flags` must read of its subject: the person behind the distinct id in the project, with the
 * static cohorts they were added to; one indexed lookup, one row (the service's person statement).
 */
export const PERSON = `select p.properties, (select array_agg(cp.cohort_id) from cohort_person cp where cp.person_id = p.id) as static_cohorts
  from person_distinct_id d join person p on p.id = d.person_id where d.project_id = $1 and d.distinct_id = $2`;
