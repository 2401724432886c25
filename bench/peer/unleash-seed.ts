import { dynamicCohortBodies, flagBody, personProperties, staticCohortMember } from '../fixtures';

/**
 * The service's 100-flag fixtures, as Unleash flags, through Unleash's admin API: each condition set
 * becomes a gradual-rollout strategy in the `development` environment with the same rollout, its
 * person-property conditions become constraints on context fields (the closest operator where
 * Unleash has no equal: a regex becomes a prefix, a semver "≥" a semver "greater than", "is set" a
 * "contains @"), variants become strategy variants with their payloads, cohorts become segments
 * (a `not in` cohort too: a segment cannot be negated), and inactive flags stay disabled. The flags
 * are created 10 at a time, as the service's are.
 */

type Filter = { key: string; type: string; value: unknown; operator?: string };
type Group = { properties?: Filter[]; rollout_percentage?: number | null };
type Filters = {
  groups: Group[];
  multivariate?: { variants: Array<{ key: string; rollout_percentage: number }> };
  payloads?: Record<string, string>;
};
type Constraint = {
  contextName: string;
  operator: string;
  values?: string[];
  value?: string;
  caseInsensitive?: boolean;
  inverted?: boolean;
};

const CONTEXT_FIELDS = Object.keys(personProperties(0));

export interface PeerApi {
  request(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
}

export function peerApi(url: string, token: string): PeerApi {
  return {
    async request(method, path, body) {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: { Authorization: token, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
    },
  };
}

async function must(api: PeerApi, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await api.request(method, path, body);
  if (res.status >= 300) throw new Error(`Unleash ${method} ${path} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
  return res.body;
}

const strings = (value: unknown) => (Array.isArray(value) ? value : [value]).map(String);

function constraint(filter: Filter): Constraint {
  const { key: contextName, value } = filter;
  switch (filter.operator) {
    case 'exact':
      return { contextName, operator: 'IN', values: strings(value) };
    case 'is_not':
      return { contextName, operator: 'NOT_IN', values: strings(value) };
    case 'icontains':
      return { contextName, operator: 'STR_CONTAINS', values: strings(value), caseInsensitive: true };
    case 'not_icontains':
      return { contextName, operator: 'STR_CONTAINS', values: strings(value), caseInsensitive: true, inverted: true };
    case 'regex':
      return { contextName, operator: 'STR_STARTS_WITH', values: [String(value).replace(/^\^/, '')] };
    case 'lt':
      return { contextName, operator: 'NUM_LT', value: String(value) };
    case 'gte':
      return { contextName, operator: 'NUM_GTE', value: String(value) };
    case 'semver_gte':
      return { contextName, operator: 'SEMVER_GT', value: String(value) };
    case 'is_date_before':
      return { contextName, operator: 'DATE_BEFORE', value: new Date(String(value)).toISOString() };
    case 'is_set':
      return { contextName, operator: 'STR_CONTAINS', values: ['@'] };
    default:
      throw new Error(`no Unleash constraint for the fixtures' operator ${filter.operator}`);
  }
}

function strategy(key: string, group: Group, filters: Filters, segments: Map<number, number>) {
  const properties = group.properties ?? [];
  const variants = (filters.multivariate?.variants ?? []).map((variant) => ({
    name: variant.key,
    weight: variant.rollout_percentage * 10,
    weightType: 'variable',
    stickiness: 'default',
    ...(filters.payloads?.[variant.key] ? { payload: { type: 'json', value: filters.payloads[variant.key] } } : {}),
  }));
  return {
    name: 'flexibleRollout',
    parameters: { rollout: String(group.rollout_percentage ?? 100), stickiness: 'default', groupId: key },
    constraints: properties.filter((p) => p.type === 'person').map(constraint),
    segments: properties.filter((p) => p.type === 'cohort').map((p) => segments.get(Number(p.value))!),
    variants,
  };
}

/** The flags (keys `small-0`, `small-1`, … as the service's), with their context fields and segments first. */
export async function seedPeer(api: PeerApi, flags: number, users: number): Promise<void> {
  for (const name of CONTEXT_FIELDS) {
    const res = await api.request('POST', '/api/admin/context', { name, description: `person property ${name}`, stickiness: false });
    if (res.status >= 300 && res.status !== 409) throw new Error(`Unleash context field ${name} answered ${res.status}`);
  }
  // The service's cohorts: a static list (every seventh stored person) and a dynamic one on person properties.
  const members = Array.from({ length: users }, (_, user) => user)
    .filter(staticCohortMember)
    .map((user) => `user-${user}`);
  const northAmerica = dynamicCohortBodies(null).filters.properties.values as Filter[];
  const paying = (dynamicCohortBodies(1).filters.properties.values as Filter[]).filter((p) => p.type === 'person');
  const segment = async (name: string, constraints: Constraint[]) =>
    ((await must(api, 'POST', '/api/admin/segments', { name, constraints })) as { id: number }).id;
  const staticSegment = await segment('Hand-picked', [{ contextName: 'userId', operator: 'IN', values: members }]);
  const dynamicSegment = await segment('Paying in North America', [...northAmerica, ...paying].map(constraint));
  // flagBody refers to cohorts by id: give it two ids and map them to the segments.
  const cohorts = { staticId: 1, dynamicId: 2 };
  const segments = new Map([
    [cohorts.staticId, staticSegment],
    [cohorts.dynamicId, dynamicSegment],
  ]);

  let next = 0;
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (next < flags) {
        const i = next++;
        const body = flagBody(i, `small-${i}`, cohorts) as { key: string; name: string; filters: Filters; active: boolean };
        const base = `/api/admin/projects/default/features`;
        await must(api, 'POST', base, { name: body.key, type: 'release', description: body.name });
        for (const group of body.filters.groups)
          await must(
            api,
            'POST',
            `${base}/${body.key}/environments/development/strategies`,
            strategy(body.key, group, body.filters, segments),
          );
        if (body.active) await must(api, 'POST', `${base}/${body.key}/environments/development/on`);
      }
    }),
  );
}
