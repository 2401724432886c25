import { matchProperty } from '../../src/evaluation/property-match';
import { funnelStatistics, sampleRatioMismatch, trendStatistics } from '../../src/modules/experiment/statistics';
import type { World } from '../helpers/factories';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { experimentKit, expectInvalid, F } from '../experiment-results/helpers';

let app: TestApp;
let world: World;
let kit: ReturnType<typeof experimentKit>;

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
  kit = experimentKit(app, world);
});
afterAll(() => app.close());

const NO_DATA = (events: boolean, control: boolean, test: boolean) =>
  `{"no-events": ${events}, "no-flag-info": ${control && test}, "no-control-variant": ${control}, "no-test-variant": ${test}}`;

/** Funnel data: control 2 → 2, test 3 → 1. */
async function funnelData(flagKey: string) {
  const steps = (id: string, variant: string, converts: boolean) => [
    kit.metric('$pageview', flagKey, id, variant, {}, '2024-01-02T10:00:00Z'),
    ...(converts ? [kit.metric('$pageleave', flagKey, id, variant, {}, '2024-01-02T10:05:00Z')] : []),
  ];
  await kit.send([
    ...steps(`c1-${flagKey}`, 'control', true),
    ...steps(`c2-${flagKey}`, 'control', true),
    ...steps(`t1-${flagKey}`, 'test', true),
    ...steps(`t2-${flagKey}`, 'test', false),
    ...steps(`t3-${flagKey}`, 'test', false),
  ]);
}

describe('refusals', () => {
  it('answers 400 without a target metric, and on a draft', async () => {
    const draft = await kit.create({ start_date: null });
    expectInvalid(await kit.results(draft.id), 'Experiment has not started yet');
    expect((await kit.patch(draft.id, { filters: {} })).status).toBe(200);
    expectInvalid(await kit.results(draft.id), 'Experiment has no target metric');
  });

  it('refuses actions, other insights, unknown maths and property types, in that order', async () => {
    const e = await kit.create();
    await kit.patch(e.id, { filters: { actions: [{ id: 1 }] } });
    expectInvalid(await kit.results(e.id), 'Experiment metrics can only use events');
    await kit.patch(e.id, { filters: { ...F, insight: 'PATHS' } });
    expectInvalid(await kit.results(e.id), 'Experiment metric must be a funnel or trend insight');
    await kit.patch(e.id, { filters: { events: [{ id: '$pageview', math: 'weekly_active' }] } });
    expectInvalid(await kit.results(e.id), 'Unsupported math: weekly_active');
    await kit.patch(e.id, {
      filters: { insight: 'funnels', events: [{ id: '$pageview', properties: [{ key: 'x', value: 1, type: 'cohort' }] }] },
    });
    expectInvalid(await kit.results(e.id), 'Experiment metric property filters must be of type event or person');
  });

  it('a funnel with no events: every key true; only control data: no test variant', async () => {
    // A project of its own: any $pageview in the project counts as an event, whatever its flag property.
    const own = experimentKit(app, await app.factories.world());
    const e = await own.create({ filters: { ...F, insight: 'funnels' } });
    const results = () => app.request(`${own.base}/experiments/${e.id}/results/`, { key: own.key });
    expectInvalid(await results(), NO_DATA(true, true, true), 'no-results');
    const k = e.feature_flag_key;
    // A step-2 event alone is no entry: still no events.
    await own.send([own.metric('$pageleave', k, 'leave', 'control')]);
    expectInvalid(await results(), NO_DATA(true, true, true), 'no-results');
    await own.send([own.metric('$pageview', k, 'view', 'control')]);
    const onlyControl = await results();
    expectInvalid(onlyControl, NO_DATA(false, false, true), 'no-results');
    expect(JSON.parse(onlyControl.body.detail)).toEqual({
      'no-events': false,
      'no-flag-info': false,
      'no-control-variant': false,
      'no-test-variant': true,
    });
  });

  it('no events: every key true; only control: no test variant', async () => {
    const e = await kit.create();
    const none = await kit.results(e.id);
    expectInvalid(none, NO_DATA(true, true, true), 'no-results');
    await kit.send([kit.metric('$pageview', e.feature_flag_key, `only-${e.id}`, 'control')]);
    expectInvalid(await kit.results(e.id), NO_DATA(false, false, true), 'no-results');
  });
});

const FUNNEL = { ...F, insight: 'funnels' };

