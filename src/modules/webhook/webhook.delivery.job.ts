import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { timestampOf } from '../../db/rows';
import { enqueueJob, type JobHandler } from '../../jobs/job-engine';
import { WEBHOOK_DELIVERIES_QUEUE } from '../../jobs/job-queues';
import type { WebhookDeliveryJob } from './webhook.outbox';
import { sendWebhook, type SendResult } from './webhook.send';
import { retryDelaySeconds, retryPolicy } from './webhook.settings';
import { signWebhook } from './webhook.signing';
import { checkWebhookUrl, UnsafeUrl } from './webhook.url-guard';

interface DeliveryRow {
  id: string;
  body: string;
  status: string;
  attempts: number;
  created_at: unknown;
  next_attempt_at: unknown;
  url: string;
  secret: string;
  enabled: boolean;
}

/** A job for an attempt the row no longer expects (an earlier job already rescheduled it). */
const EARLY_SLACK_MS = 1000;

/**
 * One attempt at one delivery (docs/webhooks.md "Delivery and retries"). The row says whether it is
 * still due: a delivered or failed one, or a job run again after a success, does nothing. The URL is
 * checked again (DNS may have changed since it was saved) and the checked address is the one
 * connected to. No transaction is held while the receiver answers (on the embedded database one
 * open transaction holds up every other). A failure schedules the next attempt with the backoff, in
 * the same transaction as the row's update, until 24 h after the change; then the row is `failed`.
 */
export function webhookDeliveryJob(orm: MikroORM, logger: Logger): JobHandler<WebhookDeliveryJob> {
  return {
    queue: WEBHOOK_DELIVERIES_QUEUE,
    async run(data) {
      const em = orm.em.fork();
      const [row] = await em.execute<DeliveryRow[]>(
        `select d.id, d.body, d.status, d.attempts, d.created_at, d.next_attempt_at, w.url, w.secret, w.enabled
           from webhook_delivery d join webhook w on w.id = d.webhook_id where d.id = ?`,
        [data.id],
      );
      if (!row || row.status !== 'pending') return;
      if (row.next_attempt_at && timestampOf(row.next_attempt_at).getTime() > Date.now() + EARLY_SLACK_MS) return;
      const attempts = Number(row.attempts) + 1;
      if (!row.enabled) {
        await em.execute(
          `update webhook_delivery set status = 'failed', error = ?, next_attempt_at = null where id = ? and status = 'pending'`,
          ['The webhook was disabled before the message was delivered.', row.id],
        );
        return;
      }
      const result = await attempt(row);
      if (result.error === null) {
        await em.execute(
          `update webhook_delivery set status = 'delivered', attempts = ?, response_status = ?, error = null,
             last_attempt_at = now(), next_attempt_at = null, delivered_at = now() where id = ? and status = 'pending'`,
          [attempts, result.status, row.id],
        );
        logger.info({ delivery: row.id, status: result.status, attempts }, 'webhook delivered');
        return;
      }
      const { delaysSeconds, windowSeconds } = retryPolicy();
      const next = new Date(Date.now() + retryDelaySeconds(delaysSeconds, attempts) * 1000);
      const giveUp = next.getTime() > timestampOf(row.created_at).getTime() + windowSeconds * 1000;
      await em.transactional(async (trx) => {
        await trx.execute(
          `update webhook_delivery set status = ?, attempts = ?, response_status = ?, error = ?, last_attempt_at = now(),
             next_attempt_at = ? where id = ? and status = 'pending'`,
          [giveUp ? 'failed' : 'pending', attempts, result.status, result.error, giveUp ? null : next, row.id],
        );
        if (!giveUp) await enqueueJob(trx, WEBHOOK_DELIVERIES_QUEUE, { id: row.id } satisfies WebhookDeliveryJob, next);
      });
      logger.warn({ delivery: row.id, status: result.status, attempts, error: result.error, gaveUp: giveUp }, 'webhook delivery failed');
    },
  };
}

async function attempt(row: DeliveryRow): Promise<SendResult> {
  let target;
  try {
    target = await checkWebhookUrl(row.url);
  } catch (error) {
    if (error instanceof UnsafeUrl) return { status: null, error: error.message };
    throw error;
  }
  const timestamp = Math.floor(Date.now() / 1000);
  const headers = {
    'webhook-id': row.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook(row.secret, row.id, timestamp, row.body),
  };
  return sendWebhook(target, headers, row.body);
}
