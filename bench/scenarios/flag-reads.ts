import { httpRow } from './row';
import type { BenchContext, Row, Scenario } from './types';

const USER = 'id uuid distinctId firstName email isEmailVerified';
// The REST list's fields (src/rest/fragments.ts RestFeatureFlag) under their GraphQL names.
const FLAG = `id name key filters deleted active createdBy { ${USER} } createdAt isSimpleFlag rolloutPercentage
  ensureExperienceContinuity experimentSet rollbackConditions performedRollback canEdit tags usageDashboardId
  analyticsDashboards hasEnrichedAnalytics version`;
const LIST_QUERY = `query BenchFlags($projectId: ID!, $limit: Int) { featureFlags(projectId: $projectId, limit: $limit) { count results { ${FLAG} } } }`;

const LIST_FLOOR = 'node:http + pg: one statement (key check, page, count, creators) builds the JSON';
const ONE_FLOOR = 'node:http + pg: one statement (key check, the flag, its creator) builds the JSON';

type Flag = Record<string, unknown>;

/**
 * One request to each side before the load: the service must answer what the row claims (100 flags,
 * no GraphQL errors), and the floor must answer the same JSON (parsed, so PostgreSQL's whitespace
 * inside stored JSON does not count), or the ratio compares different work and the row is an error.
 */
async function probe(
  context: BenchContext,
  path: string,
  init: RequestInit,
  results: (body: Record<string, unknown>) => Flag[] | undefined,
): Promise<{ same: boolean; note: string }> {
  const floor = await context.floorServer();
  const [service, bare] = await Promise.all(
    [context.service.url, floor.url].map(async (base) => {
      const res = await fetch(`${base}${path}`, init);
      const text = await res.text();
      const body = JSON.parse(text) as Record<string, unknown>;
      return { status: res.status, body, bytes: Buffer.byteLength(text), flags: results(body) };
    }),
  );
  const single = path.match(/\/feature_flags\/\d+\//) !== null;
  if (service.status !== 200 || !service.flags || (!single && service.flags.length !== 100) || 'errors' in service.body) {
    throw new Error(`${path} answered ${service.status}: ${JSON.stringify(service.body).slice(0, 300)}`);
  }
  if (JSON.stringify(service.body) !== JSON.stringify(bare.body)) {
    context.log(
      `  the floor's ${path} answers other JSON than the service:\n    service ${JSON.stringify(service.body).slice(0, 400)}\n    floor   ${JSON.stringify(bare.body).slice(0, 400)}`,
    );
    return {
      same: false,
      note: `the floor answers other JSON than the service (${service.bytes} vs ${bare.bytes} bytes): the row is an error`,
    };
  }
  return {
    same: true,
    note: `the same JSON; body ${service.bytes} bytes, the floor's ${bare.bytes} (PostgreSQL's spacing inside stored JSON)`,
  };
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
    const listNote = await probe(context, listPath, { headers: auth }, (b) => b.results as Flag[]);
    const graphqlNote = await probe(
      context,
      '/graphql',
      { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body },
      (b) => (b.data as { featureFlags?: { results: Flag[] } })?.featureFlags?.results,
    );
    const oneNote = await probe(context, onePath, { headers: auth }, (b) => [b]);
    const list = await httpRow(
      context,
      { scenario: 'REST list, 100 flags with creators', unit: 'req/s', floor: LIST_FLOOR, target: { ratio: 0.4 } },
      () => ({ method: 'GET', path: listPath, headers: auth, expect: 200 }),
    );
    const graphql = await httpRow(
      context,
      { scenario: 'GraphQL featureFlags, 100 flags with creators', unit: 'req/s', floor: LIST_FLOOR, target: { ratio: 0.3 } },
      () => ({ method: 'POST', path: '/graphql', headers: { ...auth, 'Content-Type': 'application/json' }, body, expect: 200 }),
    );
    const retrieve = await httpRow(
      context,
      {
        scenario: 'REST retrieve one flag',
        unit: 'req/s',
        floor: ONE_FLOOR,
        target: { ratio: 0.5 },
      },
      () => ({ method: 'GET', path: onePath, headers: auth, expect: 200 }),
    );
    const compared: Array<[Row, { same: boolean; note: string }]> = [
      [list, listNote],
      [graphql, graphqlNote],
      [retrieve, oneNote],
    ];
    for (const [row, { same, note }] of compared) {
      row.notes.push(note);
      if (!same) row.verdict = 'error';
    }
    return [list, graphql, retrieve];
  },
};
