import { randomUUID } from 'node:crypto';
import type { Context } from 'koa';
import type { Logger } from 'pino';
import type { AppContext } from '../../context';
import { requestErrors } from '../../errors';
import { REQUEST_ID_HEADER } from '../../http/logging';
import { publicTokenAccess, type Endpoint, type RoutePolicy } from '../../http/route-policy';
import { remoteEvaluationOperations } from './remote-evaluation.openapi';
import { readCapturePayload, readQueryPayload } from '../../rest/capture.body';
import { captureErrors } from '../ingestion/ingestion.errors';
import { evaluateRemotely } from './remote-evaluation.service';
import { parseRemoteEvaluationBody, readSubject } from './remote-evaluation.request';
import { clientConfig, clientConfigScript, detailedShapeBytes, legacyShape } from './remote-evaluation.shapes';
import { projectIdForToken } from '../project/project.tokens';

const firstOf = (value: unknown) => (Array.isArray(value) ? value[0] : value);

async function projectOf(ctx: AppContext, token: string | null): Promise<number | null> {
  return token === null ? null : projectIdForToken(ctx, 'api_token', token);
}

async function evaluationAnswer(
  koa: Context,
  ctx: AppContext,
  logger: Logger,
  shape: 'detailed' | 'legacy',
  requestId: string,
): Promise<void> {
  // The body is decoded exactly as capture decodes it; a GET carries it as `?data=`.
  const text = koa.method === 'GET' ? await readQueryPayload(koa.query) : await readCapturePayload(koa);
  const request = parseRemoteEvaluationBody(text, koa.query);
  const projectId = await projectOf(ctx, request.token);
  if (projectId === null) throw captureErrors.invalidToken();
  const subject = readSubject(request.body);
  const result = await evaluateRemotely(ctx, logger, projectId, subject);
  // SPEC-GAP: `?config=true` adds the client config to either shape (posthog-node asks it with v2).
  const config = firstOf(koa.query.config) === 'true' ? clientConfig() : undefined;
  if (shape === 'detailed') {
    koa.type = 'application/json';
    koa.body = detailedShapeBytes(result, requestId, config);
  } else {
    koa.body = { ...legacyShape(result), ...config };
  }
}

async function configAnswer(koa: Context, ctx: AppContext, token: string, script: boolean): Promise<void> {
  if ((await projectOf(ctx, token)) === null) throw requestErrors.notFound();
  if (script) {
    koa.type = 'application/javascript';
    koa.body = clientConfigScript(token);
  } else {
    koa.body = { token, ...clientConfig() };
  }
}

/**
 * `/flags` and `/decide` (docs/remote-evaluation.md ("Endpoints")): they read capture's body encodings
 * themselves and authenticate with the public token, which the body may carry. No personal key and
 * no rate limit, as for capture: the answers are what the project's public token already reveals to
 * every browser. `version` picks the answer's shape from `?v=`: `/flags` is detailed from v2 on,
 * `/decide` from v4 on; below (or without `v`) legacy.
 */
function evaluationEndpoint(path: '/flags' | '/decide', version: (v: number) => 'detailed' | 'legacy'): Endpoint {
  return {
    path,
    methods: ['GET', 'POST'],
    auth: publicTokenAccess,
    policy: SDK_RAW,
    create: ({ makeContext, logger }) =>
      async function evaluation(koa) {
        // docs/remote-evaluation.md ("The answers"): `requestId` is a new UUID for every request, whatever
        // X-Request-Id the client sent; the response header and the access log carry it (the log the client's id beside it).
        const requestId = randomUUID();
        koa.state.requestId = requestId;
        koa.set(REQUEST_ID_HEADER, requestId);
        const v = Number(firstOf(koa.query.v) ?? '');
        return evaluationAnswer(koa, makeContext(koa), logger, version(Number.isFinite(v) ? v : 0), requestId);
      },
    docs: remoteEvaluationOperations.filter((docs) => docs.path === path),
  };
}

/** The browser config, `/array/:token/config[.js]`: the token is the path's. */
function configEndpoint(path: '/array/:token/config' | '/array/:token/config.js'): Endpoint {
  return {
    path,
    methods: ['GET'],
    auth: publicTokenAccess,
    policy: { ...SDK_RAW, body: 'none' },
    create: ({ makeContext }) =>
      async function config(koa) {
        return configAnswer(koa, makeContext(koa), koa.params.token, path.endsWith('.js'));
      },
    docs: remoteEvaluationOperations.filter((docs) => docs.path === path),
  };
}

const SDK_RAW: RoutePolicy = { body: 'raw', cors: 'sdk', limit: 'none', work: false };

export const remoteEvaluationEndpoints: Endpoint[] = [
  evaluationEndpoint('/flags', (version) => (version >= 2 ? 'detailed' : 'legacy')),
  evaluationEndpoint('/decide', (version) => (version >= 4 ? 'detailed' : 'legacy')),
  configEndpoint('/array/:token/config'),
  configEndpoint('/array/:token/config.js'),
];
