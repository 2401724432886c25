import { referenceOf, timestampOf } from '../../db/rows';
import type { Project } from '../project/project.entity';
import type { User } from '../user/user.entity';
import type { FeatureFlag } from './feature-flag.entity';

/**
 * The columns flagFromRow reads, named in prepared statements instead of `f.*`: a prepared `*` fails
 * ("cached plan must not change result type") on every connection that prepared it once a newer
 * version of the service adds a column while this one still runs.
 */
export const FLAG_COLUMNS = [
  'id',
  'project_id',
  'name',
  'key',
  'filters',
  'deleted',
  'active',
  'created_by_id',
  'last_modified_by_id',
  'created_at',
  'updated_at',
  'ensure_experience_continuity',
  'rollback_conditions',
  'performed_rollback',
  'tags',
  'analytics_dashboards',
  'usage_dashboard_id',
  'has_enriched_analytics',
  'version',
] as const;

/**
 * A `feature_flag` row as the plain object the resolvers read: relations are `{id}` stubs, which is
 * all a read needs (`created_by` goes through the user loader). Never handed to an EntityManager.
 */
export function flagFromRow(row: Record<string, unknown>): FeatureFlag {
  return {
    id: Number(row.id),
    project: referenceOf<Project>(row.project_id)!,
    name: row.name as string,
    key: row.key as string,
    filters: row.filters as Record<string, unknown>,
    deleted: row.deleted as boolean,
    active: row.active as boolean,
    createdBy: referenceOf<User>(row.created_by_id),
    lastModifiedBy: referenceOf<User>(row.last_modified_by_id),
    createdAt: timestampOf(row.created_at),
    updatedAt: timestampOf(row.updated_at),
    ensureExperienceContinuity: row.ensure_experience_continuity as boolean | null,
    rollbackConditions: row.rollback_conditions,
    performedRollback: row.performed_rollback as boolean | null,
    tags: row.tags as string[],
    analyticsDashboards: (row.analytics_dashboards as number[]).map(Number),
    usageDashboardId: row.usage_dashboard_id === null ? null : Number(row.usage_dashboard_id),
    hasEnrichedAnalytics: row.has_enriched_analytics as boolean | null,
    version: Number(row.version),
  };
}

/**
 * The type of a flag field resolver's `@Root()`. type-graphql turns a root that is not an instance
 * of the parameter's reflected class into one (a MikroORM entity, built field by field through the
 * ORM's property setters, for every field of every row); a mapped type reflects as `Object`, so
 * the plain objects of flagFromRow reach resolvers as they are.
 */
export type FlagRoot = Readonly<FeatureFlag>;
