import { fieldErrors } from '../../errors';
import { hasField, parseDateTime, parseString, refuseUnstorableJson, requireObject } from '../../validation/fields';
import { isPlainObject, pyRepr, pyTypeName } from '../../validation/python';
import type { FeatureFlag } from '../feature-flag/feature-flag.entity';

export const MODEL_NAMES = ['FeatureFlag'] as const;
export const OPERATIONS = ['update_status', 'add_release_condition'] as const;
export type ScheduledOperation = (typeof OPERATIONS)[number];

export interface ScheduledChangeFields {
  recordId?: string;
  modelName?: string;
  payload?: { operation: ScheduledOperation; value: unknown };
  scheduledAt?: Date;
}

/** The fields of a create (all required but `model_name`) or a partial update, checked for shape. */
export function parseScheduledChangeInput(raw: unknown, mode: 'create' | 'update'): ScheduledChangeFields {
  const input = requireObject(raw);
  const fields: ScheduledChangeFields = {};
  const required = (name: string, attr: string) => {
    if (mode === 'create' && !hasField(input, name)) throw fieldErrors.required(attr);
    return hasField(input, name);
  };
  if (required('recordId', 'record_id')) fields.recordId = parseString(input.recordId, 'record_id', { maxLength: 200 })!;
  if (hasField(input, 'modelName')) {
    const name = parseString(input.modelName, 'model_name')!;
    if (!(MODEL_NAMES as readonly string[]).includes(name)) throw fieldErrors.invalidChoice('model_name', name);
    fields.modelName = name;
  }
  if (required('payload', 'payload')) fields.payload = parsePayload(input.payload);
  if (required('scheduledAt', 'scheduled_at')) fields.scheduledAt = parseDateTime(input.scheduledAt, 'scheduled_at')!;
  return fields;
}

// SPEC-GAP: PostHog stores any JSON payload and fails at run time ("Invalid payload", "Unrecognized
// operation"); here the shape is refused at create with those messages, at `payload`.
function parsePayload(value: unknown): { operation: ScheduledOperation; value: unknown } {
  if (value === null) throw fieldErrors.null('payload');
  if (!isPlainObject(value)) throw fieldErrors.notADict('payload', pyTypeName(value));
  refuseUnstorableJson(value, 'payload');
  if (!hasField(value, 'operation') || !hasField(value, 'value')) throw fieldErrors.invalidInput('Invalid payload', 'payload');
  const { operation } = value;
  if (typeof operation !== 'string' || !(OPERATIONS as readonly string[]).includes(operation)) {
    throw fieldErrors.invalidInput(`Unrecognized operation: ${pyRepr(operation)}`, 'payload');
  }
  if (operation === 'update_status' && typeof value.value !== 'boolean') {
    throw fieldErrors.invalidInput('update_status needs a boolean value.', 'payload');
  }
  if (operation === 'add_release_condition' && !(isPlainObject(value.value) && Array.isArray(value.value.groups))) {
    throw fieldErrors.invalidInput('add_release_condition needs a value with a list of groups.', 'payload');
  }
  return { operation: operation as ScheduledOperation, value: value.value };
}

/**
 * The flag PATCH a payload stands for, given the flag as it is now: `update_status` sets `active`;
 * `add_release_condition` appends its condition sets to the flag's `groups`, keeping the rest of
 * its filters (as PostHog's dispatcher does).
 */
export function flagPatchFor(flag: FeatureFlag, payload: { operation: string; value: unknown }): Record<string, unknown> {
  if (payload.operation === 'update_status') return { active: payload.value };
  const filters = (flag.filters ?? {}) as Record<string, unknown>;
  const current = Array.isArray(filters.groups) ? filters.groups : [];
  const added = (payload.value as { groups: unknown[] }).groups;
  return { filters: { ...filters, groups: [...current, ...added] } };
}
