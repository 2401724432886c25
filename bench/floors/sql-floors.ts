import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Pool } from '../pg';
import { listStatement, PERSON, RETRIEVE } from './sql';

/**
 * The floors of the admin reads and of `/flags`: plain `node:http` + `pg`, no framework. Each request
 * is one prepared statement; the reads write the JSON PostgreSQL built as is.
 */

/** What the `/flags` floor answers: per distinct id, as many bytes as the service answered, with its headers. */
export interface ServedFlags {
  /** Project token → project id (the service resolves the token too). */
  projects: Record<string, number>;
  /** Distinct id → the byte length of the service's answer for that subject. */
  sizes: Record<string, number>;
  /** One answer of the service, repeated and cut to each size. */
  sample: string;
  /** The service's response headers but the per-connection and per-request ones. */
  headers: Record<string, string>;
}

const LIST = /^\/api\/projects\/(\d+)\/feature_flags\/?$/;
const ONE = /^\/api\/projects\/(\d+)\/feature_flags\/(\d+)\/?$/;
const FLAGS = /^\/flags\/?$/;

const UNAUTHENTICATED = JSON.stringify({
  type: 'authentication_error',
  code: 'authentication_failed',
  detail: 'Incorrect authentication credentials.',
  attr: null,
});
const NOT_FOUND = JSON.stringify({ type: 'invalid_request', code: 'not_found', detail: 'Not found.', attr: null });

function send(res: ServerResponse, status: number, body: string | Buffer, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const keyHash = (req: IncomingMessage) => {
  const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  return bearer ? `sha256$${createHash('sha256').update(bearer).digest('hex')}` : '';
};

type Answer = { authorized: boolean; body: string | null };

export function sqlFloors(pool: Pool) {
  let flags: (ServedFlags & { bytes: Buffer; sampleBytes: number }) | undefined;
  const statements = { rest: listStatement('rest'), graphql: listStatement('graphql') };

  const answer = async (res: ServerResponse, name: string, text: string, values: unknown[]) => {
    const { rows } = await pool.query<Answer>({ name, text, values });
    const { authorized, body } = rows[0];
    if (!authorized) return send(res, 401, UNAUTHENTICATED);
    if (body === null) return send(res, 404, NOT_FOUND);
    send(res, 200, body);
  };

  async function personLookup(req: IncomingMessage, res: ServerResponse) {
    const { token, distinct_id: distinctId } = JSON.parse(await readBody(req)) as { token?: string; distinct_id?: string };
    const projectId = token === undefined ? undefined : flags?.projects[token];
    if (!flags || projectId === undefined || typeof distinctId !== 'string') return send(res, 401, UNAUTHENTICATED);
    await pool.query({ name: 'floor-person', text: PERSON, values: [projectId, distinctId] });
    send(res, 200, flags.bytes.subarray(0, flags.sizes[distinctId] ?? flags.sampleBytes), flags.headers);
  }

  /** Serves the request when it is one of these floors' paths (true), else leaves it to the caller (false). */
  function handle(req: IncomingMessage, res: ServerResponse): boolean {
    const path = (req.url ?? '').split('?')[0];
    const limit = () => Math.min(Number(new URLSearchParams((req.url ?? '').split('?')[1]).get('limit') ?? 100) || 100, 1000);
    let match: RegExpExecArray | null;
    let work: Promise<void>;
    if (req.method === 'POST' && FLAGS.test(path)) work = personLookup(req, res);
    else if (req.method === 'GET' && (match = LIST.exec(path)))
      work = answer(res, 'floor-list', statements.rest, [keyHash(req), Number(match[1]), limit(), 0]);
    else if (req.method === 'GET' && (match = ONE.exec(path)))
      work = answer(res, 'floor-retrieve', RETRIEVE, [keyHash(req), Number(match[1]), Number(match[2])]);
    else if (req.method === 'POST' && path === '/graphql')
      work = readBody(req).then((text) => {
        const { variables } = JSON.parse(text) as { variables: { projectId: string; limit?: number } };
        const pageSize = Math.min(variables.limit ?? 100, 1000);
        return answer(res, 'floor-graphql-list', statements.graphql, [keyHash(req), Number(variables.projectId), pageSize, 0]);
      });
    else return false;
    work.catch((error: unknown) => send(res, 500, JSON.stringify({ floor_error: String(error) })));
    return true;
  }

  return {
    handle,
    serveFlags(served: ServedFlags) {
      const sample = Buffer.from(served.sample);
      const longest = Math.max(sample.length, ...Object.values(served.sizes));
      const bytes = Buffer.alloc(longest);
      for (let at = 0; at < longest; at += sample.length) sample.copy(bytes, at);
      flags = { ...served, bytes, sampleBytes: sample.length };
    },
  };
}