describe('funnel results', () => {
  it('counts ordered conversions per variant with their statistics', async () => {
    const e = await kit.create({ filters: FUNNEL });
    await funnelData(e.feature_flag_key);
    const res = await kit.results(e.id);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['result', 'last_refresh', 'is_cached']);
    const { result } = res.body;
    expect(result.insight.map((steps: any[]) => steps.map((s) => s.count))).toEqual([
      [2, 2],
      [3, 1],
    ]);
    expect(result.insight[1][0]).toEqual({
      action_id: '$pageview',
      name: '$pageview',
      custom_name: null,
      order: 0,
      type: 'events',
      count: 3,
      breakdown_value: ['test'],
    });
    expect(result.probability.test).toBeCloseTo(0.114286, 6);
    expect(result).toMatchObject({
      significance_code: 'not_enough_exposure',
      expected_loss: 1,
      significant: false,
      srm: false,
      srm_p_value: 1,
    });
    expect(result.variants).toEqual([
      { key: 'control', success_count: 2, failure_count: 0 },
      { key: 'test', success_count: 1, failure_count: 2 },
    ]);
    expect(result.frequentist.test.p_value).toBeCloseTo(0.136037, 6);
    expect(result.filters).toMatchObject({
      insight: 'FUNNELS',
      date_from: '2024-01-01T00:00:00Z',
      explicit_date: true,
      breakdown: `$feature/${e.feature_flag_key}`,
      breakdown_type: 'event',
      properties: [],
    });
    const expected = funnelStatistics([
      { key: 'control', success: 2, failure: 0 },
      { key: 'test', success: 1, failure: 2 },
    ]);
    expect(result).toMatchObject(JSON.parse(JSON.stringify(expected)));
    expect(Object.keys(result)).toEqual([
      'insight',
      'filters',
      'probability',
      'significant',
      'significance_code',
      'expected_loss',
      'variants',
      'credible_intervals',
      'srm',
      'srm_p_value',
      'frequentist',
    ]);
  });

  it('serves the stored result until refreshed or a relevant event arrives', async () => {
    const e = await kit.create({ filters: FUNNEL });
    await funnelData(e.feature_flag_key);
    const first = await kit.results(e.id);
    expect(first.body.is_cached).toBe(false);
    const again = await kit.results(e.id);
    expect(again.body).toEqual({ ...first.body, is_cached: true });
    expect(JSON.stringify(again.body.result)).toBe(JSON.stringify(first.body.result));
    app.clock.advance(60_000);
    const refreshed = await kit.results(e.id, '?refresh=true');
    expect(refreshed.body.is_cached).toBe(false);
    expect(refreshed.body.last_refresh).not.toBe(first.body.last_refresh);
    expect((await kit.results(e.id, '?refresh=0')).body.is_cached).toBe(true);
    expect((await kit.results(e.id, '?refresh')).body.is_cached).toBe(false);
    await kit.send([{ event: 'unrelated', distinct_id: `u-${e.id}` }]);
    expect((await kit.results(e.id)).body.is_cached).toBe(true);
    await kit.send([kit.metric('$pageview', e.feature_flag_key, `late-${e.id}`, 'test')]);
    const after = await kit.results(e.id);
    expect(after.body.is_cached).toBe(false);
    expect(after.body.result.insight[1][0].count).toBe(4);
  });

  it('honours the conversion window, step order and first-touch attribution', async () => {
    const e = await kit.create({ filters: { ...F, insight: 'funnels', funnel_window_interval: 1, funnel_window_interval_unit: 'hour' } });
    const k = e.feature_flag_key;
    await kit.send([
      // converts within the hour
      kit.metric('$pageview', k, `a-${k}`, 'control', {}, '2024-01-02T10:00:00Z'),
      kit.metric('$pageleave', k, `a-${k}`, 'control', {}, '2024-01-02T10:30:00Z'),
      // too late
      kit.metric('$pageview', k, `b-${k}`, 'control', {}, '2024-01-02T10:00:00Z'),
      kit.metric('$pageleave', k, `b-${k}`, 'control', {}, '2024-01-02T12:00:00Z'),
      // wrong order: leave before view
      kit.metric('$pageleave', k, `c-${k}`, 'test', {}, '2024-01-02T09:00:00Z'),
      kit.metric('$pageview', k, `c-${k}`, 'test', {}, '2024-01-02T10:00:00Z'),
      // a second, later entry converts; first touch says test although the later events say control
      kit.metric('$pageview', k, `d-${k}`, 'test', {}, '2024-01-02T08:00:00Z'),
      kit.metric('$pageview', k, `d-${k}`, 'control', {}, '2024-01-02T11:00:00Z'),
      kit.metric('$pageleave', k, `d-${k}`, 'control', {}, '2024-01-02T11:10:00Z'),
      // before the experiment started: ignored
      kit.metric('$pageview', k, `e-${k}`, 'test', {}, '2023-12-31T10:00:00Z'),
    ]);
    const { result } = (await kit.results(e.id)).body;
    expect(result.variants).toEqual([
      { key: 'control', success_count: 1, failure_count: 1 },
      { key: 'test', success_count: 1, failure_count: 1 },
    ]);
  });
});

