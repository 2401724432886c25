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
    const now = new Date().toISOString();
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
