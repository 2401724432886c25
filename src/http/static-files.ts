import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Context } from 'koa';

/**
 * Files this process serves as they are on disk (the console's build, posthog-js's bundles): read
 * once, validated by a strong ETag, and sent compressed when the client accepts it. Each compressed
 * form is made once per file, off the event loop (zlib's thread pool), and kept.
 */
export interface StaticFile {
  body: Buffer;
  etag: string;
  type: string;
  encoded: Map<Encoding, Promise<Buffer>>;
}

type Encoding = 'br' | 'gzip';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/** Worth compressing: text, above a size where the headers would cost more than the saving. */
const COMPRESSIBLE = /^(text\/|image\/svg\+xml)/;
const MIN_COMPRESSED_SIZE = 1024;

const compressors: Record<Encoding, (body: Buffer) => Promise<Buffer>> = {
  br: (body) =>
    promisify(brotliCompress)(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
  gzip: (body) => promisify(gzip)(body, { level: 9 }),
};

/** The file, or null when there is no regular file by that name (`/assets/..` names a directory). */
export function loadStaticFile(file: string): StaticFile | null {
  if (!statSync(file, { throwIfNoEntry: false })?.isFile()) return null;
  const body = readFileSync(file);
  return {
    body,
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
    type: TYPES[path.extname(file)] ?? 'application/octet-stream',
    encoded: new Map(),
  };
}

/** 200 with the file (compressed when accepted), or 304 when the client's copy is current. */
export async function sendStaticFile(koa: Context, file: StaticFile, cacheControl: string): Promise<void> {
  const compressible = COMPRESSIBLE.test(file.type) && file.body.length >= MIN_COMPRESSED_SIZE;
  // Brotli when accepted at all (it is smaller), whatever order the client lists them in; then gzip.
  const encoding = compressible ? ((['br', 'gzip'] as const).find((e) => koa.acceptsEncodings(e, 'identity') === e) ?? null) : null;
  const encoded = encoding !== null;
  if (compressible) koa.vary('Accept-Encoding');
  koa.set('Cache-Control', cacheControl);
  // One validator per representation: a cache must not answer a gzip request with brotli bytes.
  koa.set('ETag', encoded ? `${file.etag.slice(0, -1)}-${encoding}"` : file.etag);
  koa.type = file.type;
  koa.status = 200; // `fresh` compares validators only for a successful answer
  if (koa.fresh) {
    koa.status = 304;
    return;
  }
  if (!encoded) {
    koa.body = file.body;
    return;
  }
  let body = file.encoded.get(encoding);
  if (!body) {
    body = compressors[encoding](file.body);
    file.encoded.set(encoding, body);
    // A failed compression is tried again by the next request, not remembered.
    body.catch(() => file.encoded.delete(encoding));
  }
  koa.set('Content-Encoding', encoding);
  koa.body = await body;
}
