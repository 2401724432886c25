import type { Context } from 'koa';
import type { AppContext } from '../context';
import { ifNoneMatchHits, localEvaluationDefinitions } from '../modules/flag-evaluation/local-evaluation';
import type { Project } from '../modules/project/project.entity';

/** The SDK hot path (rest-flags.md §4.5): the definitions body with its ETag, or 304 when the client has it. */
export async function serveLocalEvaluation(ctx: AppContext, koa: Context, access: unknown): Promise<void> {
  const project = access as Project;
  const { body, etag } = await localEvaluationDefinitions(ctx.em, project.id);
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
