import { randomUUID } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import type { Logger } from 'pino';
import type { AppContext } from '../context';
import { requestErrors } from '../errors';
import { REQUEST_ID_HEADER } from '../http/logging';
import { answerPreflight, sdkCors } from '../http/sdk-cors';
import { readCapturePayload, readQueryPayload } from './capture.body';
import { captureErrors } from '../modules/ingestion/ingestion.errors';
import { evaluateRemotely } from '../modules/flag-evaluation/remote-evaluation.service';
import { parseRemoteEvaluationBody, readSubject } from '../modules/flag-evaluation/remote-evaluation.request';
import { clientConfig, clientConfigScript, detailedShape, legacyShape } from '../modules/flag-evaluation/remote-evaluation.shapes';
import { projectIdForToken } from '../modules/project/project.tokens';

/**
 * What browsers and key-less SDKs ask (docs/remote-evaluation.md ("Endpoints")). `version` picks the answer's shape
 * from `?v=`: `/flags` is detailed from v2 on, `/decide` from v4 on; below (or without `v`) legacy.
 */
const EVALUATION_PATHS: Record<string, (version: number) => 'detailed' | 'legacy'> = {
  '/flags': (version) => (version >= 2 ? 'detailed' : 'legacy'),
  '/decide': (version) => (version >= 4 ? 'detailed' : 'legacy'),
};
const CONFIG_PATH = /^\/array\/([^/]+)\/config(\.js)?\/?$/;

const firstOf = (value: unknown) => (Array.isArray(value) ? value[0] : value);
const withoutSlash = (path: string) => (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);

async function projectOf(ctx: AppContext, token: string | null): Promise<number | null> {
  return token === null ? null : projectIdForToken(ctx.em, 'api_token', token);
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
  const body = shape === 'detailed' ? detailedShape(result, requestId) : legacyShape(result);
  // SPEC-GAP: `?config=true` adds the client config to either shape (posthog-node asks it with v2).
  koa.body = firstOf(koa.query.config) === 'true' ? { ...body, ...clientConfig() } : body;
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
 * `/flags`, `/decide` and `/array/:token/config[.js]`: plain Koa, mounted before the REST body parser
 * like capture (they read capture's body encodings themselves and authenticate with the public token,
 * which the body may carry). No personal key and no rate limit, as for capture: the answers are what
 * the project's public token already reveals to every browser.
 */
export function remoteEvaluationHandler(makeContext: (koa: Context) => AppContext, logger: Logger): Middleware {
  return async (koa, next) => {
    const path = withoutSlash(koa.path);
    const evaluation = Object.prototype.hasOwnProperty.call(EVALUATION_PATHS, path) ? EVALUATION_PATHS[path] : undefined;
    const config = evaluation ? null : CONFIG_PATH.exec(koa.path);
    if (!evaluation && !config) return next();
    sdkCors(koa);
    const methods = evaluation ? ['GET', 'POST', 'OPTIONS'] : ['GET', 'OPTIONS'];
    if (koa.method === 'OPTIONS') return answerPreflight(koa, methods.join(', '));
    if (!methods.includes(koa.method)) throw requestErrors.methodNotAllowed(koa.method, methods);
    const ctx = makeContext(koa);
    if (evaluation) {
      // docs/remote-evaluation.md ("The answers"): `requestId` is a new UUID for every request, whatever
      // X-Request-Id the client sent; the response header and the access log carry it (the log the client's id beside it).
      const requestId = randomUUID();
      koa.state.requestId = requestId;
      koa.set(REQUEST_ID_HEADER, requestId);
      const version = Number(firstOf(koa.query.v) ?? '');
      return evaluationAnswer(koa, ctx, logger, evaluation(Number.isFinite(version) ? version : 0), requestId);
    }
    let token: string;
    try {
      token = decodeURIComponent(config![1]);
    } catch {
      throw requestErrors.notFound();
    }
    return configAnswer(koa, ctx, token, config![2] !== undefined);
  };
}
