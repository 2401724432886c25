// @slow: drives headless Chromium
import { get as httpGet } from 'node:http';
import { gzipSync } from 'node:zlib';
import { describeInBrowser } from '../helpers/browser';
import { ensureBuilt } from '../helpers/build';
import { useConsoleHarness } from '../helpers/console-browser';
import type { World } from '../helpers/factories';
import { CREDENTIAL_TTL_MS } from '../../src/app-caches';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * The console (docs/console.md) as people use it, in Debian's Chromium: sign in with a key, manage
 * flags end to end, and meet refusals as messages. Every page is checked with axe (no serious or
 * critical violation); any console error, or any request to another host, fails the test.
 */
const describeWithBrowser = describeInBrowser('test/browser/console.test.ts');

describeWithBrowser('the console in a browser', () => {
  const harness = useConsoleHarness();
  const { open, signIn, expectAccessible, rest } = harness;
  let app: TestApp;
  let world: World;
  let readOnlyKey: string;
  const flagsPath = () => `/api/projects/${world.project.id}/feature_flags`;

  beforeAll(async () => {
    ({ app, world } = harness);
    readOnlyKey = (await app.factories.member(world.organization, 'member', { scopes: ['feature_flag:read'] })).key;
  });

  it('signs in, creates a flag with two condition sets and three variants, and shows it', async () => {
    const { page } = await open();
    await page.goto(`${app.baseUrl}/`);
    await expectAccessible(page);
    await signIn(page, world.owner.key);
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Feature flags' }).count()).resolves.toBe(1);
    await expectAccessible(page);

    await page.getByRole('button', { name: 'New feature flag' }).click();
    await page.getByRole('textbox', { name: 'Key', exact: true }).fill('checkout-redesign');
    await page.getByRole('textbox', { name: 'Name' }).fill('Checkout redesign');
    await page.getByRole('button', { name: 'Add filter' }).first().click();
    await page.getByRole('textbox', { name: 'Property' }).fill('plan');
    await page.getByRole('textbox', { name: 'Value' }).fill('pro');
    await page.getByRole('spinbutton', { name: 'Rollout percentage' }).first().fill('50');
    await page.getByRole('button', { name: 'Add condition set' }).click();
    await expect(page.getByRole('spinbutton', { name: 'Rollout percentage' }).count()).resolves.toBe(2);
    for (const [i, [key, rollout]] of [
      ['control', '34'],
      ['red', '33'],
      ['blue', '30'],
    ].entries()) {
      await page.getByRole('button', { name: 'Add variant' }).click();
      await page.getByRole('textbox', { name: 'Variant key' }).nth(i).fill(key);
      await page.getByRole('spinbutton', { name: 'Variant rollout' }).nth(i).fill(rollout);
    }
    // Checked as you type: 97 is refused before anything is sent.
    await page.getByText('Variant rollouts must sum to 100 (now 97).').waitFor();
    await page.getByRole('spinbutton', { name: 'Variant rollout' }).nth(2).fill('33');
    await page.getByText('Variant rollouts sum to 100.').waitFor();
    await page.getByRole('textbox', { name: 'Payload for red' }).fill('{"color": ');
    await page.getByText('Not valid JSON.').waitFor();
    await page.getByRole('textbox', { name: 'Payload for red' }).fill('{"color": "red"}');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'checkout-redesign' }).waitFor();
    await expectAccessible(page);

    const list = await rest(`${flagsPath()}/?search=checkout-redesign`);
    const [flag] = list.body.results;
    expect(flag.filters.groups).toEqual([
      { properties: [{ key: 'plan', type: 'person', operator: 'exact', value: 'pro' }], rollout_percentage: 50 },
      { properties: [], rollout_percentage: 100 },
    ]);
    expect(flag.filters.multivariate.variants.map((v: any) => [v.key, v.rollout_percentage])).toEqual([
      ['control', 34],
      ['red', 33],
      ['blue', 33],
    ]);
    expect(flag.filters.payloads).toEqual({ red: '{"color": "red"}' });
  });

  it("isolates stored text: a tag with a right-to-left override cannot reorder the console's words after it", async () => {
    const created = await rest(`${flagsPath()}/`, 'POST', {
      key: 'bidi-tags',
      tags: ['a\u202eorp', 'beta'],
      filters: { groups: [{ properties: [], rollout_percentage: 100 }] },
    });
    expect(created.status).toBe(201);
    const { page } = await open();
    await page.goto(`${app.baseUrl}/`);
    await signIn(page, world.owner.key);
    await page.goto(`${app.baseUrl}/feature-flags/${created.body.id}`);
    const tags = page.locator('p.muted bdi');
    await tags.last().waitFor();
    const [first, second] = await Promise.all([tags.nth(1).boundingBox(), tags.nth(2).boundingBox()]);
    // Tags are stored sorted: the overriding one comes first. Isolated, the override ends with its tag and
    // "beta" stays to its right; unisolated, it reversed the rest of the line and laid "beta" out to its left.
    expect(second!.x).toBeGreaterThanOrEqual(first!.x + first!.width - 1);
    await expectAccessible(page);
  });

  it('wraps a 20,000-character name instead of widening the list or the flag page', async () => {
    const created = await rest(`${flagsPath()}/`, 'POST', {
      key: 'long-name',
      name: 'n'.repeat(20_000),
      filters: { groups: [{ properties: [], rollout_percentage: 100 }] },
    });
    expect(created.status).toBe(201);
    const usualKey = 'long-name-neighbour';
    expect((await rest(`${flagsPath()}/`, 'POST', { key: usualKey, name: 'short', filters: { groups: [] } })).status).toBe(201);
    const { page } = await open();
    await signIn(page, world.owner.key);
    const sideways = () =>
      page.evaluate(() => {
        const root = (globalThis as any).document.documentElement;
        return root.scrollWidth - root.clientWidth;
      });
    const key = page.getByRole('link', { name: 'long-name', exact: true });
    await key.waitFor();
    await expect(sideways()).resolves.toBeLessThanOrEqual(0);
    // The key beside it keeps its word: one line, as tall as a one-line key of another row.
    const [long, usual] = await Promise.all([key.boundingBox(), page.getByRole('link', { name: usualKey, exact: true }).boundingBox()]);
    expect(long!.height).toBe(usual!.height);
    await page.goto(`${app.baseUrl}/feature-flags/${created.body.id}`);
    await page.getByRole('heading', { name: 'long-name' }).waitFor();
    await expect(sideways()).resolves.toBeLessThanOrEqual(0);
  });

  it('toggles a flag, and shows a concurrent edit as a conflict instead of overwriting it', async () => {
    const created = await rest(`${flagsPath()}/`, 'POST', {
      key: 'toggled',
      filters: { groups: [{ properties: [], rollout_percentage: 100 }] },
    });
    const { page } = await open();
    await signIn(page, world.owner.key);
    const toggle = page.getByRole('switch', { name: 'Active: toggled' });
    await expect(toggle.getAttribute('aria-checked')).resolves.toBe('true');
    await toggle.click();
    await page.waitForFunction(
      () => (globalThis as any).document.querySelector('[aria-label="Active: toggled"]')?.getAttribute('aria-checked') === 'false',
    );
    expect((await rest(`${flagsPath()}/${created.body.id}/`)).body.active).toBe(false);

    // Someone else changes it meanwhile: the toggle now carries a stale version.
    expect((await rest(`${flagsPath()}/${created.body.id}/`, 'PATCH', { name: 'Renamed elsewhere' })).status).toBe(200);
    await toggle.click();
    await page.getByRole('alert').filter({ hasText: 'Changed by someone else' }).waitFor();
    expect((await rest(`${flagsPath()}/${created.body.id}/`)).body.active).toBe(false);
    await expectAccessible(page);
  });

  it('shows a server refusal next to the field its attr names', async () => {
    await rest(`${flagsPath()}/`, 'POST', { key: 'taken', filters: { groups: [{ properties: [], rollout_percentage: 100 }] } });
    const { page } = await open();
    await signIn(page, world.owner.key);
    await page.getByRole('button', { name: 'New feature flag' }).click();
    await page.getByRole('textbox', { name: 'Key', exact: true }).fill('taken');
    await page.getByRole('button', { name: 'Save' }).click();
    const key = page.getByRole('textbox', { name: 'Key', exact: true });
    await page.waitForFunction(() => (globalThis as any).document.getElementById('flag-key')?.getAttribute('aria-invalid') === 'true');
    await expect(page.locator('#flag-key-error').textContent()).resolves.toBe('There is already a feature flag with this key.');
    await expect(key.getAttribute('aria-describedby')).resolves.toBe('flag-key-error');
    await expectAccessible(page);
  });

  it('shows a read-only key no edit control', async () => {
    await rest(`${flagsPath()}/`, 'POST', { key: 'looked-at', filters: { groups: [{ properties: [], rollout_percentage: 100 }] } });
    const { page } = await open();
    await signIn(page, readOnlyKey);
    await page.getByRole('link', { name: 'looked-at' }).waitFor();
    await expect(page.getByRole('button', { name: 'New feature flag' }).count()).resolves.toBe(0);
    await expect(page.getByRole('switch').count()).resolves.toBe(0);
    await page.getByRole('link', { name: 'looked-at' }).click();
    await page.getByRole('tab', { name: 'Overview' }).waitFor();
    await expect(page.getByRole('button', { name: 'Edit' }).count()).resolves.toBe(0);
    await expectAccessible(page);
  });

  it('fails the accessibility check on a page with a nameless button', async () => {
    const { page } = await open();
    await signIn(page, world.owner.key);
    await page.evaluate("document.querySelector('main').append(document.createElement('button'))");
    await expect(expectAccessible(page)).rejects.toThrow(/button-name/);
  });

  it('refuses a key without the phx_ prefix at the field, naming the CLI command that makes one', async () => {
    const { page } = await open();
    await page.goto(`${app.baseUrl}/`);
    await page.getByRole('textbox', { name: 'Personal API key' }).fill('phc_a_project_token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('A personal API key starts with phx_. Create one with the CLI (key:create) or the API.').waitFor();
    await expectAccessible(page);
  });

  it('returns a revoked key to the sign-in page with the reason', async () => {
    const member = await app.factories.member(world.organization, 'member');
    const { page } = await open();
    await signIn(page, member.key);
    const revoked = await app.request('/api/personal_api_keys/@current/', { method: 'DELETE', key: member.key });
    expect(revoked.status).toBe(204);
    // A revoked key is refused everywhere once its lookup expires (README, "A user's own keys").
    app.clock.advance(CREDENTIAL_TTL_MS + 1);
    await page.reload();
    await page.getByRole('alert').filter({ hasText: 'Signed out:' }).waitFor();
    await page.getByRole('textbox', { name: 'Personal API key' }).waitFor();
  });

  it('history shows the diff of an edit; the evaluate tab equals evaluation_reasons', async () => {
    const created = await rest(`${flagsPath()}/`, 'POST', {
      key: 'watched',
      name: 'Before',
      filters: { groups: [{ properties: [{ key: 'plan', type: 'person', value: 'pro' }], rollout_percentage: 100 }] },
    });
    await rest(`${flagsPath()}/${created.body.id}/`, 'PATCH', { name: 'After' });
    const { page } = await open();
    await signIn(page, world.owner.key);
    await page.getByRole('link', { name: 'watched' }).click();
    await page.getByText(/affects \d+ of \d+ persons/).waitFor();
    await expectAccessible(page);
    await page.getByRole('tab', { name: 'History' }).click();
    const row = page.getByRole('row').filter({ hasText: 'name' });
    await row.first().waitFor();
    await expect(row.first().textContent()).resolves.toContain('BeforeAfter');
    await expectAccessible(page);

    await page.getByRole('tab', { name: 'Permissions' }).click();
    await page.getByRole('heading', { name: 'Roles that can edit' }).waitFor();
    await expectAccessible(page);

    await page.getByRole('tab', { name: 'Evaluate' }).click();
    await page.getByRole('textbox', { name: 'Distinct id' }).fill('someone');
    await page.getByRole('button', { name: 'Evaluate' }).click();
    await page.getByRole('table').waitFor();
    const shown = await page
      .getByRole('table')
      .locator('tbody tr')
      .evaluateAll((rows: any[]) => rows.map((row) => Array.from(row.querySelectorAll('td')).map((cell: any) => cell.textContent)));
    const reasons = (await rest(`${flagsPath()}/evaluation_reasons?distinct_id=someone`)).body;
    const expected = Object.entries(reasons).map(([key, r]: [string, any]) => [
      key,
      JSON.stringify(r.value),
      r.evaluation.reason,
      r.evaluation.condition_index === null ? '—' : `Condition set ${r.evaluation.condition_index + 1}`,
    ]);
    expect(shown.sort()).toEqual(expected.sort());
    await expectAccessible(page);
  });

  it('pages the list on the server, 20 flags at a time, and searches there', async () => {
    for (let i = 0; i < 25; i++)
      await rest(`${flagsPath()}/`, 'POST', { key: `paged-${i}`, filters: { groups: [{ properties: [], rollout_percentage: 100 }] } });
    const { page } = await open();
    const asked: Array<Record<string, unknown>> = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/graphql') && request.postData()?.includes('ConsoleFlags'))
        asked.push(JSON.parse(request.postData()!).variables);
    });
    await signIn(page, world.owner.key);
    await page.getByRole('searchbox', { name: 'Search' }).fill('paged-');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('Page 1 of 2 (25 flags)').waitFor();
    await expect(page.getByRole('table').locator('tbody tr').count()).resolves.toBe(20);
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.getByText('Page 2 of 2 (25 flags)').waitFor();
    await expect(page.getByRole('table').locator('tbody tr').count()).resolves.toBe(5);
    expect(asked.at(-1)).toMatchObject({ limit: 20, offset: 20, search: 'paged-' });
    await expectAccessible(page);

    // The creator filter offers the flags' creators, and filters on the server.
    const member = await app.factories.member(world.organization, 'member');
    const other = await app.request(`${flagsPath()}/`, {
      method: 'POST',
      key: member.key,
      body: { key: 'paged-by-member', filters: { groups: [{ properties: [], rollout_percentage: 100 }] } },
    });
    expect(other.status).toBe(201);
    await page.reload();
    await page.getByRole('combobox', { name: 'Creator' }).selectOption({ label: member.user.email });
    await page.getByText('Page 1 of 1 (1 flags)').waitFor();
    await page.getByRole('link', { name: 'paged-by-member' }).waitFor();
    expect(asked.at(-1)).toMatchObject({ createdById: member.user.id });
  }, 60_000);

  it('grants a role edit access to a flag, and revokes it', async () => {
    const role = await app.request(`/api/organizations/${world.organization.id}/roles`, {
      method: 'POST',
      key: world.owner.key,
      body: { name: 'Checkout team' },
    });
    expect(role.status).toBe(201);
    const created = await rest(`${flagsPath()}/`, 'POST', {
      key: 'guarded',
      filters: { groups: [{ properties: [], rollout_percentage: 100 }] },
    });
    const { page } = await open();
    await signIn(page, world.owner.key);
    await page.goto(`${app.baseUrl}/feature-flags/${created.body.id}?tab=Permissions`);
    await page.getByRole('combobox', { name: 'Role' }).selectOption({ label: 'Checkout team' });
    await page.getByRole('button', { name: 'Grant access' }).click();
    await page.getByRole('button', { name: 'Revoke Checkout team' }).waitFor();
    const granted = await rest(`${flagsPath()}/${created.body.id}/role_access`);
    expect(granted.body.results.map((r: any) => r.role.name)).toEqual(['Checkout team']);
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Revoke Checkout team' }).click();
    await page.getByText('No role has been given access').waitFor();
    expect((await rest(`${flagsPath()}/${created.body.id}/role_access`)).body.count).toBe(0);
  });

  it('creates a flag with the keyboard alone, and deletes it after confirming', async () => {
    const { page } = await open();
    await signIn(page, world.owner.key);
    const focused = () => page.evaluate(() => (globalThis as any).document.activeElement?.textContent ?? '');
    const tabTo = async (test: () => Promise<boolean>) => {
      for (let i = 0; i < 40 && !(await test()); i++) await page.keyboard.press('Tab');
      expect(await test()).toBe(true);
    };
    await tabTo(async () => (await focused()) === 'New feature flag');
    await page.keyboard.press('Enter');
    await page.getByRole('textbox', { name: 'Key', exact: true }).waitFor();
    await tabTo(async () => (await page.evaluate(() => (globalThis as any).document.activeElement?.id)) === 'flag-key');
    await page.keyboard.type('typed-by-keyboard');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Typed');
    await page.keyboard.press('Enter'); // submits the form
    await page.getByRole('heading', { name: 'typed-by-keyboard' }).waitFor();
    expect((await rest(`${flagsPath()}/?search=typed-by-keyboard`)).body.count).toBe(1);

    await tabTo(async () => (await focused()) === 'Delete');
    await page.keyboard.press('Enter');
    await page.getByRole('alertdialog').waitFor();
    await expectAccessible(page);
    await tabTo(async () => (await focused()) === 'Delete typed-by-keyboard');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Feature flags' }).waitFor();
    await expect(page.getByRole('link', { name: 'typed-by-keyboard' }).count()).resolves.toBe(0);
    expect((await rest(`${flagsPath()}/?search=typed-by-keyboard`)).body.count).toBe(0);
  });
});

