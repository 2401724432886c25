/** A queue of the job engine (src/jobs/job-engine.ts): its name and how a failing job is retried. */
export interface JobQueue {
  name: string;
  retryLimit: number;
  retryDelaySeconds: number;
}

/** Applies one scheduled change when it is due (src/modules/scheduled-change/scheduled-change.job.ts). */
export const SCHEDULED_CHANGES_QUEUE: JobQueue = { name: 'scheduled-changes', retryLimit: 3, retryDelaySeconds: 5 };

/** Every queue; installed with the schema, so any process may enqueue on them. */
export const JOB_QUEUES: JobQueue[] = [SCHEDULED_CHANGES_QUEUE];
