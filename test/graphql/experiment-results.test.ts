import { PostHog } from 'posthog-node';
import { funnelStatistics, sampleRatioMismatch, trendStatistics } from '../../src/modules/experiment/statistics';
import type { World } from '../helpers/factories';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { experimentKit } from '../experiment-results/helpers';

let app: TestApp;
let world: World;
let kit: ReturnType<typeof experimentKit>;

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
  kit = experimentKit(app, world);
});
afterAll(() => app.close());

const RESULTS = `query($p: ID!, $id: Int!, $i: ID, $refresh: Boolean) {
  experiment(projectId: $p, id: $id) {
    results(refresh: $refresh) { result lastRefresh isCached }
    secondaryResults(index: $i) { result lastRefresh isCached }
  }
}`;

describe('experiment results end to end with the real posthog-node', () => {
  it('reports exactly the exposures and conversions the SDK produced, with the pure statistics', async () => {
    const e = await kit.create({
      filters: { insight: 'trends', events: [{ id: 'purchase', order: 0 }] },
      secondary_metrics: [
        {
          name: 'checkout funnel',
          filters: {
            insight: 'funnels',
            events: [
              { id: 'cart', order: 0 },
              { id: 'purchase', order: 1 },
            ],
          },
        },
      ],
    });
    const flagKey = e.feature_flag_key;
    const client = new PostHog(world.project.apiToken, {
      host: app.baseUrl,
      personalApiKey: world.project.secretApiToken,
      flushAt: 100,
      flushInterval: 60_000,
      fetchRetryCount: 0,
    });
    const errors: unknown[] = [];
    client.on('error', (error) => errors.push(error));

    const begin = Date.now();
    const exposed = new Map<string, number>();
    const purchases = new Map<string, number>();
    const funnel = new Map<string, { entered: number; converted: number }>();
    for (let i = 0; i < 300; i++) {
      const distinctId = `sdk-user-${i}`;
      const variant = (await client.getFeatureFlag(flagKey, distinctId)) as string;
      expect(['control', 'test']).toContain(variant);
      exposed.set(variant, (exposed.get(variant) ?? 0) + 1);
      const properties = { [`$feature/${flagKey}`]: variant };
      if (i % 3 === 0) continue;
      // A minute ago, then 30 s ago: inside the window, which ends when the result is computed.
      client.capture({ distinctId, event: 'cart', properties, timestamp: new Date(begin - 60_000) });
      const stats = funnel.get(variant) ?? { entered: 0, converted: 0 };
      stats.entered++;
      const bought = i % 3 === 1 ? (i % 2) + 1 : 0;
      for (let b = 0; b < bought; b++)
        client.capture({ distinctId, event: 'purchase', properties, timestamp: new Date(begin - 30_000 + b) });
      if (bought > 0) stats.converted++;
      purchases.set(variant, (purchases.get(variant) ?? 0) + bought);
      funnel.set(variant, stats);
    }
    await client.shutdown();
    expect(errors).toEqual([]);

    const res = await kit.results(e.id);
    expect(res.status).toBe(200);
    const { result } = res.body;
    const control = { count: purchases.get('control')!, abs: exposed.get('control')! };
    const test = { count: purchases.get('test')!, abs: exposed.get('test')! };
    expect(result.variants).toEqual([
      { key: 'control', count: control.count, exposure: 1, absolute_exposure: control.abs },
      { key: 'test', count: test.count, exposure: test.abs / control.abs, absolute_exposure: test.abs },
    ]);
    const expected = trendStatistics([
      { key: 'control', count: control.count, exposure: 1, absoluteExposure: control.abs },
      { key: 'test', count: test.count, exposure: test.abs / control.abs, absoluteExposure: test.abs },
    ]);
    expect(result).toMatchObject(JSON.parse(JSON.stringify(expected)));
    const srm = sampleRatioMismatch([control.abs, test.abs], [50, 50]);
    expect(result).toMatchObject({ srm: srm.srm, srm_p_value: srm.srmPValue });

    const secondary = await kit.secondary(e.id, '?id=0');
    expect(secondary.status).toBe(200);
    const rate = (v: string) => Math.round((funnel.get(v)!.converted / funnel.get(v)!.entered) * 1000) / 1000;
    expect(secondary.body.result).toEqual({ control: rate('control'), test: rate('test') });
    // The funnel's own statistics on the same counts, through the primary metric.
    await kit.patch(e.id, {
      filters: {
        insight: 'funnels',
        events: [
          { id: 'cart', order: 0 },
          { id: 'purchase', order: 1 },
        ],
      },
    });
    const funnelResult = (await kit.results(e.id)).body.result;
    const counts = ['control', 'test'].map((key) => ({
      key,
      success: funnel.get(key)!.converted,
      failure: funnel.get(key)!.entered - funnel.get(key)!.converted,
    }));
    expect(funnelResult.variants).toEqual(counts.map((c) => ({ key: c.key, success_count: c.success, failure_count: c.failure })));
    expect(funnelResult).toMatchObject(JSON.parse(JSON.stringify(funnelStatistics(counts))));

    // GraphQL answers the same stored results.
    const gql = await app.graphql(RESULTS, { p: String(world.project.id), id: e.id, i: '0' }, world.owner.key);
    expect(gql.body.errors).toBeUndefined();
    const experiment = gql.body.data.experiment;
    expect(experiment.results).toEqual({ result: funnelResult, lastRefresh: expect.any(String), isCached: true });
    expect(experiment.secondaryResults).toEqual({
      result: secondary.body.result,
      lastRefresh: secondary.body.last_refresh,
      isCached: true,
    });
  });
});