describe('trend results', () => {
  it('counts per variant against exposures', async () => {
    const e = await kit.create({ filters: { events: [{ id: 'purchase', order: 0 }] } });
    const k = e.feature_flag_key;
    await kit.send([
      kit.exposure(k, `x1-${k}`, 'control'),
      kit.exposure(k, `x2-${k}`, 'control'),
      kit.exposure(k, `x2-${k}`, 'control'),
      kit.exposure(k, `x3-${k}`, 'test'),
      ...Array.from({ length: 4 }, () => kit.metric('purchase', k, `x1-${k}`, 'control')),
      ...Array.from({ length: 5 }, () => kit.metric('purchase', k, `x3-${k}`, 'test')),
    ]);
    const res = await kit.results(e.id);
    expect(res.status).toBe(200);
    const { result } = res.body;
    expect(result.probability.test).toBeCloseTo(0.923436, 5);
    expect(result).toMatchObject({ p_value: 1, significance_code: 'not_enough_exposure', significant: false });
    expect(result.variants).toEqual([
      { key: 'control', count: 4, exposure: 1, absolute_exposure: 2 },
      { key: 'test', count: 5, exposure: 0.5, absolute_exposure: 1 },
    ]);
    expect(result.insight[0]).toMatchObject({ breakdown_value: 'control', count: 4, action: { id: 'purchase', math: null } });
    expect(result.insight[0].days[0]).toBe('2024-01-01');
    expect(result.insight[0].labels[0]).toBe('1-Jan-2024');
    expect(result.insight[0].data.slice(0, 3)).toEqual([0, 4, 4]);
    expect(Object.keys(result)).toEqual([
      'insight',
      'filters',
      'probability',
      'significant',
      'significance_code',
      'p_value',
      'variants',
      'credible_intervals',
      'srm',
      'srm_p_value',
    ]);
    const expected = trendStatistics([
      { key: 'control', count: 4, exposure: 1, absoluteExposure: 2 },
      { key: 'test', count: 5, exposure: 0.5, absoluteExposure: 1 },
    ]);
    expect(result).toMatchObject(JSON.parse(JSON.stringify(expected)));
  });

  it('three variants: 4/3/2 events, exposed 2/2/1', async () => {
    const variants = [
      { key: 'control', name: 'Control', rollout_percentage: 34 },
      { key: 'test_1', name: 'T1', rollout_percentage: 33 },
      { key: 'test_2', name: 'T2', rollout_percentage: 33 },
    ];
    const e = await kit.create({ filters: { events: [{ id: 'purchase', order: 0 }] }, parameters: { feature_flag_variants: variants } });
    const k = e.feature_flag_key;
    const exposed = { control: 2, test_1: 2, test_2: 1 };
    const counts = { control: 4, test_1: 3, test_2: 2 };
    await kit.send(
      Object.entries(exposed).flatMap(([variant, n]) => [
        ...Array.from({ length: n }, (_, i) => kit.exposure(k, `${variant}-${i}-${k}`, variant)),
        ...Array.from({ length: counts[variant as keyof typeof counts] }, () => kit.metric('purchase', k, `${variant}-0-${k}`, variant)),
      ]),
    );
    const { result } = (await kit.results(e.id)).body;
    expect(result.probability.control).toBeCloseTo(0.33413, 3);
    expect(result.probability.test_1).toBeCloseTo(0.17824, 3);
    expect(result.probability.test_2).toBeCloseTo(0.48762, 3);
  });

  it('flags a sample-ratio mismatch: 1000 control / 1200 test exposed at 50/50', async () => {
    const e = await kit.create({ filters: { events: [{ id: 'purchase', order: 0 }] } });
    const k = e.feature_flag_key;
    await kit.send([
      ...Array.from({ length: 1000 }, (_, i) => kit.exposure(k, `s-c-${i}-${k}`, 'control')),
      ...Array.from({ length: 1200 }, (_, i) => kit.exposure(k, `s-t-${i}-${k}`, 'test')),
      kit.metric('purchase', k, `s-c-0-${k}`, 'control'),
      kit.metric('purchase', k, `s-t-0-${k}`, 'test'),
    ]);
    const { result } = (await kit.results(e.id)).body;
    expect(result.srm).toBe(true);
    expect(result.srm_p_value / 0.0000200787).toBeCloseTo(1, 4);
    expect(result.srm_p_value).toBe(sampleRatioMismatch([1000, 1200], [50, 50]).srmPValue);
  });

  it('supports dau, sum and per-actor maths, a custom exposure and property filters', async () => {
    const e = await kit.create({
      filters: {
        events: [{ id: 'buy', order: 0, math: 'sum', math_property: 'amount', properties: [{ key: 'plan', value: 'pro', type: 'event' }] }],
      },
      parameters: { custom_exposure_filter: { events: [{ id: 'seen', order: 0, math: 'dau' }] } },
    });
    const k = e.feature_flag_key;
    await kit.send([
      kit.metric('seen', k, `m1-${k}`, 'control'),
      kit.metric('seen', k, `m1-${k}`, 'control'),
      kit.metric('seen', k, `m2-${k}`, 'test'),
      kit.metric('buy', k, `m1-${k}`, 'control', { amount: 2.7, plan: 'pro' }),
      kit.metric('buy', k, `m1-${k}`, 'control', { amount: '3', plan: 'PRO' }),
      kit.metric('buy', k, `m1-${k}`, 'control', { amount: 100, plan: 'free' }),
      kit.metric('buy', k, `m2-${k}`, 'test', { amount: 'n/a', plan: 'pro' }),
      kit.metric('buy', k, `m2-${k}`, 'test', { amount: 4, plan: 'pro' }),
    ]);
    const { result } = (await kit.results(e.id)).body;
    expect(result.variants).toEqual([
      { key: 'control', count: 5, exposure: 1, absolute_exposure: 1 },
      { key: 'test', count: 4, exposure: 1, absolute_exposure: 1 },
    ]);
    await kit.patch(e.id, { filters: { events: [{ id: 'buy', order: 0, math: 'avg_count_per_actor' }] } });
    const perActor = (await kit.results(e.id)).body.result;
    expect(perActor.variants).toEqual([
      { key: 'control', count: 3, exposure: 1, absolute_exposure: 1 },
      { key: 'test', count: 2, exposure: 1, absolute_exposure: 1 },
    ]);
    await kit.patch(e.id, {
      filters: { events: [{ id: 'buy', order: 0, math: 'dau', properties: [{ key: 'amount', value: 3, operator: 'gte' }] }] },
    });
    const dau = (await kit.results(e.id)).body.result;
    expect(dau.variants.map((v: any) => v.count)).toEqual([1, 1]);
  });
});

