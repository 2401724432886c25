import type { AppContext } from '../context';
import { storableText } from '../db/sql';
import { authErrors } from '../errors';
import { Project } from '../modules/project/project.entity';
import { accessProject, authenticate, parseId } from './access';

const SECRET_PREFIX = 'phs_';

/** A token as looked up: the first of repeated parameters; empty or unstorable text names no project. */
const lookupText = (value: unknown): string | null => {
  const text = Array.isArray(value) ? value[0] : value;
  return typeof text === 'string' && text !== '' && storableText(text) ? text : null;
};

/**
 * The three local-evaluation paths (rest-flags.md §2.1, §4.5): a personal key with
 * `feature_flag:read` on the project, or the project's own secret token as a Bearer value.
 * `projectRef` is the path's project; without it the SDK paths take the project from `?token=`
 * (unknown: 401), else the secret token's project or the key user's current project.
 */
export async function accessLocalEvaluation(ctx: AppContext, projectRef: string | undefined): Promise<Project> {
  const credential = ctx.credential;
  if (!credential) throw authErrors.notAuthenticated();
  const secret = credential.source === 'Authorization header' && credential.value.startsWith(SECRET_PREFIX);
  const own = secret ? await findProject(ctx, 'secretApiToken', credential.value) : null;
  if (secret && !own) throw authErrors.invalidSecretToken();
  if (!secret) await authenticate(ctx);

  let projectId: number | string;
  if (projectRef !== undefined) {
    projectId = projectRef === '@current' && own ? own.id : projectRef;
  } else if (ctx.request.query.token !== undefined) {
    const named = await findProject(ctx, 'apiToken', ctx.request.query.token);
    if (!named) throw authErrors.incorrectCredentials();
    projectId = named.id;
  } else {
    projectId = own ? own.id : '@current';
  }

  if (own) {
    // SPEC-GAP: evaluation.md §7.1 says 401 for another project's secret token; rest-flags.md §2.3 and acceptance 44 say 403.
    if (parseId(projectId) !== own.id) throw authErrors.noProjectAccess();
    return own;
  }
  return (await accessProject(ctx, projectId, 'feature_flag:read')).project;
}

function findProject(ctx: AppContext, token: 'apiToken' | 'secretApiToken', value: unknown): Promise<Project | null> {
  const text = lookupText(value);
  return text === null ? Promise.resolve(null) : ctx.em.findOne(Project, { [token]: text });
}
