import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { describeInBrowser, launchChromium } from '../helpers/browser';
import type { World } from '../helpers/factories';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * docs/remote-evaluation.md ("How it is tested"): posthog-js from npm, its browser bundle served to a page by this test,
 * in Debian's headless Chromium, with `api_host` = this service. After identify and a reload its
 * flags equal evaluation_reasons; `capture` and the `$feature_flag_called` it sends are stored; and
 * no request to the service fails, nor does the console show an error. Every request the page makes
 * is recorded; one to any host but the page's and the service is aborted and fails the test.
 */
const describeWithBrowser = describeInBrowser('test/browser/posthog-js.test.ts');

const BUNDLE = readFileSync(require.resolve('posthog-js/dist/array.full.js'));
const PAGE =
  '<!doctype html><html><head><meta charset="utf-8"><title>shop</title><script src="/array.full.js"></script></head><body><button id="buy">Buy</button></body></html>';
/** PostHog's snippet as its docs give it: it loads `<api_host>/static/array.js` from the service. */
const SNIPPET_PAGE = readFileSync(`${__dirname}/../fixtures/posthog-snippet.html`, 'utf8');

/**
 * The shop's own site, on another origin than the service: `/` loads the posthog-js bundle the
 * site serves itself; `/snippet` holds PostHog's snippet, which loads everything from the service.
 */
