import type { Context } from 'koa';
import type { LocalEvaluationAccess } from '../../auth/local-evaluation-access';
import type { AppContext } from '../../context';
import { ifNoneMatchHits } from './local-evaluation';

/** The SDK hot path (docs/rest-api.md §4.5): the cached definitions body with its ETag, or 304 when the client has it. */
export async function serveLocalEvaluation(ctx: AppContext, koa: Context, { projectId }: LocalEvaluationAccess): Promise<void> {
  const definitions = await ctx.definitions.get(projectId);
  // `send_cohorts` counts when present, whatever its value (docs/rest-api.md §4.5).
  const { body, etag } = Object.prototype.hasOwnProperty.call(koa.query, 'send_cohorts') ? definitions.withCohorts : definitions;
  koa.set('ETag', etag);
  koa.set('Cache-Control', 'private, must-revalidate');
  if (ifNoneMatchHits(koa.get('If-None-Match') || undefined, etag)) {
    koa.status = 304;
    return;
  }
  koa.status = 200;
  koa.type = 'application/json';
  koa.body = body;
}
