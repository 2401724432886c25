// @slow: drives headless Chromium
import type { Page } from 'playwright-core';
import { describeInBrowser } from '../helpers/browser';
import { useConsoleHarness } from '../helpers/console-browser';
import type { World } from '../helpers/factories';
import type { TestApp } from '../helpers/test-app';
import { experimentKit } from '../experiment-results/helpers';

/**
 * The experiment results view (docs/console.md, "Experiment results") against the API it reads
 * (docs/experiment-results.md): events go in through capture, the page must show what
 * `GET …/experiments/:id/results` answers, to the precision it shows, with the verdict in words for
 * the `significance_code`, the sample-ratio warning, both charts with their numbers, a secondary
 * metric, and the states that are not results (a draft, no exposure yet). Axe on every state.
 */
const describeWithBrowser = describeInBrowser('test/browser/experiment-results.test.ts');

// The console's shown precision (web/src/experiments/results/model.ts).
const percent = (x: number) => `${(x * 100).toFixed(1)}%`;
const decimal = (x: number) => x.toFixed(3);
const pValue = (p: number) => (p < 0.0001 ? '< 0.0001' : p.toFixed(4));
const pEquals = (p: number) => (p < 0.0001 ? 'p < 0.0001' : `p = ${pValue(p)}`);

describeWithBrowser('experiment results in a browser', () => {
  const harness = useConsoleHarness();
  const { open, signIn, expectAccessible } = harness;
  let app: TestApp;
  let world: World;
  let kit: ReturnType<typeof experimentKit>;

  beforeAll(() => {
    ({ app, world } = harness);
    kit = experimentKit(app, world);
  });

  /** `n` actors of one variant: exposed, entering the funnel, `converted` of them finishing it. */
  const funnelActors = (flagKey: string, variant: string, n: number, converted: number) =>
    Array.from({ length: n }, (_, i) => {
      const id = `${flagKey}-${variant}-${i}`;
      return [
        kit.exposure(flagKey, id, variant),
        kit.metric('$pageview', flagKey, id, variant),
        ...(i < converted ? [kit.metric('$pageleave', flagKey, id, variant)] : []),
      ];
    }).flat();

  /** `n` exposed actors of one variant, `events` purchases spread over them. */
  const trendActors = (flagKey: string, variant: string, n: number, events: number) => [
    ...Array.from({ length: n }, (_, i) => kit.exposure(flagKey, `${flagKey}-${variant}-${i}`, variant)),
    ...Array.from({ length: events }, (_, i) => kit.metric('purchase', flagKey, `${flagKey}-${variant}-${i % n}`, variant)),
  ];

  const openResults = async (page: Page, id: number, name: string) => {
    await page.goto(`${app.baseUrl}/experiments/${id}`);
    await page.getByRole('heading', { name, exact: true }).waitFor();
  };

  /** The rows of a table as text, header row left out. */
  const rowsOf = (page: Page, name: string) =>
    page
      .getByRole('table', { name, exact: true })
      .locator('tbody tr')
      .evaluateAll((rows: any[]) => rows.map((row) => Array.from(row.children, (cell: any) => String(cell.textContent ?? '').trim())));

  /** A chart's numbers: opens its "Show the numbers" and reads the table. */
  const chartNumbers = async (page: Page, name: string) => {
    const figure = page.locator('figure', { has: page.getByRole('img', { name, exact: true }) });
    await figure.locator('svg').waitFor();
    await figure.getByText('Show the numbers').click();
    return rowsOf(page, `The numbers behind: ${name}`);
  };

  const verdict = (page: Page) => page.getByRole('status').filter({ hasNotText: /^$/ }).first().innerText();

  it('shows a significant funnel as the API computes it: table, verdict, charts, frequentist view, secondary metric', async () => {
    const e = await kit.create({
      name: 'Checkout funnel',
      filters: {
        insight: 'funnels',
        events: [
          { id: '$pageview', order: 0 },
          { id: '$pageleave', order: 1 },
        ],
      },
      secondary_metrics: [{ name: 'Pages left', filters: { insight: 'trends', events: [{ id: '$pageleave', order: 0 }] } }],
    });
    const flagKey = e.feature_flag_key;
    // docs/experiment-results.md's worked example: control (100, 18), test (100, 10) is significant.
    await kit.send([...funnelActors(flagKey, 'control', 118, 100), ...funnelActors(flagKey, 'test', 110, 100)]);
    const rest = (await kit.results(e.id)).body.result;
    expect(rest.significance_code).toBe('significant');
    expect(rest.srm).toBe(false);

    const { page } = await open();
    await signIn(page, world.owner.key);
    await openResults(page, e.id, 'Checkout funnel');
    const table = page.getByRole('table', { name: 'Results', exact: true });
    await table.waitFor();
    const rows = await rowsOf(page, 'Results');
    expect(rows.map((r) => r[0])).toEqual(rest.variants.map((v: any) => v.key));
    for (const [i, v] of (rest.variants as Array<{ key: string; success_count: number; failure_count: number }>).entries()) {
      const entered = v.success_count + v.failure_count;
      const [low, high] = rest.credible_intervals[v.key];
      expect(rows[i]).toEqual([
        v.key,
        String(entered),
        String(v.success_count),
        percent(v.success_count / entered),
        percent(rest.probability[v.key]),
        `${percent(low)} to ${percent(high)}`,
      ]);
    }

    const said = await verdict(page);
    expect(said).toContain(`test is likely better than control: ${percent(rest.probability.test)} probability of being best`);
    expect(said).toContain(`expected loss ${(rest.expected_loss * 100).toFixed(2)} percentage points`);
    expect(said).toContain('Every rule passed');
    expect(said).not.toMatch(/^significant$/i);
    await expect(page.getByText('Sample ratio mismatch').count()).resolves.toBe(0);

    await expect(chartNumbers(page, 'Probability of being best')).resolves.toEqual(
      rest.variants.map((v: any) => [v.key, percent(rest.probability[v.key])]),
    );
    await expect(chartNumbers(page, 'Credible intervals')).resolves.toEqual(
      rest.variants.map((v: any) => {
        const [low, high] = rest.credible_intervals[v.key];
        return [v.key, percent(v.success_count / (v.success_count + v.failure_count)), percent(low), percent(high)];
      }),
    );
    await expectAccessible(page);

    // The frequentist view, on request, is the result's `frequentist` part.
    await page.getByRole('checkbox', { name: /Show frequentist statistics/ }).check();
    const withFrequentist = await rowsOf(page, 'Results');
    const f = rest.frequentist.test;
    expect(withFrequentist[1].slice(6)).toEqual([
      `${f.relative_lift > 0 ? '+' : ''}${(f.relative_lift * 100).toFixed(1)}%`,
      f.confidence_interval.map((x: number) => `${x > 0 ? '+' : ''}${(x * 100).toFixed(1)}%`).join(' to '),
      `${pValue(f.p_value)}${f.significant ? ' (below 0.05)' : ''}`,
    ]);
    expect(withFrequentist[0].slice(6)).toEqual(['Baseline']);
    await expectAccessible(page);

    // The secondary metric: a value per variant, as a table and a chart.
    const secondary = (await kit.secondary(e.id, '?id=0')).body.result;
    await page.getByRole('table', { name: 'Results: Pages left', exact: true }).waitFor();
    await expect(rowsOf(page, 'Results: Pages left')).resolves.toEqual(Object.entries(secondary).map(([k, v]) => [k, String(v)]));
    await expect(chartNumbers(page, 'Pages left')).resolves.toEqual(Object.entries(secondary).map(([k, v]) => [k, String(v)]));
    await expectAccessible(page);

    // Refresh recomputes and says when.
    await page.getByRole('button', { name: 'Refresh results' }).click();
    await page.getByRole('button', { name: 'Refresh results' }).waitFor();
    await page
      .getByText(/^Computed .*/)
      .first()
      .waitFor();
    await expect(page.getByText('(stored result)').count()).resolves.toBe(0);
    if (process.env.CONSOLE_SCREENSHOTS) {
      // Refreshed docs/console/experiment-results.png, as the screenshot in docs/console.md.
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.getByRole('checkbox', { name: /Show frequentist statistics/ }).uncheck();
      await page.locator('details[open]').evaluateAll((open: any[]) => open.forEach((d) => d.removeAttribute('open')));
      await page.screenshot({ path: 'docs/console/experiment-results.png', fullPage: true });
    }
  }, 90_000);

  it('says "not enough exposure" with the counts, for a trend with few actors', async () => {
    const e = await kit.create({ name: 'Few buyers', filters: { insight: 'trends', events: [{ id: 'purchase', order: 0 }] } });
    await kit.send([...trendActors(e.feature_flag_key, 'control', 12, 20), ...trendActors(e.feature_flag_key, 'test', 10, 30)]);
    const rest = (await kit.results(e.id)).body.result;
    expect(rest.significance_code).toBe('not_enough_exposure');

    const { page } = await open();
    await signIn(page, world.owner.key);
    await openResults(page, e.id, 'Few buyers');
    await page.getByRole('table', { name: 'Results', exact: true }).waitFor();
    const rows = await rowsOf(page, 'Results');
    for (const [i, v] of (rest.variants as Array<{ key: string; count: number; absolute_exposure: number }>).entries()) {
      const [low, high] = rest.credible_intervals[v.key];
      expect(rows[i]).toEqual([
        v.key,
        String(v.absolute_exposure),
        String(v.count),
        decimal(v.count / v.absolute_exposure),
        percent(rest.probability[v.key]),
        `${decimal(low)} to ${decimal(high)}`,
      ]);
    }
    const said = await verdict(page);
    expect(said).toContain('Not enough exposure yet: each variant needs at least 100 exposures (control has 12, test has 10)');
    expect(said).toContain('Rule 1, minimum exposure');
    await expectAccessible(page);
  }, 90_000);

  it('says a trend difference could be chance (high p-value) and warns of a sample-ratio mismatch', async () => {
    const e = await kit.create({ name: 'Lopsided', filters: { insight: 'trends', events: [{ id: 'purchase', order: 0 }] } });
    // A 50/50 flag with twice as many exposures on control, and the same rate of purchases on both.
    await kit.send([...trendActors(e.feature_flag_key, 'control', 300, 300), ...trendActors(e.feature_flag_key, 'test', 150, 175)]);
    const rest = (await kit.results(e.id)).body.result;
    expect(rest.significance_code).toBe('high_p_value');
    expect(rest.srm).toBe(true);

    const { page } = await open();
    await signIn(page, world.owner.key);
    await openResults(page, e.id, 'Lopsided');
    await page.getByRole('table', { name: 'Results', exact: true }).waitFor();
    const said = await verdict(page);
    expect(said).toContain(`Could be chance: test has ${decimal(175 / 150)} events per exposure against control's ${decimal(1)}`);
    expect(said).toContain(pEquals(rest.p_value));
    expect(said).toContain('Rule 4, p-value');
    const warning = page.getByRole('alert').filter({ hasText: 'Sample ratio mismatch' });
    await expect(warning.innerText()).resolves.toContain(
      'The flag splits control 50%, test 50%, but exposures were control 300 (66.7%), test 150 (33.3%)',
    );
    // This split's p is below 0.0001: the sentence says "p < 0.0001", never "p = < 0.0001".
    expect(rest.srm_p_value).toBeLessThan(0.0001);
    await expect(warning.innerText()).resolves.toContain(`(p < 0.0001, below 0.001)`);
    // Variant keys are stored text: each is isolated from the sentence (bdi), in the asked and the observed split.
    await expect(warning.locator('bdi').allInnerTexts()).resolves.toEqual(['control', 'test', 'control', 'test']);
    await page.getByRole('checkbox', { name: /Show frequentist statistics/ }).check();
    await page.getByText(`Poisson test of control against the best test variant: ${pEquals(rest.p_value)}`).waitFor();
    await expectAccessible(page);
  }, 90_000);

  it('says low win probability when nobody leads', async () => {
    const e = await kit.create({
      name: 'Even funnel',
      filters: {
        insight: 'funnels',
        events: [
          { id: '$pageview', order: 0 },
          { id: '$pageleave', order: 1 },
        ],
      },
    });
    await kit.send([...funnelActors(e.feature_flag_key, 'control', 150, 75), ...funnelActors(e.feature_flag_key, 'test', 150, 76)]);
    const rest = (await kit.results(e.id)).body.result;
    expect(rest.significance_code).toBe('low_win_probability');

    const { page } = await open();
    await signIn(page, world.owner.key);
    await openResults(page, e.id, 'Even funnel');
    await page.getByRole('table', { name: 'Results', exact: true }).waitFor();
    const said = await verdict(page);
    expect(said).toContain(
      `No clear leader yet: control has a ${percent(rest.probability.control)} probability of being best and the test variants together ${percent(rest.probability.test)}; neither reaches 90%.`,
    );
    await expectAccessible(page);
  }, 90_000);

  it('says "not started" for a draft and "no exposure yet" for a running experiment without events', async () => {
    const draft = await kit.create({ name: 'Draft experiment', start_date: null });
    // Its own event name: other tests' `$pageview`s in this project would count as metric events.
    const idle = await kit.create({ name: 'Idle experiment', filters: { events: [{ id: 'idle-signup', order: 0 }] } });
    const { page } = await open();
    await signIn(page, world.owner.key);

    await openResults(page, draft.id, 'Draft experiment');
    await page.getByRole('status').filter({ hasText: 'Not started: this experiment is a draft.' }).waitFor();
    await expect(page.getByRole('alert').count()).resolves.toBe(0);
    await expectAccessible(page);

    await openResults(page, idle.id, 'Idle experiment');
    await page
      .getByRole('status')
      .filter({ hasText: 'No exposure yet: no metric event has been recorded since the experiment started.' })
      .waitFor();
    await expect(page.getByRole('alert').count()).resolves.toBe(0);
    await expectAccessible(page);
  }, 90_000);
});