const statusOf = (url: string, headers: Record<string, string>) =>
  new Promise<number | undefined>((resolve, reject) => {
    httpGet(url, { headers }, (res) => {
      res.resume();
      resolve(res.statusCode);
    }).on('error', reject);
  });

describe('the console as served', () => {
  let app: TestApp;
  beforeAll(async () => {
    await ensureBuilt();
    app = await startTestApp();
  }, 180_000);
  afterAll(() => app.close());

  it('serves index.html at console paths, revalidated, under a strict policy; hashed assets for a year', async () => {
    for (const path of ['/', '/feature-flags', '/feature-flags/12/edit', '/experiments']) {
      const res = await fetch(`${app.baseUrl}${path}`, { headers: { accept: 'text/html' } });
      expect([path, res.status, res.headers.get('cache-control')]).toEqual([path, 200, 'no-cache']);
      const policy = res.headers.get('content-security-policy')!;
      expect(policy).toContain("script-src 'self'");
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).not.toContain('unsafe-inline');
      const html = await res.text();
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/); // no inline script
      expect(html).not.toMatch(/https?:\/\//); // nothing from elsewhere
      const etag = res.headers.get('etag')!;
      // node:http, since fetch marks a conditional request `Cache-Control: no-cache`, which forbids a 304.
      expect(await statusOf(`${app.baseUrl}${path}`, { accept: 'text/html', 'if-none-match': etag })).toBe(304);
      const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1];
      // The first load's JavaScript, gzipped, stays within 300 KB (every script index.html names).
      const scripts = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]);
      let gzipped = 0;
      for (const file of scripts) gzipped += gzipSync(Buffer.from(await (await fetch(`${app.baseUrl}${file}`)).arrayBuffer())).length;
      expect(gzipped).toBeLessThan(300 * 1024);
      const script = await fetch(`${app.baseUrl}${asset}`);
      expect([script.status, script.headers.get('cache-control')]).toEqual([200, 'public, max-age=31536000, immutable']);
      expect(script.headers.get('content-type')).toContain('javascript');
    }
  });

  it('labels its requests in metrics and the access log by pattern, never by path', async () => {
    await fetch(`${app.baseUrl}/feature-flags/12345`, { headers: { accept: 'text/html' } });
    const metrics = await (await fetch(`${app.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/flagship_http_requests_total\{[^}]*route="\(console\)"/);
    expect(metrics).not.toContain('12345');
  });

  it('leaves the API alone: unknown assets and API paths answer as before', async () => {
    expect((await fetch(`${app.baseUrl}/assets/nothing-here.js`)).status).toBe(404);
    // Dot segments sent as they are (a URL would resolve them): a directory is not an asset.
    const { hostname, port } = new URL(app.baseUrl);
    for (const path of ['/assets/..', '/assets/.']) {
      const status = await new Promise<number | undefined>((resolve, reject) => {
        httpGet({ hostname, port, path }, (res) => {
          res.resume();
          resolve(res.statusCode);
        }).on('error', reject);
      });
      expect([path, status]).toEqual([path, 404]);
    }
    expect((await fetch(`${app.baseUrl}/flags/?v=2`, { method: 'POST', body: '{}' })).status).toBe(401);
    expect((await fetch(`${app.baseUrl}/api/projects/`, { headers: { accept: 'text/html' } })).status).not.toBe(200);
  });
});
