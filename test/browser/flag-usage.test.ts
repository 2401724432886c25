// @slow: drives headless Chromium
import type { Page } from 'playwright-core';
import { PostHog } from 'posthog-node';
import { describeInBrowser } from '../helpers/browser';
import { useConsoleHarness } from '../helpers/console-browser';
import type { World } from '../helpers/factories';
import type { TestApp } from '../helpers/test-app';

/**
 * The flag page's Usage tab (docs/console.md, "Usage"): the flag's usage dashboard (docs/dashboards.md)
 * as charts over a range the reader picks. Exposures sent with posthog-node over several days and two
 * values; the charts' numbers equal the tiles' results read over GraphQL for the same range, and
 * change with the range. A flag with no events says so; one without a dashboard offers to make one.
 * Every state is checked with axe. `CONSOLE_SCREENSHOTS=1` saves docs/console/flag-usage.png.
 */
const describeWithBrowser = describeInBrowser('test/browser/flag-usage.test.ts');

const DAY_MS = 86_400_000;
const EXPOSURES = 'Exposures per day by value';
const PERSONS = 'Unique persons per day by value';

const TILES = /* GraphQL */ `
  query Tiles($projectId: ID!, $id: Int!, $dateFrom: String) {
    dashboard(projectId: $projectId, id: $id) {
      tiles(dateFrom: $dateFrom) {
        insight {
          name
          result {
            label
            days
            data
            count
            aggregatedValue
          }
        }
      }
    }
  }
`;