describe('actors', () => {
  it('filters on the current person properties', async () => {
    const e = await kit.create({
      filters: { events: [{ id: 'buy', order: 0, properties: [{ key: 'plan', value: 'pro', type: 'person' }] }] },
    });
    const k = e.feature_flag_key;
    await kit.send([
      { event: 'signed up', distinct_id: `pp1-${k}`, properties: { $set: { plan: 'free' } } },
      { event: 'signed up', distinct_id: `pp2-${k}`, properties: { $set: { plan: 'free' } } },
      { event: 'signed up', distinct_id: `pp3-${k}`, properties: { $set: { plan: 'pro' } } },
      // pp1 upgrades later: person filters read the properties as they are now
      { event: 'upgraded', distinct_id: `pp1-${k}`, properties: { $set: { plan: 'pro' } } },
      kit.metric('buy', k, `pp1-${k}`, 'control'),
      kit.metric('buy', k, `pp1-${k}`, 'control'),
      ...[1, 2, 3].map(() => kit.metric('buy', k, `pp2-${k}`, 'test')),
      kit.metric('buy', k, `pp3-${k}`, 'test'),
    ]);
    const { result } = (await kit.results(e.id)).body;
    expect(result.variants.map((v: any) => [v.key, v.count])).toEqual([
      ['control', 2],
      ['test', 1],
    ]);
  });

  it('follows person merges: an anonymous entry and an identified conversion are one actor, and the merge refreshes', async () => {
    const e = await kit.create({ filters: FUNNEL });
    const k = e.feature_flag_key;
    await kit.send([
      kit.metric('$pageview', k, `anon-${k}`, 'test', {}, '2024-01-02T10:00:00Z'),
      kit.metric('$pageleave', k, `user-${k}`, 'test', {}, '2024-01-02T10:05:00Z'),
      kit.metric('$pageview', k, `c-${k}`, 'control', {}, '2024-01-02T10:00:00Z'),
    ]);
    const before = (await kit.results(e.id)).body;
    expect(before.result.variants[1]).toEqual({ key: 'test', success_count: 0, failure_count: 1 });
    await kit.send([
      { event: '$identify', distinct_id: `user-${k}`, properties: { $anon_distinct_id: `anon-${k}` }, timestamp: '2024-01-02T10:06:00Z' },
    ]);
    const after = (await kit.results(e.id)).body;
    expect(after.is_cached).toBe(false);
    expect(after.result.variants[1]).toEqual({ key: 'test', success_count: 1, failure_count: 0 });
  });

  it('counts groups instead of persons with aggregation_group_type_index', async () => {
    const other = await app.factories.world();
    const groups = experimentKit(app, other);
    const e = await groups.create({
      filters: {
        insight: 'funnels',
        aggregation_group_type_index: 0,
        events: [
          { id: 'open', order: 0 },
          { id: 'pay', order: 1 },
        ],
      },
    });
    const k = e.feature_flag_key;
    const step = (event: string, id: string, variant: string, company: string | null, at: string) =>
      groups.metric(event, k, id, variant, company ? { $groups: { company } } : {}, at);
    await groups.send([
      step('open', 'u1', 'control', 'c1', '2024-01-02T10:00:00Z'),
      step('open', 'u2', 'control', 'c1', '2024-01-02T10:01:00Z'),
      step('pay', 'u2', 'control', 'c1', '2024-01-02T10:02:00Z'),
      step('open', 'u3', 'test', 'c2', '2024-01-02T10:00:00Z'),
      step('open', 'u4', 'test', null, '2024-01-02T10:00:00Z'),
      step('pay', 'u4', 'test', null, '2024-01-02T10:01:00Z'),
    ]);
    const res = await app.request(`${groups.base}/experiments/${e.id}/results/`, { key: other.owner.key });
    expect(res.status).toBe(200);
    expect(res.body.result.variants).toEqual([
      { key: 'control', success_count: 1, failure_count: 0 },
      { key: 'test', success_count: 0, failure_count: 1 },
    ]);
  });
});

