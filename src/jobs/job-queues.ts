/** A queue of the job engine (src/jobs/job-engine.ts): its name and how a failing job is retried. */
export interface JobQueue {
  name: string;
  retryLimit: number;
  retryDelaySeconds: number;
  /** How long a taken job may run before pg-boss's maintenance counts it cut off and retries it; default 15 min. */
  expireInSeconds?: number;
}

/** Applies one scheduled change when it is due (src/modules/scheduled-change/scheduled-change.job.ts). */
export const SCHEDULED_CHANGES_QUEUE: JobQueue = { name: 'scheduled-changes', retryLimit: 3, retryDelaySeconds: 5 };

/**
 * Delivers one webhook message (src/modules/webhook/webhook.delivery.job.ts). The job schedules its own
 * retries (a backoff over 24 h, docs/webhooks.md); pg-boss's retries cover only a job that threw or expired.
 */
// An attempt lasts at most 10 s (plus a 5 s look-up): one cut off by a crash is retried after a minute, not 15.
export const WEBHOOK_DELIVERIES_QUEUE: JobQueue = { name: 'webhook-deliveries', retryLimit: 3, retryDelaySeconds: 5, expireInSeconds: 60 };

/** Every queue; installed with the schema, so any process may enqueue on them. */
export const JOB_QUEUES: JobQueue[] = [SCHEDULED_CHANGES_QUEUE, WEBHOOK_DELIVERIES_QUEUE];
