import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { enqueueJob } from '../../jobs/job-engine';
import { WEBHOOK_DELIVERIES_QUEUE } from '../../jobs/job-queues';
import type { WebhookEvent } from './webhook.events';

/** The activity entry a delivery carries (docs/webhooks.md "The message"): the activity API's fields. */
export interface AnnouncedEntry {
  id: string;
  projectId: number;
  scope: string;
  itemId: string;
  activity: string;
  userId: number;
  detail: unknown;
  createdAt: Date;
}

/** What the delivery job is given: the delivery's id (the row holds the rest). */
export interface WebhookDeliveryJob {
  id: string;
}

/**
 * Queues a delivery of `entry` to each enabled webhook of its project that asks for one of `events`,
 * with `em`: inside the change's own transaction, the `webhook_delivery` row and its pg-boss job both
 * (README decisions). A change that rolls back queues nothing; one that commits has its deliveries.
 * Costs one statement when no webhook listens.
 */
export async function queueWebhookDeliveries(em: EntityManager, entry: AnnouncedEntry, events: WebhookEvent[]): Promise<void> {
  if (events.length === 0) return;
  // Every write that logs activity runs in a transaction; should one not, its deliveries still go together.
  if (!em.isInTransaction()) return em.transactional((trx) => queueWebhookDeliveries(trx, entry, events));
  // FOR KEY SHARE: a webhook deleted meanwhile waits for this transaction (then takes its deliveries
  // with it) or, deleted first, is not found; unlocked, its delete between this read and the insert
  // failed the delivery's foreign key and the change answered 500.
  const targets: Array<{ id: number; type: string }> = await em.execute(
    `select w.id, e.type from webhook w cross join unnest(string_to_array(?, ',')) as e(type)
      where w.project_id = ? and w.enabled and w.events @> jsonb_build_array(e.type) order by w.id, e.type
      for key share of w`,
    [events.join(','), entry.projectId],
  );
  if (targets.length === 0) return;
  const [user] = await em.execute<Array<{ id: number; uuid: string; email: string; first_name: string }>>(
    'select id, uuid, email, first_name from app_user where id = ?',
    [entry.userId],
  );
  const timestamp = entry.createdAt.toISOString();
  const data = {
    id: entry.id,
    project_id: entry.projectId,
    scope: entry.scope,
    item_id: entry.itemId,
    activity: entry.activity,
    user: user ? { id: Number(user.id), uuid: user.uuid, email: user.email, first_name: user.first_name } : null,
    detail: entry.detail,
    created_at: timestamp,
  };
  for (const target of targets) {
    const id = `msg_${randomUUID().replace(/-/g, '')}`;
    // The Standard Webhooks payload structure: type, timestamp, data.
    const body = JSON.stringify({ type: target.type, timestamp, data });
    await em.execute(
      `insert into webhook_delivery (id, webhook_id, event_type, body, status, attempts, created_at, next_attempt_at)
         values (?, ?, ?, ?, 'pending', 0, now(), now())`,
      [id, target.id, target.type, body],
    );
    const job: WebhookDeliveryJob = { id };
    await enqueueJob(em, WEBHOOK_DELIVERIES_QUEUE, job, new Date());
  }
}