describe('secondary results', () => {
  it('checks the id, then counts each variant', async () => {
    const none = await kit.create();
    expectInvalid(await kit.secondary(none.id, '?id=0'), 'Experiment has no secondary metrics');
    const e = await kit.create({
      secondary_metrics: [
        { name: 'purchases', filters: { insight: 'trends', events: [{ id: 'purchase', order: 0 }] } },
        {
          name: 'funnel',
          filters: {
            insight: 'funnels',
            events: [
              { id: 'step-a', order: 0 },
              { id: 'step-b', order: 1 },
            ],
          },
        },
      ],
    });
    expectInvalid(await kit.secondary(e.id), 'Secondary metric id is required');
    expectInvalid(await kit.secondary(e.id, '?id=abc'), 'Secondary metric id must be an integer');
    expectInvalid(await kit.secondary(e.id, '?id=2'), 'Invalid metric ID');
    expectInvalid(await kit.secondary(e.id, '?id=-1'), 'Invalid metric ID');
    const k = e.feature_flag_key;
    await kit.send([
      ...Array.from({ length: 3 }, () => kit.metric('purchase', k, `p-${k}`, 'control')),
      kit.metric('purchase', k, `q-${k}`, 'test'),
      kit.metric('step-a', k, `f1-${k}`, 'control', {}, '2024-01-02T10:00:00Z'),
      kit.metric('step-b', k, `f1-${k}`, 'control', {}, '2024-01-02T10:01:00Z'),
      ...[1, 2, 3].map((i) => kit.metric('step-a', k, `g${i}-${k}`, 'test', {}, '2024-01-02T10:00:00Z')),
      kit.metric('step-b', k, `g1-${k}`, 'test', {}, '2024-01-02T10:01:00Z'),
    ]);
    const trend = await kit.secondary(e.id, '?id=0');
    expect(trend.status).toBe(200);
    expect(trend.body).toEqual({ result: { control: 3, test: 1 }, last_refresh: expect.any(String), is_cached: false });
    expect((await kit.secondary(e.id, '?id=0')).body.is_cached).toBe(true);
    expect((await kit.secondary(e.id, '?id=1')).body.result).toEqual({ control: 1, test: 0.333 });
    // Per-actor and property maths are applied once over the window.
    await kit.patch(e.id, {
      secondary_metrics: [
        { name: 'per actor', filters: { events: [{ id: 'purchase', order: 0, math: 'max_count_per_actor' }] } },
        { name: 'median step', filters: { events: [{ id: 'step-a', order: 0, math: 'median', math_property: 'rank' }] } },
      ],
    });
    await kit.send([1, 2, 3, 10].map((rank, i) => kit.metric('step-a', k, `r${i}-${k}`, i < 3 ? 'control' : 'test', { rank })));
    expect((await kit.secondary(e.id, '?id=0')).body.result).toEqual({ control: 3, test: 1 });
    expect((await kit.secondary(e.id, '?id=1')).body.result).toEqual({ control: 2, test: 10 });
    await kit.patch(e.id, { secondary_metrics: [{ name: 'paths', filters: { insight: 'PATHS' } }] });
    expectInvalid(await kit.secondary(e.id, '?id=0'), 'Secondary metrics need to be funnel or trend insights');
  });
});

describe('requires_flag_implementation', () => {
  it('is true until a named event carries a $feature/ property', async () => {
    const other = await app.factories.world();
    const otherKit = experimentKit(app, other);
    const query = `?events=${encodeURIComponent('[{"id":"user signed up","type":"events","order":0}]')}&insight=FUNNELS`;
    const ask = () => app.request(`${otherKit.base}/experiments/requires_flag_implementation${query}`, { key: other.owner.key });
    expect((await ask()).body).toEqual({ result: true });
    // "Recently" is counted back from the app's clock.
    const now = new Date(app.clock.now()).toISOString();
    await otherKit.send([{ event: 'user signed up', distinct_id: 'u1', timestamp: now }]);
    expect((await ask()).body).toEqual({ result: true });
    await otherKit.send([{ event: 'user signed up', distinct_id: 'u1', properties: { '$feature/x': 'test' }, timestamp: now }]);
    expect((await ask()).body).toEqual({ result: false });
    const bad = await app.request(`${otherKit.base}/experiments/requires_flag_implementation?events=%7Bnot-json`, { key: other.owner.key });
    expect(bad.body).toEqual({ result: true });
  });
});

describe('access and never a 500', () => {
  it('404 for a foreign project, 401 without credentials', async () => {
    const e = await kit.create();
    const stranger = await app.factories.world();
    const foreign = await app.request(`/api/projects/${stranger.project.id}/experiments/${e.id}/results/`, { key: stranger.owner.key });
    expect(foreign.status).toBe(404);
    expect((await kit.results(e.id, '', null)).status).toBe(401);
    expect((await app.request(`${kit.base}/experiments/999999/results/`, { key: world.owner.key })).status).toBe(404);
    expect((await app.request(`${kit.base}/experiments/abc/secondary_results/?id=0`, { key: world.owner.key })).status).toBe(404);
  });

  it.each([
    ['events not a list', { events: 'nope' }],
    ['odd entries', { events: [null, 5, { id: 7 }, { id: '$pageview', order: 'x', properties: 'y' }] }],
    [
      'odd properties',
      {
        insight: 'funnels',
        events: [{ id: '$pageview', properties: [null, { key: { a: 1 }, value: [1, true], operator: 'exact' }] }, { id: '$pageleave' }],
      },
    ],
    ['semver', { events: [{ id: '$pageview', properties: [{ key: 'a', value: '1.0.0', operator: 'semver_gt' }] }] }],
    [
      'person filters and groups',
      {
        aggregation_group_type_index: 0,
        events: [{ id: '$pageview', properties: [{ key: 'plan', value: ['a'], type: 'person', operator: 'is_not' }] }],
      },
    ],
    [
      'odd window',
      {
        insight: 'FUNNELS',
        funnel_window_interval: -3,
        funnel_window_interval_unit: 'year',
        funnel_window_days: 'x',
        events: [{ id: '$pageview' }, { id: '$pageleave' }],
      },
    ],
    ['insight not a string', { insight: 5, events: [{ id: '$pageview' }] }],
    ['sum without property', { events: [{ id: '$pageview', math: 'sum' }] }],
  ])('%s → 200 or a 400', async (_name, filters) => {
    const e = await kit.create();
    await kit.send([
      kit.metric('$pageview', e.feature_flag_key, `o-${e.id}`, 'control'),
      kit.metric('$pageview', e.feature_flag_key, `p-${e.id}`, 'test'),
    ]);
    const patched = await kit.patch(e.id, { filters });
    expect(patched.status).toBe(200);
    const res = await kit.results(e.id);
    if (![200, 400].includes(res.status)) throw new Error(res.text);
  });

  it('refuses a metric regex the evaluator cannot use, and leaves the experiment as it was', async () => {
    const e = await kit.create();
    const before = await app.request(`/api/projects/${world.project.id}/experiments/${e.id}/`, { key: world.owner.key });
    for (const value of ['(', 'a(?=b)']) {
      const patched = await kit.patch(e.id, {
        filters: { events: [{ id: '$pageview', properties: [{ key: 'a', value, operator: 'regex' }] }] },
      });
      expect(patched.status).toBe(400);
      expect(patched.body).toMatchObject({ attr: 'filters', detail: expect.stringContaining('events[0].properties[0].value') });
    }
    const after = await app.request(`/api/projects/${world.project.id}/experiments/${e.id}/`, { key: world.owner.key });
    expect(after.body).toEqual(before.body);
  });

  it('keeps answering after the flag is deleted, and for a complete experiment', async () => {
    const e = await kit.create({ end_date: '2024-02-01T00:00', filters: FUNNEL });
    await funnelData(e.feature_flag_key);
    expect(
      (
        await app.request(`${kit.base}/feature_flags/${e.feature_flag.id}/`, {
          method: 'PATCH',
          key: world.owner.key,
          body: { deleted: true },
        })
      ).status,
    ).toBe(200);
    const res = await kit.results(e.id);
    expect(res.status).toBe(200);
    expect(res.body.result.filters.date_to).toBe('2024-02-01T00:00:00Z');
  });
});

