import { gzipSync } from 'node:zlib';
import type { World } from '../helpers/factories';
import { fetchChecked } from '../helpers/openapi-contract';
import type { ApiResponse, TestApp } from '../helpers/test-app';

export interface PostOptions {
  headers?: Record<string, string>;
  gzip?: boolean;
}

/**
 * POSTs a capture body as sent on the wire: objects as JSON, strings and buffers as they are. The
 * answer is checked against the OpenAPI document, as `app.request`'s are.
 */
export async function capture(app: TestApp, path: string, body: unknown, options: PostOptions = {}): Promise<ApiResponse> {
  let data: Buffer | string = Buffer.isBuffer(body) || typeof body === 'string' ? body : JSON.stringify(body);
  const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
  if (options.gzip) {
    data = gzipSync(data);
    headers['content-encoding'] = 'gzip';
  }
  return fetchChecked(`${app.baseUrl}${path}`, { method: 'POST', headers, body: data });
}

let sequence = 0;
/** A distinct id no other test uses. */
export const uniqueId = (prefix = 'user') => `${prefix}-${process.pid}-${++sequence}-${Math.random().toString(36).slice(2, 8)}`;

export function reader(app: TestApp, world: World) {
  const base = `/api/projects/${world.project.id}`;
  const get = async (path: string) => {
    const res = await app.request(`${base}/${path}`, { key: world.owner.key });
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  return {
    base,
    get,
    events: (query = '') => get(`events/${query}`),
    persons: (query = '') => get(`persons/${query}`),
    /** The one person owning `distinctId`, or null. */
    async personOf(distinctId: string) {
      const page = await get(`persons/?distinct_id=${encodeURIComponent(distinctId)}`);
      if (page.count > 1) throw new Error(`${distinctId} has ${page.count} persons`);
      return page.results[0] ?? null;
    },
  };
}

export const SUCCESS = { status: 1 };
