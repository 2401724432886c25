/** Stored keys an SDK may see besides `groups`; anything else stored is a rule this service does not apply. */
const SERVED_KEYS = ['multivariate', 'aggregation_group_type_index', 'payloads', 'super_groups'] as const;

/**
 * docs/evaluation.md §3.1 and §7.3: the normalised filters every evaluation reads and SDKs receive.
 * Filters without a `groups` array become one 100% condition with their legacy `properties`.
 */
export function servedFilters(stored: Record<string, unknown> | null): Record<string, unknown> {
  const filters = stored ?? {};
  const groups = Array.isArray(filters.groups)
    ? filters.groups
    : [{ properties: Array.isArray(filters.properties) ? filters.properties : [], rollout_percentage: null }];
  const served: Record<string, unknown> = { groups };
  for (const key of SERVED_KEYS) if (Object.prototype.hasOwnProperty.call(filters, key)) served[key] = filters[key];
  return served;
}
