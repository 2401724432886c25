import { fieldErrors, ValidationError } from '../../errors';
import { hasField, parseBoolean, parseList, parseString, requireObject } from '../../validation/fields';
import { pyRepr } from '../../validation/python';
import { WEBHOOK_EVENTS, type WebhookEvent } from './webhook.events';
import { WEBHOOK_LIMITS } from './webhook.settings';

export interface WebhookFields {
  url?: string;
  events?: WebhookEvent[];
  enabled?: boolean;
}

/** A create's fields (`url` and `events` required) or a partial update's, checked for shape; the URL's address is checked by the service. */
export function parseWebhookInput(raw: unknown, mode: 'create' | 'update'): WebhookFields {
  const input = requireObject(raw);
  const fields: WebhookFields = {};
  const present = (name: string) => {
    if (mode === 'create' && !hasField(input, name)) throw fieldErrors.required(name);
    return hasField(input, name);
  };
  if (present('url')) fields.url = parseString(input.url, 'url', { maxLength: WEBHOOK_LIMITS.urlLength })!;
  if (present('events')) fields.events = parseEvents(input.events);
  if (hasField(input, 'enabled')) fields.enabled = parseBoolean(input.enabled, 'enabled')!;
  return fields;
}

function parseEvents(value: unknown): WebhookEvent[] {
  const list = parseList(value, 'events')!;
  if (list.length === 0) throw new ValidationError('empty', 'This list may not be empty.', 'events');
  if (list.length > WEBHOOK_LIMITS.eventsPerWebhook) {
    throw new ValidationError('max_length', `Ensure this field has no more than ${WEBHOOK_LIMITS.eventsPerWebhook} elements.`, 'events');
  }
  const events = new Set<WebhookEvent>();
  for (const item of list) {
    if (typeof item !== 'string' || !(WEBHOOK_EVENTS as readonly string[]).includes(item)) {
      throw fieldErrors.invalidChoice('events', typeof item === 'string' ? item.slice(0, 100) : pyRepr(item).slice(0, 100));
    }
    events.add(item as WebhookEvent);
  }
  return [...events];
}