async function startSite(token: string, apiHost: string): Promise<{ url: string; server: Server }> {
  const snippetPage = SNIPPET_PAGE.replace('__TOKEN__', token).replace('__API_HOST__', apiHost);
  const server = createServer((req, res) => {
    if (req.url === '/array.full.js') {
      res.writeHead(200, { 'content-type': 'application/javascript' }).end(BUNDLE);
    } else if (req.url === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    } else if (req.url === '/snippet') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(snippetPage);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** A /flags request's JSON body as posthog-js sends it (gzip, named or not; base64; a form's data; or plain JSON). */
function requestBody(url: string, body: Buffer | null): Record<string, unknown> | null {
  if (!body) return null;
  const compression = new URL(url).searchParams.get('compression');
  try {
    let data = body;
    if (compression === 'gzip-js' || compression === 'gzip' || (body[0] === 0x1f && body[1] === 0x8b)) data = gunzipSync(body);
    else if (compression === 'base64') data = Buffer.from(body.toString('latin1'), 'base64');
    const text = data.toString('utf8');
    const form = text.startsWith('data=') ? new URLSearchParams(text).get('data') : null;
    return JSON.parse(
      form === null ? text : /^\s*[[{]/.test(form) ? form : Buffer.from(form.replace(/ /g, '+'), 'base64').toString('utf8'),
    );
  } catch {
    return null;
  }
}

const FLAGS = [
  {
    key: 'pro-checkout',
    filters: { groups: [{ properties: [{ key: 'plan', type: 'person', value: 'pro', operator: 'exact' }], rollout_percentage: 100 }] },
  },
  { key: 'half', filters: { groups: [{ properties: [], rollout_percentage: 50 }] } },
  {
    key: 'button-color',
    filters: {
      groups: [{ properties: [], rollout_percentage: 100 }],
      multivariate: {
        variants: [
          { key: 'blue', rollout_percentage: 50 },
          { key: 'green', rollout_percentage: 50 },
        ],
      },
      payloads: { blue: '{"hex":"#00f"}', green: '{"hex":"#0f0"}' },
    },
  },
  {
    key: 'enterprise-only',
    filters: { groups: [{ properties: [{ key: 'plan', type: 'person', value: 'enterprise', operator: 'exact' }] }] },
  },
  { key: 'switched-off', active: false, filters: { groups: [{ properties: [], rollout_percentage: 100 }] } },
];

describeWithBrowser('posthog-js in a browser', () => {
  let app: TestApp;
  let world: World;
  let site: { url: string; server: Server };
  let browser: Browser;

  beforeAll(async () => {
    app = await startTestApp();
    world = await app.factories.world();
    for (const flag of FLAGS) {
      const res = await app.request(`/api/projects/${world.project.id}/feature_flags/`, {
        method: 'POST',
        key: world.owner.key,
        body: flag,
      });
      expect(res.status).toBe(201);
    }
    site = await startSite(world.project.apiToken, app.baseUrl);
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => site?.server.close(resolve));
    await app?.close();
  });

  interface Recorded {
    page: Page;
    /** `METHOD path` of every request to the service. */
    calls: string[];
    foreign: string[];
    failed: string[];
    errors: string[];
  }

  async function openShop(path: '/' | '/snippet'): Promise<Recorded> {
    const context = await browser.newContext();
    const page = await context.newPage();
    const recorded: Recorded = { page, calls: [], foreign: [], failed: [], errors: [] };
    await context.route('**/*', async (route) => {
      const url = route.request().url();
      if (url.startsWith(`${app.baseUrl}/`)) {
        const { pathname, search } = new URL(url);
        recorded.calls.push(`${route.request().method()} ${pathname}${search.replace(/([?&](ip|_|ver)=)[^&]*/g, '$1…')}`);
        return route.continue();
      }
      if (url.startsWith(`${site.url}/`)) return route.continue();
      recorded.foreign.push(url);
      return route.abort();
    });
    page.on('response', (response) => {
      if (response.url().startsWith(app.baseUrl) && response.status() >= 400)
        recorded.failed.push(`${response.status()} ${response.request().method()} ${response.url()}`);
    });
    page.on('requestfailed', (request) =>
      recorded.failed.push(`failed ${request.method()} ${request.url()} ${request.failure()?.errorText}`),
    );
    page.on('pageerror', (error) => recorded.errors.push(error.message));
    page.on('console', (message) => {
      if (process.env.SHOW_CALLS) console.log(message.type(), message.text());
      if (message.type() === 'error') recorded.errors.push(message.text());
    });
    if (process.env.SHOW_CALLS) await page.addInitScript({ content: 'window.__debug = true' });
    await page.goto(`${site.url}${path}`);
    return recorded;
  }

  async function events(name: string, distinctId: string): Promise<Array<Record<string, any>>> {
    const res = await app.request(
      `/api/projects/${world.project.id}/events/?event=${encodeURIComponent(name)}&distinct_id=${distinctId}&limit=100`,
      { key: world.owner.key },
    );
    expect(res.status).toBe(200);
    return (res.body.results as Array<Record<string, any>>).filter((event) => event.event === name && event.distinct_id === distinctId);
  }

  async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
    const until = Date.now() + 20_000;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  /**
   * identify, the flags evaluation_reasons gives, capture and $feature_flag_called stored, no failed
   * request and no console error: with the bundle served by the site (`/`), and with PostHog's
   * snippet loading it and its extensions from the service (`/snippet`).
   */
  async function shopsWithPostHog(path: '/' | '/snippet', distinctId: string) {
    const shop = await openShop(path);
    const { page } = shop;
    const token = world.project.apiToken;

    if (path === '/snippet') {
      await page.waitForFunction(() => (globalThis as any).__posthogLoaded === true, undefined, { timeout: 20_000 });
    } else {
      await page.evaluate(
        ([token, host]) =>
          new Promise<void>((resolve) => {
            const posthog = (globalThis as any).posthog;
            // A browser driven by automation (navigator.webdriver, "HeadlessChrome") is a bot to posthog-js, which
            // drops a bot's events; its documented switch for end-to-end tests lets them through.
            posthog.init(token, {
              api_host: host,
              opt_out_useragent_filter: true,
              debug: !!(globalThis as any).__debug,
              loaded: () => resolve(),
            });
          }),
        [token, app.baseUrl],
      );
    }
    // The /flags request made for the identified id (the anonymous load on start may still be answering meanwhile).
    const forU1 = page.waitForResponse((response) => {
      const request = response.request();
      return (
        request.method() === 'POST' &&
        new URL(request.url()).pathname === '/flags/' &&
        requestBody(request.url(), request.postDataBuffer())?.distinct_id === distinctId
      );
    });
    await page.evaluate((id) => {
      const posthog = (globalThis as any).posthog;
      (globalThis as any).__flagCalls = [];
      posthog.onFeatureFlags((_flags: string[], variants: Record<string, unknown>) => (globalThis as any).__flagCalls.push(variants));
      posthog.identify(id, { plan: 'pro' });
      posthog.reloadFeatureFlags();
    }, distinctId);
    const answer = (await (await forU1).json()) as { flags: Record<string, { enabled: boolean; variant: string | null }> };

    await eventually(
      () => events('$identify', distinctId),
      (found) => found.length > 0,
      'the $identify event',
    ).catch((error) => {
      throw new Error(
        `${(error as Error).message}\n${JSON.stringify({ calls: shop.calls, failed: shop.failed, errors: shop.errors }, null, 1)}`,
      );
    });
    const server = (
      await app.request(`/api/projects/${world.project.id}/feature_flags/evaluation_reasons?distinct_id=${distinctId}`, {
        key: world.owner.key,
      })
    ).body;
    const expected = Object.fromEntries(FLAGS.filter((flag) => flag.active !== false).map(({ key }) => [key, server[key].value]));
    expect(expected['pro-checkout']).toBe(true);
    // What the service sent, what posthog-js made of it, and what onFeatureFlags reported (the flags that are on).
    expect(Object.fromEntries(Object.entries(answer.flags).map(([key, flag]) => [key, flag.variant ?? flag.enabled]))).toEqual(expected);
    await page.waitForFunction(
      (want) =>
        Object.entries(want).every(([key, value]) => (globalThis as any).posthog.getFeatureFlag(key, { send_event: false }) === value),
      expected,
      { timeout: 10_000 },
    );
    const calls = (await page.evaluate(() => (globalThis as any).__flagCalls)) as Array<Record<string, unknown>>;
    expect(calls.at(-1)).toEqual(Object.fromEntries(Object.entries(expected).filter(([, value]) => value !== false)));
    // An inactive flag is absent from remote evaluation: posthog-js knows nothing of it.
    expect(await page.evaluate(() => (globalThis as any).posthog.getFeatureFlag('switched-off', { send_event: false }) ?? null)).toBeNull();

    const read = await page.evaluate(() => {
      const posthog = (globalThis as any).posthog;
      const color = posthog.getFeatureFlag('button-color');
      posthog.capture('clicked', { button: 'buy' });
      return { color, payload: posthog.getFeatureFlagPayload('button-color') };
    });
    expect(read.color).toBe(server['button-color'].value);
    expect(read.payload).toEqual(read.color === 'blue' ? { hex: '#00f' } : { hex: '#0f0' });

    const clicked = await eventually(
      () => events('clicked', distinctId),
      (found) => found.length > 0,
      'the clicked event',
    );
    expect(clicked[0].properties).toMatchObject({ button: 'buy', $lib: 'web' });
    const called = await eventually(
      () => events('$feature_flag_called', distinctId),
      (found) => found.some((e) => e.properties.$feature_flag === 'button-color'),
      '$feature_flag_called',
    );
    expect(called.find((e) => e.properties.$feature_flag === 'button-color')!.properties.$feature_flag_response).toBe(
      server['button-color'].value,
    );

    await page.close();
    expect({ failed: shop.failed, errors: shop.errors, foreign: shop.foreign }).toEqual({ failed: [], errors: [], foreign: [] });
    // What posthog-js asked of the service (docs/remote-evaluation.md lists it).
    const kinds = new Set(shop.calls.map((call) => call.replace(/\?.*$/, '').replace(token, ':token')));
    expect([...kinds].sort()).toEqual(expect.arrayContaining(['GET /array/:token/config.js', 'POST /e/', 'POST /flags/']));
    if (process.env.SHOW_CALLS) console.log([...kinds].sort().join('\n'));
    for (const kind of [...kinds].filter((kind) => !kind.startsWith('GET /static/')))
      expect(['GET /array/:token/config.js', 'GET /array/:token/config', 'POST /e/', 'POST /flags/', 'POST /i/v0/e/']).toContain(kind);
    return kinds;
  }

  it('identifies, receives the flags evaluation_reasons gives, and stores capture and $feature_flag_called', async () => {
    await shopsWithPostHog('/', 'u-1');
  }, 90_000);

  it("does the same with PostHog's snippet pasted unchanged, which loads posthog-js from the service", async () => {
    const kinds = await shopsWithPostHog('/snippet', 'u-2');
    expect(kinds).toContain('GET /static/array.js');
  }, 90_000);
});
