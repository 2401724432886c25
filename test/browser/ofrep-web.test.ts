// @slow: the OpenFeature web SDK in Chromium over 300 persons
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { describeInBrowser, launchChromium } from '../helpers/browser';
import type { World } from '../helpers/factories';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { DEFAULTS, OFREP_FLAGS, PEOPLE, expectedDetails, seedOfrepWorld } from '../openfeature/ofrep-fixtures';

/**
 * docs/openfeature.md ("How it is tested"): `@openfeature/web-sdk` with `@openfeature/ofrep-web-provider`,
 * bundled for the page by this test (Vite, offline), in Debian's headless Chromium on another origin
 * than the service (CORS with `Authorization` and `If-None-Match`, "Endpoints"). For 300 stored
 * persons, one bulk evaluation each, a boolean, a string and an object flag equal evaluation_reasons
 * (value, variant, reason: "Values", "Reasons"), 100%; a missing flag gives the default with
 * FLAG_NOT_FOUND; polling sends the ETag back and gets 304 ("Caching"). No request fails, nor does
 * the console show an error; a request to any other host is aborted and fails the test.
 */
const describeWithBrowser = describeInBrowser('test/browser/ofrep-web.test.ts');

const PAGE =
  '<!doctype html><html><head><meta charset="utf-8"><title>shop</title><script src="/ofrep-web.js"></script></head><body></body></html>';

/** The web SDK and its provider as one script for the page (test/helpers/bundle-ofrep-web.mjs). */
function bundle(): string {
  return execFileSync(process.execPath, [path.join(__dirname, '../helpers/bundle-ofrep-web.mjs')], {
    encoding: 'utf8',
    maxBuffer: 16 << 20,
  });
}

async function startSite(script: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    if (req.url === '/ofrep-web.js') res.writeHead(200, { 'content-type': 'application/javascript' }).end(script);
    else if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

interface Seen {
  value: unknown;
  variant?: string;
  reason?: string;
  errorCode?: string;
}

describeWithBrowser('the OpenFeature web SDK with its OFREP provider', () => {
  let app: TestApp;
  let world: World;
  let site: { url: string; server: Server };
  let browser: Browser;
  let page: Page;
  const calls: string[] = [];
  const failed: string[] = [];
  const foreign: string[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    app = await startTestApp();
    world = await app.factories.world();
    await seedOfrepWorld(app, world);
    site = await startSite(bundle());
    browser = await launchChromium();
    const context = await browser.newContext();
    page = await context.newPage();
    await context.route('**/*', async (route) => {
      const url = route.request().url();
      if (url.startsWith(`${app.baseUrl}/`)) {
        const headers = route.request().headers();
        calls.push(`${route.request().method()} ${new URL(url).pathname} ${headers['if-none-match'] ?? '-'}`);
        return route.continue();
      }
      if (url.startsWith(`${site.url}/`)) return route.continue();
      foreign.push(url);
      return route.abort();
    });
    page.on('response', (response) => {
      if (response.url().startsWith(app.baseUrl)) calls.push(`${response.status()} ${new URL(response.url()).pathname}`);
      if (response.url().startsWith(app.baseUrl) && response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    page.on('requestfailed', (request) => failed.push(`failed ${request.method()} ${request.url()} ${request.failure()?.errorText}`));
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(site.url);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => site?.server.close(resolve));
    await app?.close();
  });

  it('a boolean, a string and an object flag equal evaluation_reasons for every stored person; a missing flag is FLAG_NOT_FOUND', async () => {
    const persons = Array.from({ length: PEOPLE }, (_, i) => `person-${i}`);
    const seen = (await page.evaluate(
      async ({ baseUrl, token, persons, defaults }) => {
        const { OpenFeature, OFREPWebProvider } = globalThis as any;
        const pick = (details: any) => ({
          value: details.value,
          variant: details.variant,
          reason: details.reason,
          errorCode: details.errorCode,
        });
        await OpenFeature.setContext('oracle', { targetingKey: persons[0] });
        await OpenFeature.setProviderAndWait(
          'oracle',
          new OFREPWebProvider({
            baseUrl,
            headers: [['Authorization', `Bearer ${token}`]],
            cacheMode: 'disabled',
            changeDetection: 'none',
          }),
        );
        const client = OpenFeature.getClient('oracle');
        const answers: Record<string, Record<string, unknown>> = {};
        for (const id of persons) {
          await OpenFeature.setContext('oracle', { targetingKey: id });
          answers[id] = {
            'ofrep-bool': pick(client.getBooleanDetails('ofrep-bool', defaults['ofrep-bool'])),
            'ofrep-string': pick(client.getStringDetails('ofrep-string', defaults['ofrep-string'])),
            'ofrep-object': pick(client.getObjectDetails('ofrep-object', defaults['ofrep-object'])),
            missing: pick(client.getBooleanDetails('no-such-flag', true)),
          };
        }
        return answers;
      },
      { baseUrl: app.baseUrl, token: world.project.apiToken, persons, defaults: DEFAULTS },
    )) as Record<string, Record<string, Seen>>;

    const disagreements: unknown[] = [];
    const variants = new Set<unknown>();
    for (const id of persons) {
      const reasons = (
        await app.request(`/api/projects/${world.project.id}/feature_flags/evaluation_reasons?distinct_id=${id}`, { key: world.owner.key })
      ).body;
      for (const flag of OFREP_FLAGS) {
        const want = expectedDetails(flag.key, reasons[flag.key]);
        const got = seen[id][flag.key];
        if (JSON.stringify(got) !== JSON.stringify(want)) disagreements.push({ id, key: flag.key, got, want });
        variants.add(`${flag.key}:${JSON.stringify(got.value)}`);
      }
      expect(seen[id].missing).toEqual({ value: true, reason: 'ERROR', errorCode: 'FLAG_NOT_FOUND' });
    }
    expect(disagreements).toEqual([]);
    // Two booleans, three variants and the default, three payloads and the default.
    expect(variants.size).toBe(2 + 4 + 4);
    // One bulk evaluation per context, each after a preflight the service answered.
    expect(calls.filter((call) => call.startsWith('POST /ofrep/v1/evaluate/flags ')).length).toBe(PEOPLE + 1);
    expect([failed, foreign, errors]).toEqual([[], [], []]);
  }, 300_000);

  it('polls with the last ETag and gets 304 while the answer is unchanged', async () => {
    calls.length = 0;
    await page.evaluate(
      async ({ baseUrl, token }) => {
        const { OpenFeature, OFREPWebProvider } = globalThis as any;
        await OpenFeature.setContext('polling', { targetingKey: 'person-7' });
        await OpenFeature.setProviderAndWait(
          'polling',
          new OFREPWebProvider({ baseUrl, headers: [['Authorization', `Bearer ${token}`]], cacheMode: 'disabled', pollInterval: 200 }),
        );
      },
      { baseUrl: app.baseUrl, token: world.project.apiToken },
    );
    const until = Date.now() + 20_000;
    while (!calls.includes('304 /ofrep/v1/evaluate/flags') && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
    const conditional = calls.filter((call) => /^POST \/ofrep\/v1\/evaluate\/flags "/.test(call));
    expect(conditional.length).toBeGreaterThan(0);
    expect(calls).toContain('304 /ofrep/v1/evaluate/flags');
    await page.evaluate(() => (globalThis as any).OpenFeature.clearProviders());
    expect([failed, foreign, errors]).toEqual([[], [], []]);
  }, 60_000);
});
