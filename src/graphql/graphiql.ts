import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Context, Middleware } from 'koa';

/**
 * GraphiQL at `GET /graphql` for a browser (a request that prefers text/html), built only from the
 * installed packages' own files: graphiql's UMD bundle and the React 18 UMD builds it runs on, served
 * from fixed paths under /graphql/assets/. Nothing is fetched from a CDN and nothing reports usage,
 * so the IDE works offline and behind a strict network policy. Apollo's landing page is disabled
 * (src/app.ts).
 *
 * The page's Content-Security-Policy allows only this origin (scripts, styles, requests), plus
 * `data:` for the fonts and icons inlined in graphiql's stylesheet; the start-up code is a file of
 * its own, since the policy forbids inline scripts.
 */
export const GRAPHIQL_ASSETS = '/graphql/assets/';

export const GRAPHIQL_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
].join('; ');

const versionOf = (name: string): string =>
  (JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')) as { version: string }).version;
const fileOf = (name: string, file: string) => path.join(path.dirname(require.resolve(`${name}/package.json`)), file);

/**
 * The headers editor starts open. Keys are never stored in the browser: shouldPersistHeaders is off
 * (tabs keep no headers), and since GraphiQL's query history and favourites would still save each
 * run's headers to localStorage, the storage GraphiQL is given drops them from those two lists.
 */
const START_SCRIPT = `(function () {
  var NAMESPACE = 'graphiql:';
  function withoutHeaders(value) {
    try {
      var data = JSON.parse(value);
      ['queries', 'favorites'].forEach(function (list) {
        (data[list] || []).forEach(function (entry) { delete entry.headers; });
      });
      return JSON.stringify(data);
    } catch (error) {
      return value;
    }
  }
  var storage = {
    getItem: function (key) { return localStorage.getItem(key); },
    setItem: function (key, value) {
      localStorage.setItem(key, /:(queries|favorites)$/.test(key) ? withoutHeaders(value) : value);
    },
    removeItem: function (key) { localStorage.removeItem(key); },
    clear: function () {
      Object.keys(localStorage).forEach(function (key) { if (key.indexOf(NAMESPACE) === 0) localStorage.removeItem(key); });
    },
    get length() {
      return Object.keys(localStorage).filter(function (key) { return key.indexOf(NAMESPACE) === 0; }).length;
    },
  };
  var root = document.getElementById('graphiql');
  var fetcher = GraphiQL.createFetcher({ url: root.getAttribute('data-endpoint') });
  ReactDOM.createRoot(root).render(
    React.createElement(GraphiQL, {
      fetcher: fetcher,
      storage: storage,
      isHeadersEditorEnabled: true,
      shouldPersistHeaders: false,
      defaultEditorToolsVisibility: 'headers',
      defaultQuery: root.getAttribute('data-default-query'),
    }),
  );
})();
`;

const PAGE_CSS = 'html, body, #graphiql { height: 100%; margin: 0; }\n';

const DEFAULT_QUERY = `# Flagship GraphQL API.
# Put your personal API key in the Headers tab below, as
#   {"Authorization": "Bearer phx_..."}
# then run a query, for example:
#
# query { me { user { email } } }
`;

interface Asset {
  type: string;
  body: Buffer;
  gzip: Buffer;
}

/** Read once, on the first request that needs them (1.5 MB, most apps in a test run never do). */
let assets: Map<string, Asset> | null = null;
let page: string | null = null;

function asset(type: string, body: Buffer): Asset {
  return { type, body, gzip: gzipSync(body) };
}

function loadAssets(): Map<string, Asset> {
  if (assets) return assets;
  const graphiql = versionOf('graphiql');
  const react = versionOf('react');
  const reactDom = versionOf('react-dom');
  const start = Buffer.from(START_SCRIPT);
  const css = Buffer.from(PAGE_CSS);
  const hash = (body: Buffer) => createHash('sha256').update(body).digest('hex').slice(0, 12);
  // Versioned (or content-hashed) names: a file under a given name never changes, so browsers may keep it for a year.
  const files: Array<[string, Asset]> = [
    [
      `react-${react}.production.min.js`,
      asset('application/javascript; charset=utf-8', readFileSync(fileOf('react', 'umd/react.production.min.js'))),
    ],
    [
      `react-dom-${reactDom}.production.min.js`,
      asset('application/javascript; charset=utf-8', readFileSync(fileOf('react-dom', 'umd/react-dom.production.min.js'))),
    ],
    [`graphiql-${graphiql}.min.js`, asset('application/javascript; charset=utf-8', readFileSync(fileOf('graphiql', 'graphiql.min.js')))],
    [`graphiql-${graphiql}.min.css`, asset('text/css; charset=utf-8', readFileSync(fileOf('graphiql', 'graphiql.min.css')))],
    [`page-${hash(css)}.css`, asset('text/css; charset=utf-8', css)],
    [`start-${hash(start)}.js`, asset('application/javascript; charset=utf-8', start)],
  ];
  assets = new Map(files);
  return assets;
}

const escapeAttribute = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\n/g, '&#10;');

function html(): string {
  if (page) return page;
  const names = [...loadAssets().keys()];
  const styles = names
    .filter((name) => name.endsWith('.css'))
    .map((name) => `    <link rel="stylesheet" href="${GRAPHIQL_ASSETS}${name}" />`);
  const scripts = names.filter((name) => name.endsWith('.js')).map((name) => `    <script src="${GRAPHIQL_ASSETS}${name}"></script>`);
  page = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Flagship GraphiQL</title>
${styles.join('\n')}
  </head>
  <body>
    <div id="graphiql" data-endpoint="/graphql" data-default-query="${escapeAttribute(DEFAULT_QUERY)}">Loading GraphiQL…</div>
${scripts.join('\n')}
  </body>
</html>
`;
  return page;
}

/** Whether a GET /graphql is a browser asking for a page (Apollo's own rule: text/html preferred over its JSON types). */
function wantsPage(ctx: Context): boolean {
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return false;
  if (!ctx.get('Accept')) return false;
  return ctx.accepts('application/json', 'application/graphql-response+json', 'multipart/mixed', 'text/html') === 'text/html';
}

function send(ctx: Context, type: string, body: Buffer | string, gzip?: Buffer) {
  ctx.set('Content-Security-Policy', GRAPHIQL_CSP);
  ctx.type = type;
  if (gzip) {
    ctx.vary('Accept-Encoding');
    if (ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
      ctx.set('Content-Encoding', 'gzip');
      ctx.body = gzip;
      return;
    }
  }
  ctx.body = body;
}

/** GET /graphql/assets/:file: GraphiQL's files; a name that is not one of them is 404. */
export function graphiqlAssets(): Middleware {
  return async (ctx, next) => {
    const found = loadAssets().get(String(ctx.params.file));
    if (!found) return next();
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    send(ctx, found.type, found.body, found.gzip);
  };
}

/** The GraphiQL page, for a GET /graphql that a browser sent (wantsPage); null for any other request. */
export function graphiqlPage(ctx: Context): boolean {
  if (!wantsPage(ctx)) return false;
  // The page is tiny and names the current asset files: always revalidated.
  ctx.set('Cache-Control', 'no-cache');
  send(ctx, 'text/html; charset=utf-8', html());
  return true;
}