describe('scopes', () => {
  it('a key with only feature_flag:read gets 403 for results, secondary results and the hint', async () => {
    const e = await kit.create({
      filters: { events: [{ id: 'scoped-metric', order: 0 }] },
      secondary_metrics: [{ name: 'm', filters: { events: [{ id: 'purchase', order: 0 }] } }],
    });
    const flagsOnly = await app.factories.key(world.owner.user, { scopes: ['feature_flag:read'] });
    const denied = (res: { status: number; body: any }) => {
      expect(res.status).toBe(403);
      expect(res.body.detail).toBe("API key missing required scope 'experiment:read'");
    };
    denied(await kit.results(e.id, '', flagsOnly));
    denied(await app.request(`${kit.base}/experiments/${e.id}/secondary_results/?id=0`, { key: flagsOnly }));
    denied(await app.request(`${kit.base}/experiments/requires_flag_implementation?events=[]`, { key: flagsOnly }));
    // The flag itself stays readable with that key.
    expect((await app.request(`${kit.base}/feature_flags/${e.feature_flag.id}/`, { key: flagsOnly })).status).toBe(200);
    const reader = await app.factories.key(world.owner.user, { scopes: ['experiment:read'] });
    expectInvalid(await kit.results(e.id, '', reader), NO_DATA(true, true, true), 'no-results');
  });
});

/** An experiment whose secondary metrics are the funnels or filters under test (no-data is no error there). */
async function secondaryKit(metrics: Array<Record<string, unknown>>) {
  const e = await kit.create({ secondary_metrics: metrics.map((filters, i) => ({ name: `m${i}`, filters })) });
  const read = async (index: number) => {
    const res = await kit.secondary(e.id, `?id=${index}&refresh=1`);
    if (res.status !== 200) throw new Error(`secondary ${index}: ${res.status} ${res.text}`);
    return res.body.result as Record<string, number>;
  };
  return { e, k: e.feature_flag_key, read };
}

