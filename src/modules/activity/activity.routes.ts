import { FLAG, FLAGS } from '../../rest/paths';
import { projectScope, type Route } from '../../rest/route';
import { flagActivity, flagsActivity } from './activity.operations';

/** A project's flag activity and one flag's (docs/activity.md). */
export const activityRoutes: Route[] = [
  // `activity` is a literal (docs/README.md decision 2), which the dispatcher tries before `/:id`.
  {
    method: 'GET',
    path: `${FLAGS}/activity`,
    auth: projectScope('activity_log:read'),
    kind: 'query',
    operation: flagsActivity,
    present: flagsActivity.present,
    status: 200,
    shape: 'one',
  },
  {
    method: 'GET',
    path: `${FLAG}/activity`,
    auth: projectScope('activity_log:read'),
    kind: 'query',
    operation: flagActivity,
    present: flagActivity.present,
    status: 200,
    shape: 'one',
  },
];
