import path from 'node:path';
import type { Middleware } from 'koa';
import { PLAIN, publicAccess, type Endpoint } from './route-policy';
import { loadStaticFile, sendStaticFile, type StaticFile } from './static-files';

/**
 * The console (web/, docs/console.md): a single-page app built by Vite into dist/web and served
 * from this process. `index.html` answers every console path and is revalidated on each load;
 * the hashed files under /assets/ never change, so browsers keep them for a year. The console has
 * its own Content-Security-Policy: its scripts, styles and requests come from this origin only,
 * nothing is inline, and no other site may frame it.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The built console's folder: dist/web beside the compiled service, or beside src/ under the tests. */
function builtConsole(): string {
  const root = path.resolve(__dirname, '..', '..');
  return path.basename(root) === 'dist' ? path.join(root, 'web') : path.join(root, 'dist', 'web');
}

/** The console's files, read on first use and kept (only files found: a name that is not there costs a stat, never memory). */
function consoleFiles(directory: string) {
  const assets = new Map<string, StaticFile>();
  let index: StaticFile | null | undefined;
  return {
    asset(name: string): StaticFile | null {
      const file = assets.get(name) ?? loadStaticFile(path.join(directory, 'assets', name));
      if (file) assets.set(name, file);
      return file;
    },
    index: () => (index ??= loadStaticFile(path.join(directory, 'index.html'))),
  };
}

type ConsoleFiles = ReturnType<typeof consoleFiles>;

function servePage(files: ConsoleFiles): Middleware {
  return async (koa, next) => {
    // A page path holds no dot; an API client (not asking for HTML) gets the 404 it would get anywhere.
    if (koa.path.includes('.') || !koa.accepts('html')) return next();
    koa.set('Content-Security-Policy', CONSOLE_CSP);
    const index = files.index();
    if (!index) {
      koa.status = 503;
      koa.type = 'text/plain';
      koa.body = 'The console is not built: run `npm run build` (npm install runs it).\n';
      return;
    }
    await sendStaticFile(koa, index, 'no-cache');
  };
}

/** A built asset's name: the router has decoded it, so `..` and separators must be refused here. */
const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

function serveAsset(files: ConsoleFiles): Middleware {
  return async (koa, next) => {
    const name = String(koa.params.file);
    const file = ASSET_NAME.test(name) ? files.asset(name) : null;
    if (!file) return next();
    koa.set('Content-Security-Policy', CONSOLE_CSP);
    return sendStaticFile(koa, file, 'public, max-age=31536000, immutable');
  };
}

/** One set of files per app, shared by its console rows. */
const filesOf = new WeakMap<object, ConsoleFiles>();
const filesFor = (app: object, directory: string) => {
  let files = filesOf.get(app);
  if (!files) filesOf.set(app, (files = consoleFiles(directory)));
  return files;
};

/** The paths the console routes in the browser (docs/console.md); the API's own paths never start so. */
const PAGES = [
  '/',
  '/sign-in',
  '/feature-flags{/*rest}',
  '/experiments{/*rest}',
  '/cohorts{/*rest}',
  '/activity{/*rest}',
  '/roles{/*rest}',
];

/** GET (and HEAD) of the console's pages and hashed assets (docs/console.md). */
export function consoleEndpoints(directory = builtConsole()): Endpoint[] {
  return [
    ...PAGES.map((page): Endpoint => ({
      path: page,
      methods: ['GET'],
      auth: publicAccess,
      policy: PLAIN,
      label: '(console)',
      create: (app) => servePage(filesFor(app, directory)),
    })),
    {
      path: '/assets/:file',
      methods: ['GET'],
      auth: publicAccess,
      policy: PLAIN,
      create: (app) => serveAsset(filesFor(app, directory)),
    },
  ];
}
