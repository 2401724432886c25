import path from 'node:path';
import type { Middleware } from 'koa';
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

/** Paths the console routes in the browser (docs/console.md); the API's own paths never start so. */
const CONSOLE_PATHS = /^\/(?:|sign-in|feature-flags|experiments|cohorts|activity|roles)(?:\/[^.]*)?$/;
const ASSET = /^\/assets\/[A-Za-z0-9._-]+$/;

/** The built console's folder: dist/web beside the compiled service, or beside src/ under the tests. */
function builtConsole(): string {
  const root = path.resolve(__dirname, '..', '..');
  return path.basename(root) === 'dist' ? path.join(root, 'web') : path.join(root, 'dist', 'web');
}

/** GET and HEAD of the console's pages and assets; anything else passes on. */
export function consoleMiddleware(directory = builtConsole()): Middleware {
  const assets = new Map<string, StaticFile>();
  let index: StaticFile | null | undefined;
  return async (koa, next) => {
    if (koa.method !== 'GET' && koa.method !== 'HEAD') return next();
    if (ASSET.test(koa.path)) {
      const name = koa.path.slice('/assets/'.length);
      // Only files found are kept: a name that is not there costs a stat, never memory.
      const file = assets.get(name) ?? loadStaticFile(path.join(directory, 'assets', name));
      if (!file) return next();
      assets.set(name, file);
      koa.state.routeLabel = '/assets/:file';
      koa.set('Content-Security-Policy', CONSOLE_CSP);
      return sendStaticFile(koa, file, 'public, max-age=31536000, immutable');
    }
    if (!CONSOLE_PATHS.test(koa.path) || !koa.accepts('html')) return next();
    koa.state.routeLabel = '(console)';
    index ??= loadStaticFile(path.join(directory, 'index.html'));
    koa.set('Content-Security-Policy', CONSOLE_CSP);
    if (!index) {
      koa.status = 503;
      koa.type = 'text/plain';
      koa.body = 'The console is not built: run `npm run build` (npm install runs it).\n';
      return;
    }
    await sendStaticFile(koa, index, 'no-cache');
  };
}