describe('experiment results over GraphQL', () => {
  it('answers the same errors as REST, with GraphQL codes', async () => {
    const draft = await kit.create({ start_date: null });
    const ask = async (field: string) => {
      const res = await app.graphql(
        `query($p: ID!, $id: Int!) { experiment(projectId: $p, id: $id) { ${field} { isCached } } }`,
        { p: String(world.project.id), id: draft.id },
        world.owner.key,
      );
      expect(res.status).toBe(200);
      return res.body.errors!.map((error: any) => [error.message, error.extensions.code, error.extensions.reason]);
    };
    expect(await ask('results')).toEqual([['Experiment has not started yet', 'BAD_USER_INPUT', 'invalid']]);
    expect(await ask('secondaryResults(index: "x")')).toEqual([['Experiment has no secondary metrics', 'BAD_USER_INPUT', 'invalid']]);
  });

  it('a draft among experiments nulls only its own results, never the list (the console lists them)', async () => {
    const draft = await kit.create({ start_date: null });
    const res = await app.graphql(
      `query($p: ID!) { experiments(projectId: $p, limit: 20) { results { id results { isCached } } } }`,
      { p: String(world.project.id) },
      world.owner.key,
    );
    const listed = res.body.data!.experiments.results;
    expect(listed.find((e: any) => e.id === draft.id)).toEqual({ id: draft.id, results: null });
    expect(res.body.errors).toContainEqual(expect.objectContaining({ message: 'Experiment has not started yet' }));
  });

  it('refresh recomputes; the flag-implementation hint is a query', async () => {
    const e = await kit.create({
      filters: {
        insight: 'funnels',
        events: [
          { id: 'a', order: 0 },
          { id: 'b', order: 1 },
        ],
      },
    });
    const now = new Date(app.clock.now()).toISOString();
    await kit.send([
      kit.metric('a', e.feature_flag_key, 'g1', 'control', {}, now),
      kit.metric('a', e.feature_flag_key, 'g2', 'test', {}, now),
    ]);
    const ask = (refresh: boolean) =>
      app.graphql(
        `query($p: ID!, $id: Int!, $r: Boolean) { experiment(projectId: $p, id: $id) { results(refresh: $r) { isCached result } } }`,
        { p: String(world.project.id), id: e.id, r: refresh },
        world.owner.key,
      );
    expect((await ask(false)).body.data.experiment.results.isCached).toBe(false);
    expect((await ask(false)).body.data.experiment.results.isCached).toBe(true);
    expect((await ask(true)).body.data.experiment.results.isCached).toBe(false);
    const hint = await app.graphql(
      `query($p: ID!, $e: JSON) { experimentRequiresFlagImplementation(projectId: $p, events: $e) }`,
      { p: String(world.project.id), e: [{ id: 'a' }] },
      world.owner.key,
    );
    expect(hint.body.data.experimentRequiresFlagImplementation).toBe(false);
  });
});

