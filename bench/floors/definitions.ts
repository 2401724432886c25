import type { Context } from 'koa';

/** The bytes the service served for one project's definitions, with the headers it sent. */
export interface ServedDefinitions {
  token: string;
  secret: string;
  body: string;
  etag: string;
  /** Every response header but the per-connection ones (date, connection, keep-alive, content-length). */
  headers: Record<string, string>;
}

const opaque = (tag: string) =>
  tag
    .trim()
    .replace(/^W\//, '')
    .replace(/^"(.*)"$/, '$1');

/** Floor of the SDK rows: the same bytes from memory, the same token check and ETag/304 logic, no database. */
export function definitionsFloor() {
  const served = new Map<string, ServedDefinitions & { bytes: Buffer }>();
  const handle = (ctx: Context) => {
    const token = ctx.query.token;
    const entry = typeof token === 'string' ? served.get(token) : undefined;
    if (!entry || ctx.get('Authorization') !== `Bearer ${entry.secret}`) {
      ctx.status = 401;
      ctx.body = { type: 'authentication_error', code: 'not_authenticated', detail: 'Invalid token.', attr: null };
      return;
    }
    ctx.set(entry.headers);
    const ifNoneMatch = ctx.get('If-None-Match');
    if (ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(entry.etag))) {
      ctx.status = 304;
      return;
    }
    ctx.status = 200;
    ctx.body = entry.bytes;
  };
  return {
    handle,
    serve(entries: ServedDefinitions[]) {
      for (const entry of entries) served.set(entry.token, { ...entry, bytes: Buffer.from(entry.body) });
    },
  };
}