describe('funnel semantics', () => {
  it('first touch reads only step events that satisfy their step filters', async () => {
    const steps = [
      { id: '$pageview', order: 0, properties: [{ key: 'url', value: '/a', type: 'event' }] },
      { id: '$pageleave', order: 1 },
    ];
    const e = await kit.create({ filters: { insight: 'funnels', events: steps } });
    const k = e.feature_flag_key;
    await kit.send([
      // A $pageview of another page first, flagged test: not a step event, so not the first touch.
      kit.metric('$pageview', k, `ft1-${k}`, 'test', { url: '/b' }, '2024-01-02T10:00:00Z'),
      kit.metric('$pageview', k, `ft1-${k}`, 'control', { url: '/a' }, '2024-01-02T10:01:00Z'),
      kit.metric('$pageleave', k, `ft1-${k}`, 'control', {}, '2024-01-02T10:02:00Z'),
      kit.metric('$pageview', k, `ft2-${k}`, 'test', { url: '/a' }, '2024-01-02T10:00:00Z'),
    ]);
    const res = await kit.results(e.id);
    expect(res.status).toBe(200);
    expect(res.body.result.variants).toEqual([
      { key: 'control', success_count: 1, failure_count: 0 },
      { key: 'test', success_count: 0, failure_count: 1 },
    ]);
  });

  it('one event serves one step, whatever the order of events at the same time', async () => {
    const A = { id: 'fa', order: 0 };
    const B = { id: 'fb', order: 1 };
    const { k, read } = await secondaryKit([
      { insight: 'funnels', events: [A, B, { ...A, order: 2 }] },
      { insight: 'funnels', events: [A, B] },
    ]);
    const at = '2024-01-02T10:00:00Z';
    await kit.send([
      // A and B at one time: steps 1 and 2, but no third event for step 3.
      kit.metric('fa', k, `t1-${k}`, 'control', {}, at),
      kit.metric('fb', k, `t1-${k}`, 'control', {}, at),
      // Two A events and a B at one time: all three steps.
      kit.metric('fa', k, `t2-${k}`, 'test', {}, at),
      kit.metric('fb', k, `t2-${k}`, 'test', {}, at),
      kit.metric('fa', k, `t2-${k}`, 'test', {}, at),
      // B stored before A at the same time still converts A → B.
      kit.metric('fb', k, `t3-${k}`, 'control', {}, at),
      kit.metric('fa', k, `t3-${k}`, 'control', {}, at),
    ]);
    expect(await read(0)).toEqual({ control: 0, test: 1 });
    expect(await read(1)).toEqual({ control: 1, test: 1 });
  });

  it('repeated steps with their own filters are matched one to one', async () => {
    const view = (page: string, order: number) => ({ id: 'rv', order, properties: [{ key: 'page', value: page, type: 'event' }] });
    const { k, read } = await secondaryKit([{ insight: 'funnels', events: [view('a', 0), view('b', 1), view('a', 2)] }]);
    const at = '2024-01-02T10:00:00Z';
    await kit.send([
      kit.metric('rv', k, `r1-${k}`, 'control', { page: 'a' }, at),
      kit.metric('rv', k, `r1-${k}`, 'control', { page: 'b' }, at),
      kit.metric('rv', k, `r2-${k}`, 'test', { page: 'a' }, at),
      kit.metric('rv', k, `r2-${k}`, 'test', { page: 'b' }, at),
      kit.metric('rv', k, `r2-${k}`, 'test', { page: 'a' }, '2024-01-02T10:00:01Z'),
    ]);
    expect(await read(0)).toEqual({ control: 0, test: 1 });
  });
});

describe('person filters', () => {
  it('read the person the event is attributed to, also for an event stored without one', async () => {
    const e = await kit.create({
      filters: { events: [{ id: 'paid', order: 0, properties: [{ key: 'plan', value: 'pro', type: 'person' }] }] },
    });
    const k = e.feature_flag_key;
    await kit.send([
      // Stored without a person: the distinct id has none yet.
      kit.metric('paid', k, `pl-${k}`, 'control', { $process_person_profile: false }),
      kit.metric('paid', k, `pl2-${k}`, 'test', {}),
      // Later the distinct id gets a person, a pro one: the event counts for that person, with its properties.
      { event: 'signed up', distinct_id: `pl-${k}`, properties: { $set: { plan: 'pro' } } },
      { event: 'signed up', distinct_id: `pl2-${k}`, properties: { $set: { plan: 'pro' } } },
    ]);
    const res = await kit.results(e.id);
    expect(res.status).toBe(200);
    expect(res.body.result.variants.map((v: any) => [v.key, v.count])).toEqual([
      ['control', 1],
      ['test', 1],
    ]);
  });
});

describe('property filters decide like flag conditions (docs/evaluation.md §4)', () => {
  const NOW = new Date();
  const VALUES: unknown[] = [
    'Pro',
    'pro',
    '',
    'abc',
    'ABC',
    'abc123',
    '5',
    5,
    1.5,
    '1e3',
    '1e400',
    ' 5',
    'Infinity',
    true,
    false,
    'TRUE',
    null,
    [],
    ['a'],
    [true],
    ['US', 'CA'],
    { a: 1 },
    'v1.10.0',
    '1.2.3-beta',
    '3.08',
    '0.3.0',
    '2024-06-01',
    '2024-06-01T10:00:00Z',
    '2023-12-31 23:59',
    1717200000,
    '1717200000.5',
    'über',
    'line\nbreak',
  ];
  const FILTERS: Array<[string, unknown]> = [
    ['exact', 'pro'],
    ['exact', ['PRO', 'x']],
    ['exact', []],
    ['exact', true],
    ['exact', 'false'],
    ['exact', 5],
    ['exact', ['us']],
    ['exact', null],
    ['is_not', 'pro'],
    ['is_not', []],
    ['is_set', null],
    ['is_not_set', null],
    ['icontains', 'B'],
    ['not_icontains', 'b'],
    ['starts_with', 'A'],
    ['not_starts_with', 'a'],
    ['ends_with', 'C'],
    ['not_ends_with', '3'],
    ['regex', '^[Pp]ro$'],
    ['regex', '\\d{3}'],
    // Patterns the evaluator cannot use are refused on save (test/security/no-stall.test.ts).
    ['regex', '\\bpro\\b'],
    ['regex', '^\\p{L}'],
    ['regex', ''],
    ['not_regex', '^a'],
    ['gt', 1],
    ['gte', '5'],
    ['lt', 10],
    ['lte', 1.5],
    ['gt', 'abc'],
    ['is_date_before', '2024-01-01'],
    ['is_date_after', '2024-01-01T00:00:00Z'],
    ['is_date_exact', '2024-06-01'],
    ['is_date_after', '-100000d'],
    ['is_date_before', '-1d'],
    ['is_date_exact', 1717200000],
    ['semver_gt', '1.2.3'],
    ['semver_eq', '3.8'],
    ['semver_neq', '1.2.3'],
    ['semver_lt', '2'],
    ['semver_tilde', '1.10.0'],
    ['semver_caret', '0.2.3'],
    ['semver_wildcard', '1.*'],
    ['semver_gte', 'garbage'],
    ['in', [1]],
    ['no_such_operator', 'x'],
  ];

  it.each(['event', 'person'] as const)('%s properties: every operator over odd values, as matchProperty decides', async (type) => {
    const filters = FILTERS.map(([operator, value]) => ({ key: 'x', operator, value, type }));
    const { k, read } = await secondaryKit(filters.map((filter) => ({ events: [{ id: 'probe', order: 0, properties: [filter] }] })));
    const subjects = [...VALUES.map((value) => ({ x: value })), {}];
    await kit.send([
      ...subjects.flatMap((properties, i) => {
        const id = `probe-${type}-${i}-${k}`;
        if (type === 'event') return [kit.metric('probe', k, id, 'control', properties)];
        return [{ event: 'set', distinct_id: id, properties: { $set: properties } }, kit.metric('probe', k, id, 'control')];
      }),
      // An actor nobody owns (stored without a person): no person properties at all.
      kit.metric('probe', k, `probe-${type}-nobody-${k}`, 'control', { $process_person_profile: false }),
    ]);
    // For event filters the last one has no `x`; for person filters it has no person: both decide as {}.
    const bags = [...subjects, {}];
    for (const [i, filter] of filters.entries()) {
      const expected = bags.filter((bag) => matchProperty(filter, bag, NOW)).length;
      const result = await read(i);
      expect([filter, result.control ?? 0]).toEqual([filter, expected]);
    }
  });
});

