import AxeBuilder from '@axe-core/playwright';
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from './browser';
import { ensureBuilt } from './build';
import type { World } from './factories';
import { startTestApp, type ApiResponse, type TestApp } from './test-app';

/**
 * axe runs in the page itself (legacy mode: the console has no frames, so axe's cross-frame runner
 * and the blank page it opens to merge results buy nothing) from its minified build, and reports
 * violations only: a third of the default's cost per check, on ~80 checks a run.
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
      await context.route('**/*', async (route) => {
        const url = route.request().url();
        if (url.startsWith(`${base}/`)) return route.continue();
        problems.push(`request to another host: ${url}`);
        return route.abort();
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
      const { violations } = await new AxeBuilder({ page, axeSource: AXE_SOURCE })
        .setLegacyMode()
        .options({ resultTypes: ['violations'] })
        .analyze();
      const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    },
    rest: (path: string, method = 'GET', body?: unknown) => harness.app.request(path, { method, key: harness.world.owner.key, body }),
  } as ConsoleHarness;

  beforeAll(async () => {
    await ensureBuilt();
    harness.app = await startTestApp();
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
