import { promisify } from 'node:util';
import { gunzip, gunzipSync } from 'node:zlib';
import getRawBody from 'raw-body';
import type { Context } from 'koa';
import { captureErrors, MAX_BODY_BYTES } from '../modules/ingestion/ingestion.errors';

const gunzipAsync = promisify(gunzip);
const GZIP_MAGIC = [0x1f, 0x8b];
// Up to 1 MB of output inflates on the event loop (a thread-pool round trip costs more than the work);
// larger payloads inflate off it.
const SYNC_INFLATE_BYTES = 1024 * 1024;

function first(value: unknown): string | undefined {
  const item = Array.isArray(value) ? value[0] : value;
  return typeof item === 'string' ? item : undefined;
}

/** The raw body, at most 20 MB: a larger Content-Length is refused before reading, a longer stream stops there. */
async function readRaw(ctx: Context): Promise<Buffer> {
  const length = ctx.get('Content-Length');
  try {
    return await getRawBody(ctx.req, { length: /^\d+$/.test(length) ? Number(length) : undefined, limit: MAX_BODY_BYTES });
  } catch (error) {
    if ((error as { type?: string }).type === 'entity.too.large') throw captureErrors.bodyTooLarge();
    throw captureErrors.unreadableBody();
  }
}

/** Inflates without ever holding more than 20 MB of output: a gzip bomb stops at the limit. */
async function inflate(data: Buffer): Promise<Buffer> {
  try {
    try {
      return gunzipSync(data, { maxOutputLength: SYNC_INFLATE_BYTES });
    } catch (error) {
      if ((error as { code?: string }).code !== 'ERR_BUFFER_TOO_LARGE') throw error;
    }
    return await gunzipAsync(data, { maxOutputLength: MAX_BODY_BYTES, chunkSize: 256 * 1024 });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw captureErrors.bodyTooLarge();
    throw captureErrors.undecompressable((error as Error).message);
  }
}

const isGzip = (data: Buffer) => data.length >= 2 && data[0] === GZIP_MAGIC[0] && data[1] === GZIP_MAGIC[1];
// Form fields turn `+` into spaces; base64 payloads want them back.
const fromBase64 = (text: string) => Buffer.from(text.replace(/ /g, '+'), 'base64');

/**
 * docs/ingestion.md §1.2 steps 1–3: the request's payload as text, whatever its transport encoding
 * (Content-Encoding gzip, `?compression=gzip|gzip-js|base64`, a form's `data`/`compression`
 * fields, or a bare gzip stream). Size limits apply to the raw and to the decompressed bytes.
 */
export async function readCapturePayload(ctx: Context): Promise<string> {
  let body = await readRaw(ctx);
  const contentEncoding = ctx.get('Content-Encoding').trim().toLowerCase();
  let inflated = false;
  // SPEC-GAP: `x-gzip` is gzip (as HTTP says); a `compression` other than gzip, gzip-js or base64 is refused like lz64.
  if (contentEncoding === 'gzip' || contentEncoding === 'x-gzip') {
    body = await inflate(body);
    inflated = true;
  } else if (contentEncoding !== '' && contentEncoding !== 'identity') {
    throw captureErrors.unsupportedCompression(contentEncoding);
  }

  let compression = (first(ctx.query.compression) ?? '').trim().toLowerCase();
  let payload = body;
  if (ctx.is('application/x-www-form-urlencoded')) {
    const form = new URLSearchParams(body.toString('utf8'));
    compression ||= (form.get('compression') ?? '').trim().toLowerCase();
    payload = dataField(form.get('data') ?? '', compression);
  } else if (compression === 'base64') {
    payload = fromBase64(body.toString('latin1'));
  }
  return decoded(payload, compression, inflated);
}

/** A `data` field (form or query): base64 unless it is JSON text. */
function dataField(data: string, compression: string): Buffer {
  const base64 = compression === 'base64' || !/^\s*[[{]/.test(data);
  return base64 ? fromBase64(data) : Buffer.from(data, 'utf8');
}

/**
 * The payload of a GET that carries its body as `?data=` (docs/remote-evaluation.md ("Endpoints"): `/flags` and
 * `/decide` accept it), decoded exactly as a form's `data` field; `''` when there is none.
 */
export async function readQueryPayload(query: Record<string, unknown>): Promise<string> {
  const compression = (first(query.compression) ?? '').trim().toLowerCase();
  return decoded(dataField(first(query.data) ?? '', compression), compression, false);
}

/** Step 3's end: gunzip as named (or sniffed), then UTF-8 text without a BOM. */
async function decoded(given: Buffer, compression: string, inflated: boolean): Promise<string> {
  let payload = given;
  if (compression === 'gzip' || compression === 'gzip-js') {
    if (!inflated) payload = await inflate(payload);
  } else if (compression !== '' && compression !== 'base64') {
    throw captureErrors.unsupportedCompression(compression);
  } else if (!inflated && isGzip(payload)) {
    payload = await inflate(payload);
  }
  const text = payload.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
