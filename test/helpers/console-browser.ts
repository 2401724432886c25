import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from './browser';
import { ensureBuilt } from './build';
import type { World } from './factories';
import { startTestApp, type ApiResponse, type TestApp } from './test-app';

/**
 * axe-core runs in the page: put there once per document from its minified build, then asked for
 * violations only. (@axe-core/playwright sent the 500 kB source again and ran its frame machinery on
 * every check, about two thirds of each check's time on ~80 checks a run; the console has no frames.)
 */
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * What every console browser suite needs (docs/console.md): a built service with a world, Chromium,
 * sessions that let nothing leave this host and record console errors (any fails the test in
 * afterEach), sign-in with a key, and axe (no serious or critical violation).
 */
export interface ConsoleSession {
  context: BrowserContext;
  page: Page;
  problems: string[];
}

export interface ConsoleHarness {
  app: TestApp;
  world: World;
  browser: Browser;
  /** A new browser context: requests to other hosts are aborted and recorded, as are console and page errors. */
  open(): Promise<ConsoleSession>;
  /** Signs in at `/` and waits for the flags list (the landing page). */
  signIn(page: Page, key: string): Promise<void>;
  expectAccessible(page: Page): Promise<void>;
  /** A REST call as the world's owner. */
  rest(path: string, method?: string, body?: unknown): Promise<ApiResponse<any>>;
}

/** Registers beforeAll/afterAll/afterEach and answers the harness, usable inside tests. */
export function useConsoleHarness(): ConsoleHarness {
  // A page walk with axe on every step takes seconds, more on a busy 2-core machine.
  jest.setTimeout(90_000);
  const sessions: ConsoleSession[] = [];
  const harness = {
    async open() {
      const context = await harness.browser.newContext();
      const page = await context.newPage();
      const problems: string[] = [];
      const base = harness.app.baseUrl;
      // Watched, not intercepted: Playwright turns the HTTP cache off while it routes requests, so every
      // page load fetched and compiled the console's scripts again. Chromium resolves no other host
      // (launchChromium), so such a request fails here and is recorded.
      page.on('request', (request) => {
        if (!request.url().startsWith(`${base}/`)) problems.push(`request to another host: ${request.url()}`);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
      });
      const session = { context, page, problems };
      sessions.push(session);
      return session;
    },
    async signIn(page: Page, key: string) {
      await page.goto(`${harness.app.baseUrl}/`);
      await page.getByRole('textbox', { name: 'Personal API key' }).fill(key);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page
        .getByRole('heading', { name: 'Feature flags' })
        .waitFor({ timeout: 10_000 })
        .catch(async (error: unknown) => {
          await page.screenshot({ path: '/tmp/console-signin.png' });
          throw error;
        });
    },
    async expectAccessible(page: Page) {
      if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(AXE_SOURCE);
      const violations = await page.evaluate(async () => {
        const { axe } = globalThis as unknown as { axe: typeof import('axe-core') };
        const { violations } = await axe.run({ resultTypes: ['violations'] });
        return violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(' ')) }));
      });
      const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(serious.map((v) => `${v.id}: ${v.targets.join(', ')}`)).toEqual([]);
    },
    rest: (path: string, method = 'GET', body?: unknown) => harness.app.request(path, { method, key: harness.world.owner.key, body }),
  } as ConsoleHarness;

  beforeAll(async () => {
    await ensureBuilt();
    // A browser stamps times of its own (an experiment's launch): the app's clock runs with it.
    harness.app = await startTestApp({ runningClock: true });
    harness.world = await harness.app.factories.world();
    harness.browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await harness.browser?.close();
    await harness.app?.close();
  });
  afterEach(async () => {
    const problems = sessions.flatMap((s) => s.problems);
    await Promise.all(sessions.splice(0).map((s) => s.context.close()));
    expect(problems).toEqual([]);
  });
  return harness;
}
