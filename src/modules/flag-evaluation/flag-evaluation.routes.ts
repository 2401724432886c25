import { FLAGS } from '../../rest/paths';
import { handlerRoute, localEvaluationScope, projectScope, type Route } from '../../rest/route';
import { blastRadius, evaluationReasons, myFlags } from './flag-evaluation.operations';
import { serveLocalEvaluation } from './local-evaluation.handler';
import { localEvaluationDocs } from './local-evaluation.openapi';

/** The flag helpers that evaluate (docs/rest-api.md §4.4–§4.7) and the SDK polling paths (docs/evaluation.md §7.1). */
export const flagEvaluationRoutes: Route[] = [
  {
    method: 'GET',
    path: `${FLAGS}/evaluation_reasons`,
    auth: projectScope('feature_flag:read'),
    kind: 'query',
    operation: evaluationReasons,
    present: evaluationReasons.present,
    status: 200,
    shape: 'one',
  },
  handlerRoute({
    method: 'GET',
    path: `${FLAGS}/local_evaluation`,
    auth: localEvaluationScope,
    handle: serveLocalEvaluation,
    docs: localEvaluationDocs,
  }),
  {
    method: 'GET',
    path: `${FLAGS}/my_flags`,
    auth: projectScope('feature_flag:read'),
    kind: 'query',
    operation: myFlags,
    status: 200,
    shape: 'one',
  },
  {
    method: 'POST',
    path: `${FLAGS}/user_blast_radius`,
    auth: projectScope('feature_flag:read'),
    kind: 'query',
    inputType: 'BlastRadiusInput',
    operation: blastRadius,
    status: 200,
    shape: 'one',
  },
  // The project comes from `?token=`.
  ...['/flags/definitions', '/api/feature_flag/local_evaluation'].map((path) =>
    handlerRoute({ method: 'GET', path, auth: localEvaluationScope, handle: serveLocalEvaluation, docs: localEvaluationDocs }),
  ),
];
