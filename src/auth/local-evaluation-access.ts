import type { AppContext } from '../context';
import { authErrors } from '../errors';
import { projectIdForToken, type ProjectToken } from '../modules/project/project.tokens';
import { accessProject, authenticate, parseId } from './access';

const SECRET_PREFIX = 'phs_';

/** Who may read a project's SDK definitions; only the project is needed past the checks. */
export interface LocalEvaluationAccess {
  projectId: number;
}

/** A token as looked up: the first of repeated parameters; anything but text names no project. */
const lookupText = (value: unknown): string | null => {
  const text = Array.isArray(value) ? value[0] : value;
  return typeof text === 'string' ? text : null;
};

/**
 * The three local-evaluation paths (docs/rest-api.md §2.1, §4.5): a personal key with
 * `feature_flag:read` on the project, or the project's own secret token as a Bearer value.
 * `projectRef` is the path's project; without it the SDK paths take the project from `?token=`
 * (unknown: 401), else the secret token's project or the key user's current project.
 */
export async function accessLocalEvaluation(ctx: AppContext, projectRef: string | undefined): Promise<LocalEvaluationAccess> {
  const credential = ctx.credential;
  if (!credential) throw authErrors.notAuthenticated();
  const token = lookupText(ctx.request.query.token);
  const cacheKey = `${credential.source}\u0000${credential.value}\u0000${projectRef ?? ''}\u0000${token ?? ''}`;
  const hit = ctx.caches.localEvaluation.get(cacheKey);
  if (hit) return hit;
  const access = await checkLocalEvaluation(ctx, projectRef, token);
  ctx.caches.localEvaluation.set(cacheKey, access);
  return access;
}

/**
 * Every lookup here is made afresh: the grant is remembered for CREDENTIAL_TTL_MS, and built from
 * remembered lookups a revoked key, a rotated token or a removed member would keep it for up to
 * twice that.
 */
async function checkLocalEvaluation(ctx: AppContext, projectRef: string | undefined, token: string | null): Promise<LocalEvaluationAccess> {
  const credential = ctx.credential!;
  const secret = credential.source === 'Authorization header' && credential.value.startsWith(SECRET_PREFIX);
  const own = secret ? await findProject(ctx, 'secret_api_token', credential.value) : null;
  if (secret && own === null) throw authErrors.invalidSecretToken();
  if (!secret) await authenticate(ctx, true);

  let projectId: number | string;
  if (projectRef !== undefined) {
    projectId = projectRef === '@current' && own !== null ? own : projectRef;
  } else if (ctx.request.query.token !== undefined) {
    const named = token === null ? null : await findProject(ctx, 'api_token', token);
    if (named === null) throw authErrors.incorrectCredentials();
    projectId = named;
  } else {
    projectId = own ?? '@current';
  }

  if (own !== null) {
    // SPEC-GAP: another project's secret token is 403, as for any credential without access to the project, not 401 (docs/rest-api.md §2.3).
    if (parseId(projectId) !== own) throw authErrors.noProjectAccess();
    return { projectId: own };
  }
  return { projectId: (await accessProject(ctx, projectId, 'feature_flag:read', true)).project.id };
}

const findProject = (ctx: AppContext, column: ProjectToken, value: string) => projectIdForToken(ctx, column, value, true);
