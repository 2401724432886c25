import type { Context, Middleware } from 'koa';
import type { Logger } from 'pino';
import { accessProject, authenticate } from '../../auth/access';
import type { AppContext } from '../../context';
import { AppError, authErrors, requestErrors } from '../../errors';
import type { AppParts, Endpoint, RoutePolicy } from '../../http/route-policy';
import { OfrepError, ofrepErrors } from './ofrep.errors';
import { readOfrepSubject } from './ofrep.request';
import { OfrepService } from './ofrep.service';
import { matchesEtag, ofrepEtag } from './ofrep.shapes';
import { captureErrors } from '../ingestion/ingestion.errors';
import { projectIdForToken } from '../project/project.tokens';
import { parseBody } from '../../rest/body';
import { ofrepAuth, ofrepOperations } from './ofrep.openapi';

const PUBLIC_TOKEN_PREFIX = 'phc_';

/**
 * docs/openfeature.md, "Authentication": the project's public token as a Bearer value (what `/flags`
 * takes in its body, so the same power), or a personal key with `feature_flag:read`, which answers
 * for the project the key is limited to (when exactly one) or else its user's current project.
 */
async function projectOf(ctx: AppContext): Promise<number> {
  const credential = ctx.credential;
  if (!credential) throw authErrors.notAuthenticated();
  if (credential.value.startsWith(PUBLIC_TOKEN_PREFIX)) {
    const projectId = await projectIdForToken(ctx, 'api_token', credential.value);
    if (projectId === null) throw captureErrors.invalidToken();
    return projectId;
  }
  const { key } = await authenticate(ctx);
  const projectRef = key.scopedTeams?.length === 1 ? key.scopedTeams[0] : '@current';
  return (await accessProject(ctx, projectRef, 'feature_flag:read')).project.id;
}

/**
 * OFREP's refusals in OFREP's shape: evaluation failures as `{key?, errorCode, errorDetails}`; a body
 * the parser refuses (not JSON, too large, too deep, another media type) is PARSE_ERROR with 400, the
 * only client-error status OFREP providers read a body from. 401, 403, 405 and 429 keep the usual
 * error body (OFREP defines none) and its headers (`Retry-After`, `WWW-Authenticate`).
 */
function ofrepFailure(koa: Context, error: unknown, key: string | undefined): void {
  let failure: OfrepError;
  if (error instanceof OfrepError) failure = error;
  else if (error instanceof AppError && [400, 413, 415].includes(error.status)) failure = ofrepErrors.parse(error.detail);
  else throw error;
  koa.status = failure.status;
  koa.body = { ...(key === undefined ? {} : { key }), errorCode: failure.errorCode, errorDetails: failure.detail };
}

/** The two OFREP paths; `single` reads the flag key from the path. */
function ofrepEndpoint(path: string, single: boolean): Endpoint {
  return {
    path,
    methods: ['POST'],
    auth: ofrepAuth,
    policy: OFREP_POLICY,
    create: ({ makeContext, logger }: AppParts): Middleware => {
      // The REST body parser (1 MiB, depth-checked), run here so its refusals answer in OFREP's shape.
      const readBody = parseBody();
      return async function ofrep(koa) {
        // Browsers read the bulk answer's ETag only if it is exposed to them.
        koa.set('Access-Control-Expose-Headers', 'ETag');
        const key = single ? String(koa.params.key) : undefined;
        const ctx = makeContext(koa);
        // The credential first: a refused caller learns nothing about its body (as `/flags` checks the token first).
        const projectId = await projectOf(ctx);
        try {
          // OFREP bodies are JSON: a form, which the REST parser would read, is another media type.
          if (koa.request.is('application/x-www-form-urlencoded'))
            throw requestErrors.unsupportedMediaType('application/x-www-form-urlencoded');
          let body: unknown;
          await readBody(koa, async () => {
            body = koa.request.body;
          });
          const subject = readOfrepSubject(body, key);
          if (key !== undefined) return await answerOne(koa, ctx, logger, projectId, key, subject);
          return await answerAll(koa, ctx, logger, projectId, subject);
        } catch (error) {
          ofrepFailure(koa, error, key);
        }
      };
    },
    docs: ofrepOperations.filter((docs) => docs.path === path),
  };
}

async function answerOne(
  koa: Context,
  ctx: AppContext,
  logger: Logger,
  projectId: number,
  key: string,
  subject: ReturnType<typeof readOfrepSubject>,
): Promise<void> {
  koa.body = await OfrepService.one(ctx, logger, projectId, key, subject);
}

/** docs/openfeature.md, "Caching": the ETag is over the answer itself; `If-None-Match` naming it is a 304 without a body. */
async function answerAll(koa: Context, ctx: AppContext, logger: Logger, projectId: number, subject: ReturnType<typeof readOfrepSubject>) {
  const text = JSON.stringify(await OfrepService.all(ctx, logger, projectId, subject));
  const etag = ofrepEtag(text);
  koa.set('ETag', etag);
  koa.set('Cache-Control', 'private, no-cache');
  if (matchesEtag(koa.get('If-None-Match'), etag)) {
    koa.status = 304;
    return;
  }
  koa.type = 'application/json';
  koa.body = text;
}

/**
 * Browsers call OFREP (SDK CORS: preflights allow `Authorization` and `If-None-Match`). Rate limit:
 * none for the public token, as `/flags`; a personal key's own budgets otherwise. The body is read by
 * the handler (see above); evaluation may use the request's work budget.
 */
const OFREP_POLICY: RoutePolicy = { body: 'raw', cors: 'sdk', limit: 'key_unless_public_token', work: true };

export const ofrepEndpoints: Endpoint[] = [
  ofrepEndpoint('/ofrep/v1/evaluate/flags', false),
  ofrepEndpoint('/ofrep/v1/evaluate/flags/:key', true),
];
