// @slow: drives headless Chromium
import { describeInBrowser } from '../helpers/browser';
import { useConsoleHarness } from '../helpers/console-browser';
import type { Member, World } from '../helpers/factories';
import type { TestApp } from '../helpers/test-app';

/**
 * The console's activity feed and role pages (docs/console.md "Activity" and "Roles") in Chromium:
 * the feed agrees with docs/activity.md (who, what, when, the diff; scope filter; server paging) and
 * the role pages do what docs/rest-api.md §5 allows admins, showing other members no admin controls.
 * Every page is checked with axe; a console error or a request to another host fails the test.
 */
const describeWithBrowser = describeInBrowser('test/browser/activity-roles.test.ts');

const EVERYONE = { groups: [{ properties: [], rollout_percentage: 100 }] };
const FUNNEL = {
  events: [
    { order: 0, id: '$pageview' },
    { order: 1, id: 'purchase' },
  ],
};

describeWithBrowser('the activity feed and roles in a browser', () => {
  const harness = useConsoleHarness();
  const { open, signIn, expectAccessible, rest } = harness;
  let app: TestApp;
  let world: World;
  let member: Member;
  const projectPath = () => `/api/projects/${world.project.id}`;
  const rolesPath = () => `/api/organizations/${world.organization.id}/roles`;

  beforeAll(async () => {
    ({ app, world } = harness);
    member = await app.factories.member(world.organization, 'member');
  });

  it('shows an experiment launch with who made it, linked to the experiment', async () => {
    const experiment = await rest(`${projectPath()}/experiments/`, 'POST', {
      name: 'Launch watch',
      feature_flag_key: 'launch-watch',
      parameters: {},
      filters: FUNNEL,
    });
    expect(experiment.status).toBe(201);
    const launched = await rest(`${projectPath()}/experiments/${experiment.body.id}/`, 'PATCH', { start_date: '2024-01-01T00:00' });
    expect(launched.status).toBe(200);

    const { page } = await open();
    await signIn(page, world.owner.key);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Activity' }).click();
    await page.getByRole('heading', { name: 'Activity', level: 1 }).waitFor();
    const entry = page.getByRole('listitem').filter({ hasText: 'launched experiment Launch watch' });
    await entry.waitFor();
    const line = await entry.locator('p').first().textContent();
    expect(line).toContain(`Owner (${world.owner.user.email}) launched experiment Launch watch`);
    // The exact time is in a <time>, with its ISO value.
    await expect(entry.locator('time').getAttribute('datetime')).resolves.toMatch(/^\d{4}-\d{2}-\d{2}T/);
    // The launch is the start date's change, shown as its diff.
    await expect(entry.getByRole('row').filter({ hasText: 'start_date' }).count()).resolves.toBe(1);
    await expectAccessible(page);

    await entry.getByRole('link', { name: 'Launch watch' }).click();
    await page.waitForURL(`**/experiments/${experiment.body.id}`);
  }, 90_000);

  it("shows a flag edit's diff, narrows by scope and pages on the server", async () => {
    const flag = await rest(`${projectPath()}/feature_flags/`, 'POST', { key: 'feed-watched', name: 'Before', filters: EVERYONE });
    await rest(`${projectPath()}/feature_flags/${flag.body.id}/`, 'PATCH', { name: 'After' });
    const cohort = await rest(`${projectPath()}/cohorts/`, 'POST', { name: 'Feed cohort', is_static: true });
    expect(cohort.status).toBe(201);
    const experiment = await rest(`${projectPath()}/experiments/`, 'POST', {
      name: 'Feed experiment',
      feature_flag_key: 'feed-experiment',
      parameters: {},
      filters: FUNNEL,
    });
    expect(experiment.status).toBe(201);
    for (let i = 0; i < 21; i++) await rest(`${projectPath()}/feature_flags/`, 'POST', { key: `feed-paged-${i}`, filters: EVERYONE });

    const { page } = await open();
    const asked: Array<Record<string, unknown>> = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/graphql') && request.postData()?.includes('ConsoleActivity('))
        asked.push(JSON.parse(request.postData()!).variables);
    });
    await signIn(page, world.owner.key);
    await page.goto(`${app.baseUrl}/activity`);

    const total = async (scope: string | null) =>
      (
        await app.graphql(
          'query ($projectId: ID!, $scope: ActivityScope) { activity(projectId: $projectId, scope: $scope) { totalCount } }',
          { projectId: String(world.project.id), scope },
          world.owner.key,
        )
      ).body.data.activity.totalCount as number;
    const all = await total(null);
    expect(all).toBeGreaterThan(20);
    await page.getByText(`Page 1 of ${Math.ceil(all / 20)}`).waitFor();
    await expect(page.locator('.activity-entry').count()).resolves.toBe(20);
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.getByText(`Page 2 of ${Math.ceil(all / 20)}`).waitFor();
    expect(asked.at(-1)).toMatchObject({ page: 2, limit: 20, scope: null });
    await expectAccessible(page);

    // The flag edit: its name before and after.
    await page.getByRole('button', { name: 'Previous page' }).click();
    await page.getByText(`Page 1 of`).waitFor();
    await page.getByRole('combobox', { name: 'Scope' }).selectOption({ label: 'Feature flags' });
    await page.getByText(`${await total('FeatureFlag')} changes, newest first.`).waitFor();
    expect(asked.at(-1)).toMatchObject({ page: 1, scope: 'FeatureFlag' });
    await page.goto(`${app.baseUrl}/activity?scope=FeatureFlag&page=2`);
    const edit = page.getByRole('listitem').filter({ hasText: 'updated feature flag feed-watched' });
    await edit.waitFor();
    await expect(edit.getByRole('row').filter({ hasText: 'name' }).first().textContent()).resolves.toContain('BeforeAfter');
    await expectAccessible(page);

    // Cohorts only: the one cohort, linked to its page; no flag or experiment entry.
    await page.getByRole('combobox', { name: 'Scope' }).selectOption({ label: 'Cohorts' });
    await page.getByText('1 change, newest first.').waitFor();
    await expect(page.locator('.activity-entry').count()).resolves.toBe(1);
    await expect(page.locator('.activity-entry a').getAttribute('href')).resolves.toBe(`/cohorts/${cohort.body.id}`);
    await page.getByText('Page 1 of 1').waitFor();

    // Experiments only.
    await page.getByRole('combobox', { name: 'Scope' }).selectOption({ label: 'Experiments' });
    await page.getByText(`${await total('Experiment')} changes, newest first.`).waitFor();
    const hrefs = await page.locator('.activity-entry a').evaluateAll((links: any[]) => links.map((a) => a.getAttribute('href')));
    expect(hrefs.length).toBeGreaterThan(0);
    expect(hrefs.every((href: string) => href.startsWith('/experiments/'))).toBe(true);
    await expectAccessible(page);

    await page.getByRole('combobox', { name: 'Scope' }).selectOption({ label: 'All' });
    await page.getByText(`${all} changes, newest first.`).waitFor();
    // The older page holds the edits with their diffs: the picture docs/console.md shows.
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.getByText('Page 2 of').waitFor();
    await page.getByRole('listitem').filter({ hasText: 'updated feature flag feed-watched' }).waitFor();
    if (process.env.CONSOLE_SCREENSHOTS) await page.screenshot({ path: 'docs/console/activity.png', fullPage: true });

    // A flag's History tab shows its entries the same way.
    await page.goto(`${app.baseUrl}/feature-flags/${flag.body.id}?tab=History`);
    const history = page.getByRole('listitem').filter({ hasText: 'updated' });
    await expect(history.getByRole('row').filter({ hasText: 'name' }).first().textContent()).resolves.toContain('BeforeAfter');
    await expectAccessible(page);
    if (process.env.CONSOLE_SCREENSHOTS) await page.screenshot({ path: 'docs/console/flag-history.png' });
  }, 120_000);

  it('lets an admin create a role, add a member and grant it a flag from the role page, then revoke', async () => {
    const flag = await rest(`${projectPath()}/feature_flags/`, 'POST', {
      key: 'role-target',
      name: 'Guarded by a role',
      filters: EVERYONE,
    });
    const { page } = await open();
    await signIn(page, world.owner.key);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Roles' }).click();
    await page.getByRole('heading', { name: 'Roles', level: 1 }).waitFor();
    await expectAccessible(page);

    await page.getByRole('textbox', { name: 'Role name' }).fill('Release managers');
    await page.getByRole('combobox', { name: 'Flag access' }).selectOption('CAN_ONLY_VIEW');
    await page.getByRole('button', { name: 'Create role' }).click();
    await page.getByRole('status').filter({ hasText: 'Created Release managers.' }).waitFor();
    const row = page.getByRole('row').filter({ hasText: 'Release managers' });
    await expect(row.textContent()).resolves.toContain('Can only view flags');
    // A taken name is refused at the field.
    await page.getByRole('textbox', { name: 'Role name' }).fill('release MANAGERS');
    await page.getByRole('button', { name: 'Create role' }).click();
    await page.getByText('There is already a role with this name.').waitFor();
    await expect(page.getByRole('textbox', { name: 'Role name' }).getAttribute('aria-invalid')).resolves.toBe('true');
    await expectAccessible(page);

    await row.getByRole('link', { name: 'Release managers' }).click();
    await page.getByRole('heading', { name: 'Release managers', level: 1 }).waitFor();
    await page.getByRole('combobox', { name: 'Organization member' }).selectOption({ label: `User (${member.user.email})` });
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.getByRole('button', { name: `Remove ${member.user.email}` }).waitFor();

    await page.getByRole('searchbox', { name: 'Find a flag' }).fill('role-target');
    await page.getByRole('button', { name: 'Search flags' }).click();
    await page.getByRole('button', { name: 'Grant role-target' }).click();
    await page.getByRole('button', { name: 'Revoke role-target' }).waitFor();
    await expectAccessible(page);
    if (process.env.CONSOLE_SCREENSHOTS) await page.screenshot({ path: 'docs/console/role.png', fullPage: true });

    const roles = (await rest(`${rolesPath()}/`)).body.results;
    const role = roles.find((r: { name: string }) => r.name === 'Release managers');
    expect(role.members.map((m: { user: { email: string } }) => m.user.email)).toEqual([member.user.email]);
    expect(role.associated_flags).toEqual([{ id: flag.body.id, key: 'role-target' }]);
    const access = await rest(`${projectPath()}/feature_flags/${flag.body.id}/role_access`);
    expect(access.body.results.map((r: { role: { id: string } }) => r.role.id)).toEqual([role.id]);

    // The flag's Permissions tab lists the role.
    await page.getByRole('link', { name: 'role-target' }).click();
    await page.getByRole('heading', { name: 'Roles that can edit' }).waitFor();
    await page.getByRole('button', { name: 'Revoke Release managers' }).waitFor();

    await page.goBack();
    await page.getByRole('button', { name: 'Revoke role-target' }).click();
    await page.getByText('No flag has been granted to this role.').waitFor();
    expect((await rest(`${projectPath()}/feature_flags/${flag.body.id}/role_access`)).body.count).toBe(0);
    await page.getByRole('button', { name: `Remove ${member.user.email}` }).click();
    await page.getByText('No members yet.').waitFor();
  }, 120_000);

  it('renames a role, and deletes it after confirming', async () => {
    const created = await rest(`${rolesPath()}/`, 'POST', { name: 'Short lived' });
    const { page } = await open();
    await signIn(page, world.owner.key);
    await page.goto(`${app.baseUrl}/roles/${created.body.id}`);
    await page.getByRole('textbox', { name: 'Role name' }).fill('Renamed role');
    await page.getByRole('combobox', { name: 'Flag access' }).selectOption('CAN_ALWAYS_EDIT');
    await page.getByRole('button', { name: 'Save role' }).click();
    await page.getByRole('heading', { name: 'Renamed role', level: 1 }).waitFor();
    expect((await rest(`${rolesPath()}/${created.body.id}`)).body).toMatchObject({ name: 'Renamed role', feature_flags_access_level: 37 });
    await page.getByRole('button', { name: 'Delete role' }).click();
    await page.getByRole('alertdialog').waitFor();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Delete Renamed role' }).click();
    await page.getByRole('heading', { name: 'Roles', level: 1 }).waitFor();
    expect((await rest(`${rolesPath()}/${created.body.id}`)).status).toBe(404);
  }, 90_000);

  it('shows a member who is not an admin the roles without admin controls', async () => {
    const role = await rest(`${rolesPath()}/`, 'POST', { name: 'Read only view' });
    const { page } = await open();
    await signIn(page, member.key);
    await page.goto(`${app.baseUrl}/roles`);
    await page.getByText('Only organization admins can change roles').waitFor();
    await page.getByRole('link', { name: 'Read only view' }).waitFor();
    await expect(page.getByRole('button', { name: 'Create role' }).count()).resolves.toBe(0);
    await expectAccessible(page);

    await page.getByRole('link', { name: 'Read only view' }).click();
    await page.getByRole('heading', { name: 'Read only view', level: 1 }).waitFor();
    await page.getByText('No members yet.').waitFor();
    for (const name of ['Save role', 'Delete role', 'Add member', 'Search flags'])
      await expect(page.getByRole('button', { name }).count()).resolves.toBe(0);
    await expectAccessible(page);
    // The server refuses the member too: the console's hiding is not the only guard.
    const refused = await app.request(`${rolesPath()}/${role.body.id}`, { method: 'DELETE', key: member.key });
    expect(refused.status).toBe(403);
  }, 90_000);
});