describe('experiment results over GraphQL: access and refusals', () => {
  const project = () => String(world.project.id);
  const ask = (query: string, variables: Record<string, unknown>, key: string | null = world.owner.key) =>
    app.graphql(query, { p: project(), ...variables }, key);
  const errorsOf = (res: { body: { errors?: any[] } }) =>
    (res.body.errors ?? []).map((error: any) => [error.message, error.extensions.code, error.extensions.reason ?? null]);
  const RESULT = `query($p: ID!, $id: Int!) { experiment(projectId: $p, id: $id) { results { result lastRefresh isCached } } }`;
  const SECONDARY = `query($p: ID!, $id: Int!, $i: ID) { experiment(projectId: $p, id: $id) { secondaryResults(index: $i) { result isCached } } }`;

  it('needs experiment:read, also through FeatureFlag.experiments', async () => {
    const e = await kit.create({ name: 'Secret experiment', filters: { events: [{ id: 'gql-scope', order: 0 }] } });
    const k = e.feature_flag_key;
    await kit.send([kit.metric('gql-scope', k, `gs1-${k}`, 'control'), kit.metric('gql-scope', k, `gs2-${k}`, 'test')]);
    const flagsOnly = await app.factories.key(world.owner.user, { scopes: ['feature_flag:read'] });
    const missing = [["API key missing required scope 'experiment:read'", 'FORBIDDEN', 'permission_denied']];
    expect(errorsOf(await ask(RESULT, { id: e.id }, flagsOnly))).toEqual(missing);
    const throughFlag = `query($p: ID!, $id: Int!) { featureFlag(projectId: $p, id: $id) { key experiments { id name results { result } } } }`;
    const denied = await ask(throughFlag, { id: e.feature_flag.id }, flagsOnly);
    expect(errorsOf(denied)).toEqual(missing);
    expect(denied.text).not.toContain('Secret experiment');
    expect(denied.text).not.toContain('probability');
    // The flag alone stays readable with that key; with experiment:read the nested results answer.
    const flag = await ask(
      `query($p: ID!, $id: Int!) { featureFlag(projectId: $p, id: $id) { key experimentSet } }`,
      { id: e.feature_flag.id },
      flagsOnly,
    );
    expect(flag.body).toEqual({ data: { featureFlag: { key: k, experimentSet: [e.id] } } });
    const both = await app.factories.key(world.owner.user, { scopes: ['feature_flag:read', 'experiment:read'] });
    const allowed = await ask(throughFlag, { id: e.feature_flag.id }, both);
    expect(allowed.body.errors).toBeUndefined();
    expect(allowed.body.data.featureFlag.experiments[0].results.result.variants.map((v: any) => v.count)).toEqual([1, 1]);
  });

  it('404 for a missing or foreign experiment, 401 without a key', async () => {
    const e = await kit.create();
    expect(errorsOf(await ask(RESULT, { id: 999_999 }))).toEqual([['Not found.', 'NOT_FOUND', 'not_found']]);
    const stranger = await app.factories.world();
    const foreign = await app.graphql(RESULT, { p: String(stranger.project.id), id: e.id }, stranger.owner.key);
    expect(errorsOf(foreign)).toEqual([['Not found.', 'NOT_FOUND', 'not_found']]);
    const anonymous = await ask(RESULT, { id: e.id }, null);
    expect(anonymous.body.errors![0].extensions.code).toBe('UNAUTHENTICATED');
    expect(anonymous.body.data ?? null).toBeNull();
  });

  it('no target metric and no data are BAD_USER_INPUT with the REST detail and code', async () => {
    const e = await kit.create({
      filters: {
        insight: 'funnels',
        events: [
          { id: 'gql-none-a', order: 0 },
          { id: 'gql-none-b', order: 1 },
        ],
      },
    });
    const noData = '{"no-events": true, "no-flag-info": true, "no-control-variant": true, "no-test-variant": true}';
    expect(errorsOf(await ask(RESULT, { id: e.id }))).toEqual([[noData, 'BAD_USER_INPUT', 'no-results']]);
    await kit.send([kit.metric('gql-none-a', e.feature_flag_key, `gn-${e.id}`, 'test')]);
    const onlyTest = '{"no-events": false, "no-flag-info": false, "no-control-variant": true, "no-test-variant": false}';
    expect(errorsOf(await ask(RESULT, { id: e.id }))).toEqual([[onlyTest, 'BAD_USER_INPUT', 'no-results']]);
    expect((await kit.patch(e.id, { filters: {} })).status).toBe(200);
    expect(errorsOf(await ask(RESULT, { id: e.id }))).toEqual([['Experiment has no target metric', 'BAD_USER_INPUT', 'invalid']]);
  });

  it('reads a trend result: the REST body, camelCase envelope', async () => {
    const e = await kit.create({ filters: { events: [{ id: 'gql-trend', order: 0 }] } });
    const k = e.feature_flag_key;
    await kit.send([
      kit.exposure(k, `gt1-${k}`, 'control'),
      kit.exposure(k, `gt2-${k}`, 'test'),
      ...Array.from({ length: 3 }, () => kit.metric('gql-trend', k, `gt1-${k}`, 'control')),
      kit.metric('gql-trend', k, `gt2-${k}`, 'test'),
    ]);
    const res = await ask(RESULT, { id: e.id });
    expect(res.body.errors).toBeUndefined();
    const { results } = res.body.data.experiment;
    expect(results.isCached).toBe(false);
    expect(results.result.variants).toEqual([
      { key: 'control', count: 3, exposure: 1, absolute_exposure: 1 },
      { key: 'test', count: 1, exposure: 1, absolute_exposure: 1 },
    ]);
    expect(results.result.insight.map((series: any) => series.breakdown_value)).toEqual(['control', 'test']);
    const rest = await kit.results(e.id);
    expect(rest.body).toEqual({ result: results.result, last_refresh: results.lastRefresh, is_cached: true });
  });

  it('secondaryResults checks its index: missing, not an integer, out of range', async () => {
    const e = await kit.create({
      secondary_metrics: [
        { name: 'a', filters: { events: [{ id: 'gql-sec', order: 0 }] } },
        { name: 'b', filters: { insight: 'funnels', events: [{ id: 'gql-sec', order: 0 }] } },
      ],
    });
    const invalid = (message: string) => [[message, 'BAD_USER_INPUT', 'invalid']];
    expect(errorsOf(await ask(SECONDARY, { id: e.id }))).toEqual(invalid('Secondary metric id is required'));
    expect(errorsOf(await ask(SECONDARY, { id: e.id, i: '1.5' }))).toEqual(invalid('Secondary metric id must be an integer'));
    expect(errorsOf(await ask(SECONDARY, { id: e.id, i: '2' }))).toEqual(invalid('Invalid metric ID'));
    expect(errorsOf(await ask(SECONDARY, { id: e.id, i: '-1' }))).toEqual(invalid('Invalid metric ID'));
    await kit.send([kit.metric('gql-sec', e.feature_flag_key, `gs-${e.id}`, 'control')]);
    const ok = await ask(SECONDARY, { id: e.id, i: '1' });
    expect(ok.body).toEqual({ data: { experiment: { secondaryResults: { result: { control: 1 }, isCached: false } } } });
  });
});
