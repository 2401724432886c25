import { groupsErrors } from './flag-evaluation.errors';
import { dataRecord } from '../../data-record';

/** The REST `groups` query parameter (docs/evaluation.md §9): URL-encoded JSON, default `{}`. */
export function parseGroupsParam(raw: unknown): Record<string, unknown> {
  const text = Array.isArray(raw) ? raw[0] : raw;
  if (text === undefined || text === null || text === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(text));
  } catch {
    throw groupsErrors.invalidJson();
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw groupsErrors.notAnObject();
  return parsed as Record<string, unknown>;
}

/** Group type name → group key; a number key is stringified, anything else is refused. */
export function groupKeys(groups: Record<string, unknown> | null | undefined): Record<string, string> {
  const keys = dataRecord<string>();
  for (const [name, key] of Object.entries(groups ?? {})) {
    if (typeof key === 'string') keys[name] = key;
    else if (typeof key === 'number' && Number.isFinite(key)) keys[name] = String(key);
    else throw groupsErrors.notAnObject();
  }
  return keys;
}
