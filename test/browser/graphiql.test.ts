// @slow: drives headless Chromium
import type { Browser, Page } from 'playwright-core';
import { describeInBrowser, launchChromium } from '../helpers/browser';
import type { World } from '../helpers/factories';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * GraphiQL as a user meets it: Debian's Chromium opens GET /graphql, the user writes a query and
 * an Authorization header, runs it, and reads the result. Every request the page makes must go to
 * this service (no CDN, no telemetry); anything else is aborted and fails the test.
 */
const describeWithBrowser = describeInBrowser('test/browser/graphiql.test.ts');

describeWithBrowser('GraphiQL in a browser', () => {
  let app: TestApp;
  let world: World;
  let browser: Browser;

  beforeAll(async () => {
    app = await startTestApp();
    world = await app.factories.world();
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  /** A page that records every request and CSP violation, and lets nothing leave for another host. */
  async function openPage(): Promise<{ page: Page; requested: string[]; foreign: string[]; errors: string[] }> {
    const context = await browser.newContext();
    const page = await context.newPage();
    const requested: string[] = [];
    const foreign: string[] = [];
    const errors: string[] = [];
    await context.route('**/*', async (route) => {
      const url = route.request().url();
      requested.push(url);
      if (url.startsWith(`${app.baseUrl}/`)) return route.continue();
      foreign.push(url);
      return route.abort();
    });
    await page.addInitScript({
      content: `window.__violations = [];
        document.addEventListener('securitypolicyviolation', (event) => window.__violations.push(event.violatedDirective + ' ' + event.blockedURI));`,
    });
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(`${app.baseUrl}/graphql`);
    await page.waitForSelector('.graphiql-query-editor .CodeMirror', { timeout: 20_000 });
    return { page, requested, foreign, errors };
  }

  /** Sets a CodeMirror editor's text the way typing would (GraphiQL listens to its change events). */
  async function setEditor(page: Page, selector: string, text: string) {
    await page.evaluate(
      ([sel, value]) => {
        const element = (globalThis as any).document.querySelector(sel);
        if (!element?.CodeMirror) throw new Error(`no editor at ${sel}`);
        element.CodeMirror.setValue(value);
      },
      [selector, text] as const,
    );
  }

  it('runs a query with a key from the headers editor and shows the result, all from this service', async () => {
    const { page, requested, foreign, errors } = await openPage();
    await setEditor(page, '.graphiql-query-editor .CodeMirror', '{ me { user { email } } }');
    // The headers editor is open from the start (the Headers tab of the editor tools).
    await setEditor(
      page,
      '.graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror',
      JSON.stringify({ Authorization: `Bearer ${world.owner.key}` }),
    );
    await page.click('.graphiql-execute-button');
    const result = page.locator('.graphiql-response .CodeMirror');
    await result.getByText(world.owner.user.email).waitFor({ timeout: 20_000 });
    const shown = JSON.parse(
      await page.evaluate(() => (globalThis as any).document.querySelector('.graphiql-response .CodeMirror').CodeMirror.getValue()),
    );
    expect(shown).toEqual({ data: { me: { user: { email: world.owner.user.email } } } });
    // The key is not kept in the browser: the history keeps the query, neither it nor the tabs keep headers.
    const stored = await page.evaluate(() => ({ ...(globalThis as any).localStorage }) as Record<string, string>);
    expect(JSON.parse(stored['graphiql:queries']).queries).toEqual([{ query: '{ me { user { email } } }', variables: '' }]);
    expect(JSON.stringify(stored)).not.toContain(world.owner.key);
    expect(foreign).toEqual([]);
    expect(await page.evaluate(() => (globalThis as any).__violations)).toEqual([]);
    expect(errors).toEqual([]);
    expect(requested.some((url) => url.endsWith('/graphql'))).toBe(true);
    expect(requested.filter((url) => url.includes('/graphql/assets/')).length).toBeGreaterThanOrEqual(4);
    await page.context().close();
  }, 60_000);
});

describe('the GraphiQL page over HTTP', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('is served to a request preferring HTML, with a self-only policy and no outside URL', async () => {
    const res = await app.request('/graphql', { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toMatch(/https?:|unsafe/);
    expect(res.text).not.toMatch(/https?:\/\//);
    const assets = [...res.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(assets.length).toBeGreaterThanOrEqual(5);
    for (const path of assets) {
      expect(path).toMatch(/^\/graphql\/assets\//);
      const asset = await fetch(`${app.baseUrl}${path}`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(asset.headers.get('content-type')).toMatch(/^(application\/javascript|text\/css); charset=utf-8$/);
      expect(asset.headers.get('content-security-policy')).toBe(csp);
      expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
  });

  it('leaves API requests to GraphQL: JSON for GET queries, 404 for unknown assets', async () => {
    const get = await app.request('/graphql?query=%7B__typename%7D');
    expect(get.status).toBe(200);
    expect(get.body).toEqual({ data: { __typename: 'Query' } });
    const missing = await app.request('/graphql/assets/nothing.js');
    expect(missing.status).toBe(404);
  });
});
