import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { DateTimeScalar } from '../../graphql/scalars';
import { Project } from '../project/project.entity';
import { User } from '../user/user.entity';
import { stampNow } from '../../clock';

/**
 * A project's signed webhook (docs/webhooks.md): the changes it hears (`events`), where they go
 * (`url`), and the secret deliveries are signed with. The secret is stored as it is shown
 * (`whsec_…`), since signing needs it back (README decisions); it is read only by the delivery
 * job and shown only in the answers to a create and a rotation.
 */
@ObjectType({ description: 'A signed webhook: changes to flags and experiments posted to a URL (docs/webhooks.md).' })
@Entity({ tableName: 'webhook' })
export class Webhook {
  [OptionalProps]?: 'id' | 'enabled' | 'createdAt' | 'updatedAt' | 'createdBy';

  @Field(() => Int, { description: "The webhook's id." })
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => Project, { deleteRule: 'cascade' })
  project!: Project;

  @Field(() => String, { description: 'Where deliveries are POSTed: an http(s) URL of a public address.' })
  @Property({ type: 'text' })
  url!: string;

  @Field(() => [String], { description: 'The events delivered, e.g. `feature_flag.updated` (docs/webhooks.md).' })
  @Property({ type: 'jsonb' })
  events!: string[];

  @Field(() => Boolean, { description: 'Whether changes are delivered; a disabled webhook queues nothing.' })
  @Property({ type: 'boolean' })
  enabled: boolean = true;

  /** `whsec_` + base64 of 32 random bytes. */
  @Property({ type: 'text', lazy: true })
  secret!: string;

  @Field(() => DateTimeScalar, { description: 'When the webhook was made.' })
  @Property({ type: 'timestamptz', onCreate: stampNow })
  createdAt!: Date;

  @Field(() => DateTimeScalar, { description: 'When the webhook was last edited or its secret rotated.' })
  @Property({ type: 'timestamptz', onCreate: stampNow, onUpdate: stampNow })
  updatedAt!: Date;

  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  createdBy: User | null = null;
}

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One message to one webhook: written in the transaction of the change it announces, with its
 * job (src/modules/webhook/webhook.outbox.ts); `id` is the Standard Webhooks `webhook-id`, the
 * same on every attempt, so a receiver can drop a repeat.
 */
@ObjectType({ description: 'One message to a webhook and how its delivery went (docs/webhooks.md).' })
@Entity({ tableName: 'webhook_delivery' })
@Index({ properties: ['webhook', 'createdAt'] })
export class WebhookDelivery {
  [OptionalProps]?: 'status' | 'attempts' | 'responseStatus' | 'error' | 'createdAt' | 'lastAttemptAt' | 'nextAttemptAt' | 'deliveredAt';

  @Field(() => String, { description: 'The message id (`msg_…`), sent as the `webhook-id` header on every attempt.' })
  @PrimaryKey({ type: 'text' })
  id!: string;

  @ManyToOne(() => Webhook, { deleteRule: 'cascade' })
  webhook!: Webhook;

  @Field(() => String, { description: 'The event, e.g. `feature_flag.updated`.' })
  @Property({ type: 'text' })
  eventType!: string;

  /** The body sent, byte for byte on every attempt (the signature covers it). */
  @Property({ type: 'text' })
  body!: string;

  @Field(() => String, {
    description: '`pending` (not yet delivered; retried), `delivered` (a 2xx answer) or `failed` (gave up after 24 h).',
  })
  @Property({ type: 'text' })
  status: DeliveryStatus = 'pending';

  @Field(() => Int, { description: 'How many attempts were made.' })
  @Property({ type: 'integer' })
  attempts: number = 0;

  @Field(() => Int, { nullable: true, description: "The receiver's HTTP status at the last attempt; null if it gave none." })
  @Property({ type: 'integer', nullable: true })
  responseStatus: number | null = null;

  @Field(() => String, { nullable: true, description: 'Why the last attempt failed; null after a success or before any attempt.' })
  @Property({ type: 'text', nullable: true })
  error: string | null = null;

  // Written by the outbox's statement (webhook.outbox.ts), on the database's clock as the activity entry it carries.
  @Field(() => DateTimeScalar, { description: 'When the change was committed (the delivery queued).' })
  @Property({ type: 'timestamptz' })
  createdAt!: Date;

  @Field(() => DateTimeScalar, { nullable: true, description: 'When the last attempt was made.' })
  @Property({ type: 'timestamptz', nullable: true })
  lastAttemptAt: Date | null = null;

  @Field(() => DateTimeScalar, { nullable: true, description: 'When the next attempt is due; null unless pending.' })
  @Property({ type: 'timestamptz', nullable: true })
  nextAttemptAt: Date | null = null;

  @Field(() => DateTimeScalar, { nullable: true, description: 'When a receiver accepted it.' })
  @Property({ type: 'timestamptz', nullable: true })
  deliveredAt: Date | null = null;
}
