import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Middleware } from 'koa';
import { PLAIN, publicAccess, type Endpoint } from './route-policy';
import { loadStaticFile, sendStaticFile, type StaticFile } from './static-files';

/**
 * posthog-js's browser bundles at `/static/<file>.js` and `/static/<version>/<file>.js`, where
 * PostHog's snippet (`<api_host>/static/array.js`) and the bundle's lazy extensions
 * (`/static/surveys.js?v=…`, `/static/<version>/surveys.js`) look for them (docs/remote-evaluation.md
 * §"The browser snippet"). They come from the pinned `posthog-js` package itself, so upgrading the
 * package upgrades them; nothing is copied into the repository.
 *
 * Any origin may load them (the snippet sets `crossOrigin = "anonymous"`), a 404 included, so the
 * browser reports a missing file instead of a CORS failure.
 */
const PACKAGE_DIR = path.dirname(require.resolve('posthog-js/package.json'));
const DIST = path.join(PACKAGE_DIR, 'dist');
export const POSTHOG_JS_VERSION = (JSON.parse(readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8')) as { version: string }).version;

const VERSIONED_CACHE = 'public, max-age=31536000, immutable';
const UNVERSIONED_CACHE = 'public, max-age=3600';

/** The package's top-level browser scripts, by file name; read on first request. */
function bundleNames(): Set<string> {
  return new Set(readdirSync(DIST).filter((name) => /^[a-z0-9][a-z0-9.-]*\.js$/.test(name)));
}

function serveBundle(): Middleware {
  let names: Set<string> | null = null;
  const files = new Map<string, StaticFile | null>();
  return async (koa) => {
    const version = koa.params.version as string | undefined;
    const name = String(koa.params.file);
    names ??= bundleNames();
    if (!names.has(name)) {
      koa.status = 404;
      koa.type = 'text/plain';
      koa.body = `posthog-js ${POSTHOG_JS_VERSION} has no ${name}.\n`;
      return;
    }
    if (!files.has(name)) files.set(name, loadStaticFile(path.join(DIST, name)));
    // SPEC-GAP: a version other than the pinned one gets the pinned file: this service serves one
    // posthog-js, and an older page's extension is better served by it than refused (README, decisions).
    const pinned = version === POSTHOG_JS_VERSION || koa.query.v === POSTHOG_JS_VERSION;
    return sendStaticFile(koa, files.get(name)!, pinned ? VERSIONED_CACHE : UNVERSIONED_CACHE);
  };
}

/** Any origin may load them: the SDK's CORS, a 404 included. */
export const posthogStaticEndpoints: Endpoint[] = ['/static/:file', '/static/:version/:file'].map((path) => ({
  path,
  methods: ['GET'],
  auth: publicAccess,
  policy: { ...PLAIN, cors: 'sdk' },
  create: serveBundle,
}));
