// @slow: drives headless Chromium
import { describeInBrowser } from '../helpers/browser';
import { useConsoleHarness } from '../helpers/console-browser';
import type { World } from '../helpers/factories';
import type { TestApp } from '../helpers/test-app';
import { PostHog } from 'posthog-node';
import { capture } from '../ingestion/capture-helpers';

/**
 * The console's experiments (docs/console.md, "Experiments") in Chromium: the list, the form (a new
 * flag with three variants, a funnel and a trend metric from the offered event names), the page's
 * confirmed lifecycle (docs/experiments.md §4), refusals at their field, and a read-only key. Every
 * page is checked with axe.
 */
const describeWithBrowser = describeInBrowser('test/browser/experiments.test.ts');
// Slow on a busy machine: eight pages and axe runs in one flow.
jest.setTimeout(300_000);

describeWithBrowser('experiments in the console', () => {
  const harness = useConsoleHarness();
  const { open, signIn, expectAccessible, rest } = harness;
  let app: TestApp;
  let world: World;
  const base = () => `/api/projects/${world.project.id}`;

  beforeAll(async () => {
    ({ app, world } = harness);
    const batch = ['signup', 'purchase', 'checkout_viewed'].map((event, i) => ({
      event,
      distinct_id: `seed-${i}`,
      properties: {},
    }));
    expect((await capture(app, '/batch/', { api_key: world.project.apiToken, batch })).status).toBe(200);
  });

  it('creates an experiment on a new flag, then launches, stops and archives it with confirmation', async () => {
    const { page } = await open();
    page.setDefaultTimeout(10_000);
    await signIn(page, world.owner.key);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Experiments' }).click();
    await page.getByRole('heading', { name: 'Experiments' }).waitFor();
    await expectAccessible(page);

    await page.getByRole('button', { name: 'New experiment', exact: true }).click();
    await page.getByRole('heading', { name: 'New experiment' }).waitFor();
    // The event names the project has seen are offered.
    await page.locator('#experiment-event-names option[value="checkout_viewed"]').waitFor({ state: 'attached' });
    const offered = await Promise.all((await page.locator('#experiment-event-names option').all()).map((o) => o.getAttribute('value')));
    expect(offered).toEqual(expect.arrayContaining(['signup', 'purchase', 'checkout_viewed']));
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Checkout button');
    await page.getByRole('textbox', { name: 'Description' }).fill('Does a bigger button sell more?');
    await page.getByRole('combobox', { name: 'Flag key' }).fill('checkout-button');
    await page.getByText('A new flag checkout-button will be created').waitFor();
    await page.getByRole('button', { name: 'Add variant' }).click();
    const keys = page.getByRole('textbox', { name: 'Variant key' });
    const splits = page.getByRole('spinbutton', { name: 'Split (%)' });
    await keys.nth(1).fill('big');
    await keys.nth(2).fill('huge');
    await splits.nth(0).fill('34');
    await splits.nth(1).fill('33');
    await splits.nth(2).fill('30');
    // Checked as you type.
    await page.getByText('Variant rollouts sum to 97 — they must sum to 100.').waitFor();
    await splits.nth(2).fill('33');
    await page.getByText('Variant rollouts sum to 100.').waitFor();

    const primary = page.getByRole('group', { name: 'Primary metric' });
    await primary.getByRole('combobox', { name: 'Step 1 event' }).fill('signup');
    await primary.getByRole('combobox', { name: 'Step 2 event' }).fill('purchase');
    await page.getByRole('button', { name: 'Add secondary metric' }).click();
    const secondary = page.getByRole('group', { name: 'Secondary metric 1' });
    await secondary.getByRole('textbox', { name: 'Metric name' }).fill('Checkout views');
    await secondary.getByRole('combobox', { name: 'Event to count' }).fill('checkout_viewed');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Create experiment' }).click();

    await page.getByRole('heading', { name: 'Checkout button' }).waitFor();
    // Results is the tab shown first.
    await expect(page.getByRole('tab', { name: 'Results' }).getAttribute('aria-selected')).resolves.toBe('true');
    await expectAccessible(page);
    const id = Number(new URL(page.url()).pathname.split('/').pop());

    const saved = (await rest(`${base()}/experiments/${id}/`)).body;
    expect(saved).toMatchObject({
      name: 'Checkout button',
      description: 'Does a bigger button sell more?',
      feature_flag_key: 'checkout-button',
      start_date: null,
      end_date: null,
      archived: false,
      filters: {
        insight: 'FUNNELS',
        events: [
          { id: 'signup', order: 0 },
          { id: 'purchase', order: 1 },
        ],
        properties: [],
      },
      secondary_metrics: [
        { name: 'Checkout views', filters: { insight: 'TRENDS', events: [{ id: 'checkout_viewed', order: 0, math: 'total' }] } },
      ],
    });
    expect(saved.feature_flag.filters.multivariate.variants.map((v: any) => [v.key, v.rollout_percentage])).toEqual([
      ['control', 34],
      ['big', 33],
      ['huge', 33],
    ]);
    expect(saved.feature_flag.active).toBe(false);

    // Settings: the setup in words.
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByText('Funnel: signup → purchase').waitFor();
    await page.getByText('Count of checkout_viewed per exposed person').waitFor();
    await expectAccessible(page);

    // Launch: asked first; Cancel changes nothing and gives focus back.
    await page.getByRole('button', { name: 'Launch', exact: true }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText('Launch Checkout button?').waitFor();
    // The stored name sits isolated in the question (web/src/Stored.tsx): an override inside cannot reorder it.
    await expect(dialog.locator('#confirm-question bdi').textContent()).resolves.toBe('Checkout button');
    // Focus moves to the confirming button. (A function, not a string: the console's CSP forbids the
    // eval a string predicate needs once it polls.)
    await page.waitForFunction(() => (globalThis as any).document.activeElement?.textContent === 'Confirm launch');
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    await expect(dialog.count()).resolves.toBe(0);
    await page.waitForFunction(() => (globalThis as any).document.activeElement?.id === 'action-launch');
    expect((await rest(`${base()}/experiments/${id}/`)).body.start_date).toBeNull();

    await page.getByRole('button', { name: 'Launch', exact: true }).click();
    await page.getByRole('button', { name: 'Confirm launch' }).click();
    await page.getByText('Launched: checkout-button is on.').waitFor();
    await page.locator('.page-head .status', { hasText: 'running' }).waitFor();
    const launched = (await rest(`${base()}/experiments/${id}/`)).body;
    expect(launched.start_date).not.toBeNull();
    expect(launched.feature_flag.active).toBe(true);
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await page.getByRole('button', { name: 'Confirm stop' }).click();
    await page.locator('.page-head .status', { hasText: 'complete' }).waitFor();
    expect((await rest(`${base()}/experiments/${id}/`)).body.end_date).not.toBeNull();

    await page.getByRole('button', { name: 'Archive', exact: true }).click();
    await page.getByRole('button', { name: 'Confirm archive' }).click();
    await page.getByRole('button', { name: 'Unarchive', exact: true }).waitFor();
    expect((await rest(`${base()}/experiments/${id}/`)).body.archived).toBe(true);
    await expectAccessible(page);

    // Edit after launch: the flag and variants are fixed; the name can change.
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByRole('heading', { name: 'Edit Checkout button' }).waitFor();
    await expect(page.getByRole('combobox', { name: 'Flag key' }).isDisabled()).resolves.toBe(true);
    await expect(keys.first().isDisabled()).resolves.toBe(true);
    await expectAccessible(page);
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Checkout button, v1');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Checkout button, v1' }).waitFor();
    const edited = (await rest(`${base()}/experiments/${id}/`)).body;
    expect(edited.name).toBe('Checkout button, v1');
    expect(edited.filters).toEqual(saved.filters);
    expect(edited.secondary_metrics).toEqual(saved.secondary_metrics);

    // Archived experiments leave the list; the Archived filter shows them.
    await page.goto(`${app.baseUrl}/experiments`);
    await page.getByRole('heading', { name: 'Experiments' }).waitFor();
    await expect(page.getByRole('table').getByRole('link', { name: 'Checkout button, v1' }).count()).resolves.toBe(0);
    await page.getByRole('checkbox', { name: 'Archived' }).click();
    await page.getByRole('table').getByRole('link', { name: 'Checkout button, v1' }).click();
    await page.getByRole('heading', { name: 'Checkout button, v1' }).waitFor();
  });

  it('shows refusals at their field, and deletes a draft after confirmation', async () => {
    const plain = await rest(`${base()}/feature_flags/`, 'POST', {
      key: 'plain-switch',
      filters: { groups: [{ rollout_percentage: 100 }] },
    });
    expect(plain.status).toBe(201);
    const { page } = await open();
    page.setDefaultTimeout(10_000);
    await signIn(page, world.owner.key);
    await page.goto(`${app.baseUrl}/experiments/new`);
    await page.getByRole('heading', { name: 'New experiment' }).waitFor();

    // Checked before sending: an empty name, a funnel without steps.
    await page.getByRole('button', { name: 'Create experiment' }).click();
    await page.getByText('Give the experiment a name.').waitFor();
    await page.getByText('Name an event for every step.').waitFor();
    await expectAccessible(page);

    // The server's refusal: a flag that is not multivariate, shown under the flag key.
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('On a plain flag');
    await page.getByRole('combobox', { name: 'Flag key' }).fill('plain-switch');
    await page.getByText('Uses the existing flag plain-switch').waitFor();
    const primary = page.getByRole('group', { name: 'Primary metric' });
    await primary.getByRole('radio', { name: 'Trend of an event' }).check();
    await primary.getByRole('combobox', { name: 'Event to count' }).fill('purchase');
    await page.getByRole('button', { name: 'Create experiment' }).click();
    const flagError = page.locator('#experiment-flag-error');
    await flagError.getByText('Feature flag is not eligible for experiments.').waitFor();
    await expect(page.getByRole('combobox', { name: 'Flag key' }).getAttribute('aria-describedby')).resolves.toContain(
      'experiment-flag-error',
    );
    await expectAccessible(page);

    // A new key works; the draft says it has not started and can be deleted.
    await page.getByRole('combobox', { name: 'Flag key' }).fill('draft-only');
    await page.getByRole('button', { name: 'Create experiment' }).click();
    await page.getByRole('heading', { name: 'On a plain flag' }).waitFor();
    await page.getByText('Not started', { exact: true }).waitFor();
    await expectAccessible(page);
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('button', { name: 'Confirm delete' }).click();
    await page.getByRole('heading', { name: 'Experiments' }).waitFor();
    expect((await rest(`${base()}/experiments/${id}/`)).status).toBe(404);

    // A missing experiment is a message, not a blank page.
    await page.goto(`${app.baseUrl}/experiments/${id}`);
    await page.getByRole('heading', { name: 'Experiment not found' }).waitFor();
    await expectAccessible(page);
  });

  it('pages and searches the list on the server, links rows, and hides edit controls from a read-only key', async () => {
    for (let i = 1; i <= 21; i++) {
      const res = await rest(`${base()}/experiments/`, 'POST', {
        name: `Bulk ${String(i).padStart(2, '0')}`,
        feature_flag_key: `bulk-${i}`,
        filters: { events: [{ id: 'purchase', order: 0 }] },
        ...(i === 1 ? { start_date: '2024-01-01T00:00:00Z' } : {}),
      });
      expect(res.status).toBe(201);
    }
    const reader = (await app.factories.member(world.organization, 'member', { scopes: ['feature_flag:read', 'experiment:read'] })).key;
    const { page } = await open();
    page.setDefaultTimeout(10_000);
    await signIn(page, reader);
    await page.goto(`${app.baseUrl}/experiments?search=bulk`);
    await page.getByText('Page 1 of 2 (21 experiments)').waitFor();
    await page.getByText('Page 1 of 2 (21 experiments)').waitFor();
    await expect(page.getByRole('button', { name: 'New experiment' }).count()).resolves.toBe(0);
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.getByText('Page 2 of 2 (21 experiments)').waitFor();
    // Newest first: the first one made is alone on page 2.
    const link = page.getByRole('table').getByRole('link', { name: 'Bulk 01' });
    await expect(page.getByRole('table').getByRole('row').count()).resolves.toBe(2);
    await link.click();
    await page.getByRole('heading', { name: 'Bulk 01' }).waitFor();
    await expectAccessible(page);
    for (const name of ['Stop', 'Edit', 'Archive', 'Launch', 'Delete'])
      await expect(page.getByRole('button', { name, exact: true }).count()).resolves.toBe(0);

    // The status filter is the server's.
    await page.goto(`${app.baseUrl}/experiments?search=bulk&status=running`);
    await page.getByText('Page 1 of 1 (1 experiments)').waitFor();
    await expect(page.getByRole('table').getByRole('link', { name: 'Bulk 01' }).count()).resolves.toBe(1);
  });

  it('reads an experiment set up and launched here, fed by posthog-node, as the API computes it', async () => {
    const { page } = await open();
    page.setDefaultTimeout(15_000);
    await signIn(page, world.owner.key);
    await page.goto(`${app.baseUrl}/experiments/new`);
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Signup to purchase');
    await page.getByRole('combobox', { name: 'Flag key' }).fill('signup-to-purchase');
    const primary = page.getByRole('group', { name: 'Primary metric' });
    await primary.getByRole('combobox', { name: 'Step 1 event' }).fill('signup');
    await primary.getByRole('combobox', { name: 'Step 2 event' }).fill('purchase');
    await page.getByRole('button', { name: 'Create experiment' }).click();
    await page.getByRole('heading', { name: 'Signup to purchase' }).waitFor();
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByRole('button', { name: 'Launch', exact: true }).click();
    await page.getByRole('button', { name: 'Confirm launch' }).click();
    await page.locator('.page-head .status', { hasText: 'running' }).waitFor();
    const variants = (await rest(`${base()}/experiments/${id}/`)).body.parameters.feature_flag_variants.map((v: any) => v.key);
    expect(variants).toEqual(['control', 'test']);

    // What an app using posthog-node sends: the exposure, then the funnel's steps a second apart (after
    // the launch, before the results are read), tagged with the variant.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const now = Date.now();
    const client = new PostHog(world.project.apiToken, { host: app.baseUrl, flushAt: 100, flushInterval: 60_000, fetchRetryCount: 0 });
    const flag = 'signup-to-purchase';
    for (const [variant, converted] of [
      ['control', 60],
      ['test', 100],
    ] as const) {
      for (let i = 0; i < 120; i++) {
        const distinctId = `node-${variant}-${i}`;
        const properties = { [`$feature/${flag}`]: variant };
        const at = (msBefore: number) => new Date(now - msBefore);
        client.capture({
          distinctId,
          event: '$feature_flag_called',
          properties: { $feature_flag: flag, $feature_flag_response: variant, ...properties },
          timestamp: at(1800),
        });
        client.capture({ distinctId, event: 'signup', properties, timestamp: at(1500) });
        if (i < converted) client.capture({ distinctId, event: 'purchase', properties, timestamp: at(500) });
      }
    }
    await client.shutdown();

    const api = (await rest(`${base()}/experiments/${id}/results/?refresh=true`)).body.result;
    expect([api.significance_code, api.srm]).toEqual(['significant', false]);
    await page.getByRole('button', { name: 'Refresh results' }).click();
    const table = page.getByRole('table', { name: 'Results', exact: true });
    // The refreshed result, not the empty one shown at launch: 120 actors entered in each variant.
    await table.getByRole('cell', { name: '120', exact: true }).nth(1).waitFor();
    const rows = await table
      .locator('tbody tr')
      .evaluateAll((trs: any[]) => trs.map((tr) => Array.from(tr.children, (cell: any) => String(cell.textContent ?? '').trim())));
    const percent = (x: number) => `${(x * 100).toFixed(1)}%`;
    expect(rows.map((row) => row.slice(0, 5))).toEqual(
      api.variants.map((v: any) => {
        const entered = v.success_count + v.failure_count;
        return [v.key, String(entered), String(v.success_count), percent(v.success_count / entered), percent(api.probability[v.key])];
      }),
    );
    expect(rows.map((row) => row.slice(1, 3))).toEqual([
      ['120', '60'],
      ['120', '100'],
    ]);
    // The verdict in words, from the rule behind significance_code.
    const verdict = await page.getByRole('status').filter({ hasText: 'probability of being best' }).innerText();
    expect(verdict).toContain(`test is likely better than control: ${percent(api.probability.test)} probability of being best`);
    expect(verdict).toContain('Every rule passed');
    await page.getByRole('img', { name: 'Probability of being best', exact: true }).locator('svg').waitFor();
    await page.getByRole('img', { name: 'Credible intervals', exact: true }).locator('svg').waitFor();
    await expectAccessible(page);

    // Its History tab: the launch, as the activity feed shows it.
    await page.getByRole('tab', { name: 'History' }).click();
    await page.getByRole('listitem').filter({ hasText: 'launched' }).first().waitFor();
    await expectAccessible(page);
  });
});
