import type { JsonSchema, RouteDocs } from '../../openapi/types';
import { restOperation } from '../../rest/fragments';
import { pathId, queryParams, type RestRequest } from '../../rest/route';

/** The activity rows of docs/activity.md: `{results, next, previous, total_count}`, paged by `page` and `limit`. */

const PAGE = `
  total_count: totalCount
  page
  limit
  results {
    user { first_name: firstName email }
    activity
    scope
    item_id: itemId
    detail {
      changes { type action field before after }
      trigger
      type
      name
      short_id: shortId
    }
    created_at: createdAt
  }`;

interface ActivityItem {
  total_count: number;
  page: number;
  limit: number;
  results: unknown[];
}

/**
 * The envelope: `next` unless this page reaches the total, `previous` unless it is the first; both
 * the request's absolute URL with `page` and `limit` (the effective values) replaced where they
 * stand, or appended, `page` first.
 */
export function activityEnvelope(item: unknown, url: URL) {
  const { total_count: totalCount, page, limit, results } = item as ActivityItem;
  const at = (target: number) => `${url.origin}${url.pathname}?${withParams(url.search, { page: String(target), limit: String(limit) })}`;
  return {
    results,
    next: totalCount <= page * limit ? null : at(page + 1),
    previous: page === 1 ? null : at(page - 1),
    total_count: totalCount,
  };
}

/**
 * A query parameter as the client encoded it, with what RFC 3986 allows in no query (`|`, `{`, `^`,
 * a `%` not starting an escape, …; WHATWG URLs pass them through) percent-encoded, so the link is a URI.
 */
const uriSafe = (part: string) => part.replace(/%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/?%]/g, (c) => encodeURIComponent(c));

/**
 * The query string with each named parameter's first occurrence given the new value where it stands
 * (later repeats dropped) and the missing ones appended in the given order; every other parameter
 * is kept as the client encoded it (`uriSafe`).
 */
function withParams(search: string, values: Record<string, string>): string {
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const part of search.replace(/^\?/, '').split('&')) {
    if (!part) continue;
    const rawName = part.split('=', 1)[0];
    let name: string;
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' '));
    } catch {
      name = rawName;
    }
    if (!Object.prototype.hasOwnProperty.call(values, name)) parts.push(uriSafe(part));
    else if (!seen.has(name)) {
      seen.add(name);
      parts.push(`${name}=${encodeURIComponent(values[name])}`);
    }
  }
  for (const [name, value] of Object.entries(values)) if (!seen.has(name)) parts.push(`${name}=${encodeURIComponent(value)}`);
  return parts.join('&');
}

const nullable = (type: string, extra: JsonSchema = {}): JsonSchema => ({ type: [type, 'null'], ...extra });
const closed = (properties: Record<string, JsonSchema>): JsonSchema => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});

/** What `activityEnvelope` answers, for the OpenAPI document. */
const ACTIVITY_PAGE_SCHEMA: JsonSchema = closed({
  results: {
    type: 'array',
    description: 'Newest first.',
    items: closed({
      user: {
        ...closed({ first_name: { type: 'string' }, email: { type: 'string' } }),
        type: ['object', 'null'],
        description: 'Who made the change; null once that user is gone.',
      },
      activity: { type: 'string', enum: ['created', 'updated', 'deleted', 'restored'] },
      scope: { type: 'string', enum: ['FeatureFlag', 'Experiment', 'Cohort'] },
      item_id: { type: 'string', description: 'The id of the item, as text.' },
      detail: closed({
        changes: nullable('array', {
          description: 'Null for `created`.',
          items: closed({
            type: { type: 'string' },
            action: { type: 'string', enum: ['created', 'changed', 'deleted'] },
            field: { type: 'string' },
            before: { description: 'Any JSON value; null when the field had none.' },
            after: { description: 'Any JSON value; null when the field has none.' },
          }),
        }),
        trigger: { type: 'null' },
        type: { type: 'null' },
        name: { type: 'string', description: "The flag's key right after the change." },
        short_id: { type: 'null' },
      }),
      created_at: { type: 'string', format: 'date-time' },
    }),
  },
  next: nullable('string', { format: 'uri', description: 'The next page, or null on the last.' }),
  previous: nullable('string', { format: 'uri', description: 'The previous page, or null on the first.' }),
  total_count: { type: 'integer' },
});

const docs: RouteDocs = { response: ACTIVITY_PAGE_SCHEMA };

const paging = ({ query }: RestRequest) => ({ page: queryParams.pageInteger(query.page), limit: queryParams.pageInteger(query.limit) });

export const flagsActivity = {
  document: restOperation(`
    query RestFeatureFlagsActivity($projectId: ID!, $page: Int, $limit: Int) {
      item: activity(projectId: $projectId, scope: FeatureFlag, page: $page, limit: $limit) { ${PAGE} }
    }`),
  variables: (request: RestRequest) => ({ projectId: request.params.project_id, ...paging(request) }),
  present: activityEnvelope,
  docs,
};

export const flagActivity = {
  document: restOperation(`
    query RestFeatureFlagActivity($projectId: ID!, $id: Int!, $page: Int, $limit: Int) {
      item: featureFlagActivity(projectId: $projectId, id: $id, page: $page, limit: $limit) { ${PAGE} }
    }`),
  variables: (request: RestRequest) => ({ projectId: request.params.project_id, id: pathId(request.params.id), ...paging(request) }),
  present: activityEnvelope,
  docs,
};
