import { parse, type DocumentNode } from 'graphql';

/**
 * The REST wire shapes, written once as GraphQL selections with the API document's names as
 * aliases. This is the only place snake_case meets camelCase; values (filters, payloads, …)
 * pass through untouched.
 */
export const REST_FRAGMENTS = /* GraphQL */ `
  fragment RestUser on User {
    id
    uuid
    distinct_id: distinctId
    first_name: firstName
    email
    is_email_verified: isEmailVerified
  }

  fragment RestFeatureFlag on FeatureFlag {
    id
    name
    key
    filters
    deleted
    active
    created_by: createdBy { ...RestUser }
    created_at: createdAt
    is_simple_flag: isSimpleFlag
    rollout_percentage: rolloutPercentage
    ensure_experience_continuity: ensureExperienceContinuity
    experiment_set: experimentSet
    features
    rollback_conditions: rollbackConditions
    performed_rollback: performedRollback
    can_edit: canEdit
    tags
    usage_dashboard: usageDashboard
    analytics_dashboards: analyticsDashboards
    has_enriched_analytics: hasEnrichedAnalytics
    version
  }
`;

/** An operation plus the fragments it uses. */
export function restOperation(source: string): DocumentNode {
  return parse(`${source}\n${REST_FRAGMENTS}`);
}
