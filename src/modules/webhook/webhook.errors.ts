import { ValidationError } from '../../errors';
import { WEBHOOK_LIMITS } from './webhook.settings';

/** Webhooks' messages (docs/webhooks.md). */
export const webhookErrors = {
  unsafeUrl: (detail: string) => new ValidationError('invalid_url', detail, 'url'),
  tooMany: () => new ValidationError('max_webhooks', `A project may have at most ${WEBHOOK_LIMITS.webhooksPerProject} webhooks.`),
};
