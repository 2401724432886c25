import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../../context';
import { PROJECT_ID_DESCRIPTION } from '../../graphql/arguments';
import { PageOf } from '../../graphql/page';
import { User } from '../user/user.entity';
import { Webhook, WebhookDelivery } from './webhook.entity';
import { WebhookCreateInput, WebhookDeliveryListArgsInput, WebhookListArgsInput, WebhookUpdateInput } from './webhook.inputs';
import { revealedSecret, WebhookService } from './webhook.service';

const WebhookPage = PageOf(Webhook, 'WebhookPage', 'webhooks');
const WebhookDeliveryPage = PageOf(WebhookDelivery, 'WebhookDeliveryPage', 'webhook deliveries');
const WEBHOOK_ID = "The webhook's id.";

/** The twins of /api/projects/:project_id/webhooks/ (docs/webhooks.md). */
@Resolver(() => Webhook)
export class WebhookResolver {
  @Query(() => WebhookPage, { description: "A project's webhooks, oldest first (needs `webhook:read`)." })
  webhooks(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Args() args: WebhookListArgsInput,
  ) {
    return WebhookService.list(ctx, projectId, args);
  }

  @Query(() => Webhook, { description: 'One webhook (needs `webhook:read`).' })
  webhook(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Arg('id', () => Int, { description: WEBHOOK_ID }) id: number,
  ) {
    return WebhookService.get(ctx, projectId, id);
  }

  @Query(() => WebhookDeliveryPage, { description: "A webhook's deliveries, newest first (needs `webhook:read`)." })
  webhookDeliveries(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Arg('id', () => Int, { description: WEBHOOK_ID }) id: number,
    @Args() args: WebhookDeliveryListArgsInput,
  ) {
    return WebhookService.deliveries(ctx, projectId, id, args);
  }

  @Mutation(() => Webhook, {
    description: 'Makes a webhook (needs `webhook:write` and admin level); its `secret` is shown in this answer only.',
  })
  createWebhook(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Arg('input', () => WebhookCreateInput, { description: 'The webhook.' }) input: WebhookCreateInput,
  ) {
    return WebhookService.create(ctx, projectId, input);
  }

  @Mutation(() => Webhook, { description: 'Edits a webhook (needs `webhook:write` and admin level).' })
  updateWebhook(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Arg('id', () => Int, { description: WEBHOOK_ID }) id: number,
    @Arg('input', () => WebhookUpdateInput, { description: 'The fields to change.' }) input: WebhookUpdateInput,
  ) {
    return WebhookService.update(ctx, projectId, id, input);
  }

  @Mutation(() => Webhook, {
    description: 'Gives a webhook a new signing secret, shown in this answer only (needs `webhook:write` and admin level).',
  })
  rotateWebhookSecret(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Arg('id', () => Int, { description: WEBHOOK_ID }) id: number,
  ) {
    return WebhookService.rotateSecret(ctx, projectId, id);
  }

  @Mutation(() => Int, { description: 'Removes a webhook and its deliveries, and answers its id (needs `webhook:write` and admin level).' })
  async deleteWebhook(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Arg('id', () => Int, { description: WEBHOOK_ID }) id: number,
  ) {
    return (await WebhookService.delete(ctx, projectId, id)).id;
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: 'The signing secret (`whsec_…`): only in the answer to the create or rotation that made it.',
  })
  secret(@Root() webhook: Webhook, @Ctx() ctx: AppContext): string | null {
    return revealedSecret(ctx, webhook.id);
  }

  @FieldResolver(() => User, { nullable: true, description: 'Who made the webhook; null once that user is gone.' })
  createdBy(@Root() webhook: Webhook, @Ctx() ctx: AppContext) {
    return webhook.createdBy ? ctx.loaders.user.load(webhook.createdBy.id) : null;
  }
}
