// @slow: drives headless Chromium
import { describeInBrowser } from '../helpers/browser';
import { useConsoleHarness } from '../helpers/console-browser';
import type { World } from '../helpers/factories';
import type { TestApp } from '../helpers/test-app';

/**
 * The flag list's Stale badge and filter (docs/console.md, "Feature flags"; docs/stale-flags.md):
 * a flag unchanged for 40 days (set in SQL) and rolled out to everyone shows "Stale" with its reason,
 * a new one does not, and the Status filter's "Stale" keeps only the stale one. Checked with axe.
 */
const describeWithBrowser = describeInBrowser('test/browser/stale-flags.test.ts');

describeWithBrowser('stale flags in the console', () => {
  const harness = useConsoleHarness();
  const { open, signIn, expectAccessible, rest } = harness;
  let app: TestApp;
  let world: World;

  beforeAll(() => {
    ({ app, world } = harness);
  });

  it('shows a Stale badge with its reason, and filters to stale flags', async () => {
    const flags = `/api/projects/${world.project.id}/feature_flags/`;
    const everyone = { groups: [{ properties: [], rollout_percentage: 100 }] };
    const old = await rest(flags, 'POST', { key: 'old-everyone', filters: everyone });
    expect((await rest(flags, 'POST', { key: 'new-everyone', filters: everyone })).status).toBe(201);
    await app.factories.sql(`update feature_flag set updated_at = now() - interval '40 days' where id = ?`, [old.body.id]);

    const { page } = await open();
    await signIn(page, world.owner.key);
    const row = (key: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name: key, exact: true }) });
    await row('old-everyone').getByText('Stale').waitFor();
    await expect(row('old-everyone').getByText('Stale').getAttribute('title')).resolves.toBe(
      'This boolean flag will always evaluate to "true"',
    );
    await expect(row('new-everyone').getByText('Stale').count()).resolves.toBe(0);
    await expectAccessible(page);

    await page.getByRole('combobox', { name: 'Status' }).selectOption('stale');
    await page.getByText('1 flags').waitFor();
    await expect(page.getByRole('link', { name: 'old-everyone', exact: true }).count()).resolves.toBe(1);
    await expect(page.getByRole('link', { name: 'new-everyone', exact: true }).count()).resolves.toBe(0);
    await expectAccessible(page);
  });
});
