import type { Endpoint } from '../http/route-policy';
import { graphqlEndpoints } from '../graphql/endpoints';
import { probeEndpoints } from '../http/probes';
import { metricsEndpoints } from '../http/metrics';
import { schemaEndpoints } from '../openapi/serve';
import { posthogStaticEndpoints } from '../http/posthog-static';
import { consoleEndpoints } from '../http/console';
import { activityRoutes } from '../modules/activity/activity.routes';
import { cohortRoutes } from '../modules/cohort/cohort.routes';
import { dashboardRoutes, flagDashboardRoutes } from '../modules/dashboard/dashboard.routes';
import { experimentRoutes } from '../modules/experiment/experiment.routes';
import { featureFlagRoutes } from '../modules/feature-flag/feature-flag.routes';
import { flagEvaluationRoutes } from '../modules/flag-evaluation/flag-evaluation.routes';
import { ofrepEndpoints } from '../modules/flag-evaluation/ofrep.handler';
import { remoteEvaluationEndpoints } from '../modules/flag-evaluation/remote-evaluation.handler';
import { captureEndpoints } from '../modules/ingestion/capture.handler';
import { ingestionRoutes } from '../modules/ingestion/ingestion.routes';
import { personalApiKeyRoutes } from '../modules/personal-api-key/personal-api-key.routes';
import { flagRoleAccessRoutes, roleRoutes } from '../modules/role/role.routes';
import { scheduledChangeRoutes } from '../modules/scheduled-change/scheduled-change.routes';
import { webhookRoutes } from '../modules/webhook/webhook.routes';
import type { Route } from './route';

/**
 * THE route table's REST rows: every documented path, each module's rows in the order of docs/rest-api.md's
 * endpoint table. Each row names its auth, what it runs (a GraphQL operation, or the service a write calls),
 * its status and shape. Order does not decide matching: the dispatcher tries literal segments before
 * parameters (`/feature_flags/my_flags` before `/feature_flags/:id`, src/http/dispatch.ts).
 */
export const routes: Route[] = [
  ...featureFlagRoutes,
  ...flagEvaluationRoutes,
  ...activityRoutes,
  ...flagDashboardRoutes,
  ...flagRoleAccessRoutes,
  ...experimentRoutes,
  ...roleRoutes,
  ...cohortRoutes,
  ...dashboardRoutes,
  ...ingestionRoutes,
  ...personalApiKeyRoutes,
  ...scheduledChangeRoutes,
  ...webhookRoutes,
];

/**
 * The rows served by handlers of their own, each owned by the module that serves it: SDK ingestion
 * and evaluation, GraphQL, the probes, the metrics, this API's OpenAPI document, posthog-js's
 * bundles and the console. With `routes` above, every path the service answers (src/http/dispatch.ts).
 */
export const endpoints: Endpoint[] = [
  ...captureEndpoints,
  ...remoteEvaluationEndpoints,
  ...ofrepEndpoints,
  ...graphqlEndpoints,
  ...probeEndpoints,
  ...metricsEndpoints,
  ...schemaEndpoints,
  ...posthogStaticEndpoints,
  ...consoleEndpoints(),
];
