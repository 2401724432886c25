import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { scheduledChangeJob } from '../modules/scheduled-change/scheduled-change.job';
import { webhookDeliveryJob } from '../modules/webhook/webhook.delivery.job';
import type { JobHandler } from './job-engine';

/** What a service process's job engine runs: one handler per queue of src/jobs/job-queues.ts. */
export function jobHandlers(orm: MikroORM, logger: Logger): Array<JobHandler<object>> {
  return [
    scheduledChangeJob(orm, logger) as unknown as JobHandler<object>,
    webhookDeliveryJob(orm, logger) as unknown as JobHandler<object>,
  ];
}
