import { httpRow } from './row';
import type { BenchContext, Scenario } from './types';

const USER = 'id uuid distinctId firstName email isEmailVerified';
// The REST list's fields (src/rest/fragments.ts RestFeatureFlag) under their GraphQL names.
const FLAG = `id name key filters deleted active createdBy { ${USER} } createdAt isSimpleFlag rolloutPercentage
  ensureExperienceContinuity experimentSet rollbackConditions performedRollback canEdit tags usageDashboardId
  analyticsDashboards hasEnrichedAnalytics version`;
const LIST_QUERY = `query BenchFlags($projectId: ID!, $limit: Int) { featureFlags(projectId: $projectId, limit: $limit) { count results { ${FLAG} } } }`;

const FLOOR = 'bare Koa + pg: key lookup, page joined with creators';

type Flag = Record<string, unknown>;
const shape = (flag: Flag | undefined) =>
  flag
    ? Object.entries(flag)
        .map(([key, value]) =>
          value && typeof value === 'object' && !Array.isArray(value) && key !== 'filters' ? `${key}{${Object.keys(value).sort()}}` : key,
        )
        .sort()
        .join()
    : 'nothing';

/**
 * One request to each side before the load: the service must answer what the row claims (100 flags,
 * no GraphQL errors), and the floor must render the same fields, or the ratio compares different work.
 */
async function probe(
  context: BenchContext,
  path: string,
  init: RequestInit,
  results: (body: Record<string, unknown>) => Flag[] | undefined,
) {
  const floor = await context.floorServer();
  const [service, bare] = await Promise.all(
    [context.service.url, floor.url].map(async (base) => {
      const res = await fetch(`${base}${path}`, init);
      const body = (await res.json()) as Record<string, unknown>;
      return { status: res.status, body, flags: results(body) };
    }),
  );
  const single = path.match(/\/feature_flags\/\d+\//) !== null;
  if (service.status !== 200 || !service.flags || (!single && service.flags.length !== 100) || 'errors' in service.body) {
    throw new Error(`${path} answered ${service.status}: ${JSON.stringify(service.body).slice(0, 300)}`);
  }
  if (shape(service.flags[0]) !== shape(bare.flags?.[0])) {
    context.log(
      `  warning: the floor's ${path} renders other fields than the service:\n    service ${shape(service.flags[0])}\n    floor   ${shape(bare.flags?.[0])}`,
    );
  }
}

/** Reading flags with their creators: the REST list, its GraphQL twin, one flag. */
export const flagReads: Scenario = {
  id: 'reads',
  async run(context) {
    const { small, keys } = context.world;
    const auth = { Authorization: `Bearer ${keys[0]}` };
    const body = JSON.stringify({ query: LIST_QUERY, variables: { projectId: String(small.id), limit: 100 } });
    // A multivariate flag with an override condition and payloads.
    const flagId = small.flagIds[2];
    const listPath = `/api/projects/${small.id}/feature_flags/?limit=100`;
    const onePath = `/api/projects/${small.id}/feature_flags/${flagId}/`;
    await probe(context, listPath, { headers: auth }, (b) => b.results as Flag[]);
    await probe(
      context,
      '/graphql',
      { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body },
      (b) => (b.data as { featureFlags?: { results: Flag[] } })?.featureFlags?.results,
    );
    await probe(context, onePath, { headers: auth }, (b) => [b]);
    const list = await httpRow(
      context,
      { scenario: 'REST list, 100 flags with creators', unit: 'req/s', floor: FLOOR, target: { ratio: 0.4 } },
      () => ({ method: 'GET', path: listPath, headers: auth, expect: 200 }),
    );
    const graphql = await httpRow(
      context,
      { scenario: 'GraphQL featureFlags, 100 flags with creators', unit: 'req/s', floor: FLOOR, target: { ratio: 0.3 } },
      () => ({ method: 'POST', path: '/graphql', headers: { ...auth, 'Content-Type': 'application/json' }, body, expect: 200 }),
    );
    const retrieve = await httpRow(
      context,
      {
        scenario: 'REST retrieve one flag',
        unit: 'req/s',
        floor: 'bare Koa + pg: key lookup, one flag joined with its creator',
        target: { ratio: 0.5 },
      },
      () => ({ method: 'GET', path: onePath, headers: auth, expect: 200 }),
    );
    return [list, graphql, retrieve];
  },
};
