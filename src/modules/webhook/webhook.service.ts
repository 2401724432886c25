import type { EntityManager } from '@mikro-orm/postgresql';
import { accessProject, callerReference, parseId, projectReference } from '../../auth/access';
import { requireAdmin } from '../../auth/organization-access';
import type { AppContext } from '../../context';
import { fieldErrors, requestErrors } from '../../errors';
import { findPage, type Page, type PageArgs } from '../../pagination';
import { DELIVERY_STATUSES, Webhook, WebhookDelivery } from './webhook.entity';
import { webhookErrors } from './webhook.errors';
import { newWebhookSecret } from './webhook.signing';
import { WEBHOOK_LIMITS } from './webhook.settings';
import { checkWebhookUrl, UnsafeUrl } from './webhook.url-guard';
import { parseWebhookInput } from './webhook.validation';

export interface DeliveryListArgs extends PageArgs {
  status?: string | null;
}

/**
 * Secrets revealed in a request: the one a create or a rotation made, by webhook id, for as long as
 * the request lives. The `secret` field reads it, so only those answers ever carry a secret.
 */
const revealed = new WeakMap<object, Map<number, string>>();

export const revealedSecret = (ctx: AppContext, id: number): string | null => revealed.get(ctx)?.get(id) ?? null;

function reveal(ctx: AppContext, webhook: Webhook): void {
  const shown = revealed.get(ctx) ?? new Map<number, string>();
  shown.set(webhook.id, webhook.secret);
  revealed.set(ctx, shown);
}

async function findWebhook(em: EntityManager, projectId: number, id: unknown): Promise<Webhook> {
  const webhookId = parseId(id);
  const webhook = webhookId ? await em.findOne(Webhook, { id: webhookId, project: projectId }) : null;
  if (!webhook) throw requestErrors.notFound();
  return webhook;
}

/** The URL's form and every address its host resolves to (docs/webhooks.md "Which URLs"); 400 at `url`. */
async function checkUrl(url: string): Promise<void> {
  try {
    await checkWebhookUrl(url);
  } catch (error) {
    if (error instanceof UnsafeUrl) throw webhookErrors.unsafeUrl(error.message);
    throw error;
  }
}

/**
 * Webhooks of a project (docs/webhooks.md); both transports call these. Reading needs `webhook:read`
 * and membership; changing them, `webhook:write` and the organization's admin level, since a
 * webhook sends the project's changes to a place of its maker's choosing.
 */
export const WebhookService = {
  async list(ctx: AppContext, projectRef: unknown, args: PageArgs): Promise<Page<Webhook>> {
    const { project } = await accessProject(ctx, projectRef, 'webhook:read');
    return findPage(ctx.em, Webhook, { project: project.id }, { id: 'asc' }, args);
  },

  async get(ctx: AppContext, projectRef: unknown, id: unknown): Promise<Webhook> {
    const { project } = await accessProject(ctx, projectRef, 'webhook:read');
    return findWebhook(ctx.em, project.id, id);
  },

  async create(ctx: AppContext, projectRef: unknown, input: unknown): Promise<Webhook> {
    const access = await accessProject(ctx, projectRef, 'webhook:write');
    requireAdmin(access);
    const fields = parseWebhookInput(input, 'create');
    await checkUrl(fields.url!);
    const webhook = await ctx.em.transactional(async (em) => {
      // The project row's lock serializes creates, so the cap holds under concurrent requests.
      await em.execute('select id from project where id = ? for update', [access.project.id]);
      if ((await em.count(Webhook, { project: access.project.id })) >= WEBHOOK_LIMITS.webhooksPerProject) throw webhookErrors.tooMany();
      const created = em.create(Webhook, {
        project: projectReference(em, access),
        url: fields.url!,
        events: fields.events!,
        enabled: fields.enabled ?? true,
        secret: newWebhookSecret(),
        createdBy: callerReference(em, access.caller),
      });
      await em.flush();
      return created;
    });
    reveal(ctx, webhook);
    return webhook;
  },

  /** PATCH (partial) and PUT (`url` and `events` required). The secret is unchanged: rotateSecret changes it. */
  async update(ctx: AppContext, projectRef: unknown, id: unknown, input: unknown, mode: 'patch' | 'put' = 'patch'): Promise<Webhook> {
    const access = await accessProject(ctx, projectRef, 'webhook:write');
    const webhook = await findWebhook(ctx.em, access.project.id, id);
    requireAdmin(access);
    const fields = parseWebhookInput(input, mode === 'put' ? 'create' : 'update');
    if (fields.url !== undefined) await checkUrl(fields.url);
    if (fields.url !== undefined) webhook.url = fields.url;
    if (fields.events !== undefined) webhook.events = fields.events;
    if (fields.enabled !== undefined) webhook.enabled = fields.enabled;
    await ctx.em.flush();
    return webhook;
  },

  /** A new secret, shown in this answer only; deliveries signed from now on use it (pending ones too). */
  async rotateSecret(ctx: AppContext, projectRef: unknown, id: unknown): Promise<Webhook> {
    const access = await accessProject(ctx, projectRef, 'webhook:write');
    const webhook = await findWebhook(ctx.em, access.project.id, id);
    requireAdmin(access);
    webhook.secret = newWebhookSecret();
    await ctx.em.flush();
    reveal(ctx, webhook);
    return webhook;
  },

  /** Removes the webhook and its deliveries; pending attempts find nothing and do nothing. */
  async delete(ctx: AppContext, projectRef: unknown, id: unknown): Promise<Webhook> {
    const access = await accessProject(ctx, projectRef, 'webhook:write');
    const webhook = await findWebhook(ctx.em, access.project.id, id);
    requireAdmin(access);
    await ctx.em.nativeDelete(Webhook, { id: webhook.id });
    return webhook;
  },

  /** The webhook's deliveries, newest first; `status` filters (`pending`, `delivered`, `failed`). */
  async deliveries(ctx: AppContext, projectRef: unknown, id: unknown, args: DeliveryListArgs): Promise<Page<WebhookDelivery>> {
    const { project } = await accessProject(ctx, projectRef, 'webhook:read');
    const webhook = await findWebhook(ctx.em, project.id, id);
    const where: Record<string, unknown> = { webhook: webhook.id };
    if (args.status) {
      if (!(DELIVERY_STATUSES as readonly string[]).includes(args.status))
        throw fieldErrors.invalidChoice('status', args.status.slice(0, 100));
      where.status = args.status;
    }
    return findPage(ctx.em, WebhookDelivery, where, { createdAt: 'desc', id: 'desc' }, args);
  },
};