describe('numeric values past a double', () => {
  it('are ignored by sum and the per-actor maths, never a 500', async () => {
    const { e, k, read } = await secondaryKit(
      ['max', 'min', 'avg', 'median', 'p99', 'sum'].map((math) => ({ events: [{ id: 'pay', order: 0, math, math_property: 'amount' }] })),
    );
    const huge = ['1e400', '-1e400', '1' + '0'.repeat(400), '1.7976931348623159e308', '5e99999', '3'.repeat(2000) + 'e-1500'];
    const tiny = ['1e-400', '2.4703282292062327e-324', '0.' + '0'.repeat(5000) + '1', '1e-99999'];
    await kit.send([
      ...huge.map((amount, i) => kit.metric('pay', k, `h${i}-${k}`, 'control', { amount })),
      ...tiny.map((amount, i) => kit.metric('pay', k, `t${i}-${k}`, 'test', { amount })),
      kit.metric('pay', k, `n-${k}`, 'control', { amount: '1.7976931348623158e308' }),
      kit.metric('pay', k, `m-${k}`, 'test', { amount: 2 }),
    ]);
    // Control: the one value that rounds to the largest double; test: the tiny ones are 0, and 2.
    expect(await read(0)).toEqual({ control: 1.7976931348623157e308, test: 2 });
    expect(await read(1)).toEqual({ control: 1.7976931348623157e308, test: 0 });
    expect(await read(2)).toEqual({ control: 1.7976931348623157e308, test: 0.4 });
    expect(await read(3)).toEqual({ control: 1.7976931348623157e308, test: 0 });
    expect((await read(5)).test).toBe(2);
    await kit.patch(e.id, { filters: { events: [{ id: 'pay', order: 0, math: 'sum', math_property: 'amount' }] } });
    const res = await kit.results(e.id);
    expect(res.status).toBe(200);
    expect(res.body.result.variants.map((v: any) => [v.key, v.count])).toEqual([
      ['control', 1e300],
      ['test', 2],
    ]);
    expect((await read(4)).control).toBe(1.7976931348623157e308);
  });
});

describe('limits', () => {
  it('refuses a trend series over more than 3660 days, and funnels of more than 20 steps', async () => {
    const e = await kit.create({
      start_date: '0001-01-01T00:00',
      end_date: '9999-12-31T00:00',
      filters: { events: [{ id: 'x', order: 0 }] },
    });
    expectInvalid(await kit.results(e.id), 'Experiment trend results can cover at most 3660 days');
    // A funnel has no daily series: the same window is fine.
    await kit.patch(e.id, { filters: { insight: 'funnels', events: [{ id: 'x', order: 0 }] } });
    expectInvalid(await kit.results(e.id), NO_DATA(true, true, true), 'no-results');
    const steps = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `s${i % 3}`, order: i }));
    await kit.patch(e.id, { filters: { insight: 'funnels', events: steps(500) } });
    expectInvalid(await kit.results(e.id), 'Experiment funnels can have at most 20 steps');
    await kit.patch(e.id, { secondary_metrics: [{ name: 'long', filters: { insight: 'funnels', events: steps(21) } }] });
    expectInvalid(await kit.secondary(e.id, '?id=0'), 'Experiment funnels can have at most 20 steps');
    await kit.patch(e.id, { filters: { insight: 'funnels', events: steps(20) } });
    const k = e.feature_flag_key;
    await kit.send(
      ['control', 'test'].flatMap((variant) =>
        steps(20).map((step, i) =>
          kit.metric(step.id, k, `long-${variant}-${k}`, variant, {}, `2024-01-02T10:00:${String(i).padStart(2, '0')}Z`),
        ),
      ),
    );
    const res = await kit.results(e.id);
    expect(res.status).toBe(200);
    expect(res.body.result.variants).toEqual([
      { key: 'control', success_count: 1, failure_count: 0 },
      { key: 'test', success_count: 1, failure_count: 0 },
    ]);
  });
});
