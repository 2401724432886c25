import { ArgsType, Field, InputType, Int } from 'type-graphql';

/** Webhook inputs; the service checks values the same way for both transports (webhook.validation.ts). */
@InputType({ description: 'A new webhook.' })
export class WebhookCreateInput {
  @Field(() => String, { description: 'Where deliveries are POSTed: an http(s) URL of a public address.' }) url!: string;
  @Field(() => [String], { description: 'The events to deliver (docs/webhooks.md), at most 20.' }) events!: string[];
  @Field(() => Boolean, { nullable: true, description: 'Whether changes are delivered (default true).' }) enabled?: boolean | null;
}

@InputType({ description: 'A partial update of a webhook: absent fields are unchanged.' })
export class WebhookUpdateInput {
  @Field(() => String, { nullable: true, description: 'A new URL (checked as on create).' }) url?: string | null;
  @Field(() => [String], { nullable: true, description: 'The events to deliver.' }) events?: string[] | null;
  @Field(() => Boolean, { nullable: true, description: 'Whether changes are delivered.' }) enabled?: boolean | null;
}

@ArgsType()
export class WebhookListArgsInput {
  @Field(() => Int, { nullable: true, description: 'Page size: default 100, at most 1000.' }) limit?: number | null;
  @Field(() => Int, { nullable: true, description: 'How many to skip: default 0.' }) offset?: number | null;
}

@ArgsType()
export class WebhookDeliveryListArgsInput extends WebhookListArgsInput {
  @Field(() => String, { nullable: true, description: 'Only deliveries in this status: `pending`, `delivered` or `failed`.' })
  status?: string | null;
}