describeWithBrowser('the flag usage tab in a browser', () => {
  const harness = useConsoleHarness();
  const { open, signIn, expectAccessible, rest } = harness;
  let app: TestApp;
  let world: World;
  const flagsPath = () => `/api/projects/${world.project.id}/feature_flags`;

  beforeAll(() => {
    ({ app, world } = harness);
  });

  async function createFlag(key: string) {
    const res = await rest(`${flagsPath()}/`, 'POST', {
      key,
      name: `Usage of ${key}`,
      filters: { groups: [{ properties: [], rollout_percentage: 50 }] },
    });
    expect(res.status).toBe(201);
    return res.body as { id: number; usage_dashboard: number };
  }

  /** `$feature_flag_called` events through posthog-node, each at its own time. */
  async function sendExposures(key: string, exposures: Array<{ who: string; value: string; daysAgo: number }>) {
    const client = new PostHog(world.project.apiToken, { host: app.baseUrl, flushAt: 50, flushInterval: 60_000, fetchRetryCount: 0 });
    const errors: unknown[] = [];
    client.on('error', (error) => errors.push(error));
    for (const { who, value, daysAgo } of exposures) {
      client.capture({
        distinctId: who,
        event: '$feature_flag_called',
        properties: { $feature_flag: key, $feature_flag_response: value },
        timestamp: new Date(Date.now() - daysAgo * DAY_MS),
      });
    }
    await client.shutdown();
    expect(errors).toEqual([]);
  }

  /** A chart's numbers, as its "Show the numbers" table shows them (header row first). */
  async function chartNumbers(page: Page, name: string): Promise<string[][]> {
    const figure = page.locator('figure', { has: page.getByRole('img', { name, exact: true }) });
    const details = figure.locator('details');
    if ((await details.getAttribute('open')) === null) await figure.getByText('Show the numbers').click();
    const table = figure.getByRole('table', { name: `The numbers behind: ${name}` });
    const rows = table.getByRole('row');
    return Promise.all((await rows.all()).map((row) => row.locator('th, td').allInnerTexts()));
  }

  /** The same numbers from the tiles' results over GraphQL, as the table lays them out. */
  async function expectedNumbers(dashboardId: number, dateFrom: string) {
    const res = await app.graphql(TILES, { projectId: String(world.project.id), id: dashboardId, dateFrom }, world.owner.key);
    expect(res.body.errors).toBeUndefined();
    const [exposures, persons] = res.body.data.dashboard.tiles.map((tile: any) => tile.insight.result);
    const table = (series: any[], unit: string) => [
      ['Day', ...series.map((s) => `${s.label} (${unit})`)],
      ...series[0].days.map((day: string, i: number) => [day, ...series.map((s) => String(s.data[i]))]),
    ];
    return {
      exposures: table(exposures, 'exposures'),
      persons: table(persons, 'persons'),
      totalExposures: exposures.reduce((sum: number, s: any) => sum + s.count, 0),
      totalPersons: persons.reduce((sum: number, s: any) => sum + s.aggregatedValue, 0),
    };
  }

  it('charts exposures and unique persons per value; the numbers equal the tiles over GraphQL and follow the range', async () => {
    const key = 'usage-new-checkout';
    const flag = await createFlag(key);
    const exposures = [
      ...[0, 0, 1, 2, 4, 6, 9, 13, 20, 27].map((daysAgo, i) => ({ who: `usage-a-${i % 4}`, value: 'true', daysAgo })),
      ...[0, 1, 3, 3, 8, 15, 22].map((daysAgo, i) => ({ who: `usage-b-${i % 3}`, value: 'false', daysAgo })),
    ];
    await sendExposures(key, exposures);

    const { page } = await open();
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, world.owner.key);
    await page.goto(`${app.baseUrl}/feature-flags/${flag.id}`);
    await page.getByRole('tab', { name: 'Usage' }).click();
    // The tab follows the URL (`?tab=Usage`), which the router renders after the click returns.
    await page.getByRole('tab', { name: 'Usage', selected: true }).waitFor();
    await page.getByRole('img', { name: EXPOSURES, exact: true }).waitFor();
    await page.getByRole('img', { name: PERSONS, exact: true }).waitFor();
    // The chart itself is drawn (an SVG with a line per value), not only its table.
    await page.getByRole('img', { name: EXPOSURES, exact: true }).locator('svg').waitFor();
    await expect(page.getByRole('combobox', { name: 'Date range' }).inputValue()).resolves.toBe('30');

    const month = await expectedNumbers(flag.usage_dashboard, '-30d');
    expect(month.totalExposures).toBe(17);
    await page
      .getByText(`${month.totalExposures} exposures, ${month.totalPersons} unique persons (counted per value) over the last 30 days.`)
      .waitFor();
    if (process.env.CONSOLE_SCREENSHOTS) await page.screenshot({ path: 'docs/console/flag-usage.png', fullPage: true });
    expect(await chartNumbers(page, EXPOSURES)).toEqual(month.exposures);
    expect(await chartNumbers(page, PERSONS)).toEqual(month.persons);
    expect(month.exposures).toHaveLength(32); // the header and 31 days
    await expectAccessible(page);

    await page.getByRole('combobox', { name: 'Date range' }).selectOption('7');
    const week = await expectedNumbers(flag.usage_dashboard, '-7d');
    // Within 7 days: true on days 0, 0, 1, 2, 4, 6 and false on days 0, 1, 3, 3.
    expect(week.totalExposures).toBe(10);
    await page
      .getByText(`${week.totalExposures} exposures, ${week.totalPersons} unique persons (counted per value) over the last 7 days.`)
      .waitFor();
    expect(await chartNumbers(page, EXPOSURES)).toEqual(week.exposures);
    expect(await chartNumbers(page, PERSONS)).toEqual(week.persons);
    expect(week.exposures).toHaveLength(9);
    await expectAccessible(page);

    // The stored dashboard keeps its range.
    const stored = await rest(`/api/projects/${world.project.id}/dashboards/${flag.usage_dashboard}/`);
    expect(stored.body.filters).toEqual({ date_from: '-30d' });
  }, 120_000);

  it('says so when a flag has no exposures, instead of an empty chart', async () => {
    const flag = await createFlag('usage-quiet');
    const { page } = await open();
    await signIn(page, world.owner.key);
    await page.goto(`${app.baseUrl}/feature-flags/${flag.id}?tab=Usage`);
    await page.getByText('No exposures in the last 30 days.', { exact: false }).first().waitFor();
    await page.getByText('No exposures in the last 30 days. An SDK sends').waitFor();
    await expect(page.getByRole('img').count()).resolves.toBe(0);
    await expectAccessible(page);
  }, 60_000);

  it('offers to generate a usage dashboard for a flag without one, then shows it', async () => {
    const flag = await createFlag('usage-no-dashboard');
    await app.orm.em.fork().getConnection().execute('update feature_flag set usage_dashboard_id = null where id = ?', [flag.id]);
    const { page } = await open();
    await signIn(page, world.owner.key);
    await page.goto(`${app.baseUrl}/feature-flags/${flag.id}?tab=Usage`);
    await page.getByText('This flag has no usage dashboard').waitFor();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Generate usage dashboard' }).click();
    await page.getByRole('combobox', { name: 'Date range' }).waitFor();
    await page.getByText('No exposures in the last 30 days. An SDK sends').waitFor();
    const after = await rest(`${flagsPath()}/${flag.id}/`);
    expect(Number.isInteger(after.body.usage_dashboard)).toBe(true);
    await expectAccessible(page);
  }, 60_000);
});
