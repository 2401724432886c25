/**
 * The events a webhook may ask for (docs/webhooks.md "Events"): one per activity-log entry kind,
 * plus an experiment's launch (its `start_date` set) and stop (its `end_date` set).
 */
export const WEBHOOK_EVENTS = [
  'feature_flag.created',
  'feature_flag.updated',
  'feature_flag.deleted',
  'feature_flag.restored',
  'experiment.created',
  'experiment.updated',
  'experiment.deleted',
  'experiment.launched',
  'experiment.stopped',
  'cohort.created',
  'cohort.updated',
  'cohort.deleted',
  'cohort.restored',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

const PREFIX: Record<string, string> = { FeatureFlag: 'feature_flag', Experiment: 'experiment', Cohort: 'cohort' };

interface EntryShape {
  scope: string;
  activity: string;
  changes: Array<{ field: string; before: unknown; after: unknown }> | null;
}

const set = (entry: EntryShape, field: string) =>
  (entry.changes ?? []).some((change) => change.field === field && change.before === null && change.after !== null);

/** The events an activity entry announces; `launchedOnCreate`: an experiment created with a start date. */
export function webhookEventsFor(entry: EntryShape, launchedOnCreate = false): WebhookEvent[] {
  const prefix = PREFIX[entry.scope];
  if (!prefix) return [];
  const events = [`${prefix}.${entry.activity}` as WebhookEvent];
  if (entry.scope === 'Experiment') {
    if (launchedOnCreate || (entry.activity === 'updated' && set(entry, 'start_date'))) events.push('experiment.launched');
    if (entry.activity === 'updated' && set(entry, 'end_date')) events.push('experiment.stopped');
  }
  return events.filter((event) => (WEBHOOK_EVENTS as readonly string[]).includes(event));
}
