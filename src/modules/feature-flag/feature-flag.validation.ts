import { flagErrors } from './feature-flag.errors';
import { fieldErrors } from '../../errors';
import {
  refuseDeepJson,
  refuseUnstorableJson,
  refuseUnstorableText,
  requireObject,
  parseBoolean,
  parseDateTime,
  parseInteger,
  parseList,
  parseString,
  hasField,
} from '../../validation/fields';
import { isPlainObject, pyTypeName } from '../../validation/python';
import { validateFlagFilters, type CohortInfo } from './flag-filters.validation';

export type WriteMode = 'create' | 'patch' | 'put';

/** A validated write: only the fields the client sent, in their stored form. */
export interface FlagChanges {
  name?: string;
  key?: string;
  filters?: Record<string, unknown>;
  deleted?: boolean;
  active?: boolean;
  createdAt?: Date;
  ensureExperienceContinuity?: boolean | null;
  rollbackConditions?: unknown;
  performedRollback?: boolean | null;
  tags?: string[];
  analyticsDashboards?: number[];
  hasEnrichedAnalytics?: boolean | null;
  /** The precondition (docs/rest-api.md §3.9); null means no check. */
  version?: number | null;
}

/** What validation needs from storage, answered for the flag's project. */
export interface FlagValidationLookups {
  /** Another non-deleted flag of the project holds `key` (excluding the flag being written). */
  keyTaken(key: string): Promise<boolean>;
  /** The subset of `ids` that are dashboards of the project. */
  existingDashboards(ids: number[]): Promise<number[]>;
  loadCohorts(ids: number[]): Promise<CohortInfo[]>;
}

const KEY_FORMAT = /^[a-zA-Z0-9_-]+$/;

/** Whether `key` has the form of a flag key (any other key names no stored flag). */
export const isFlagKey = (key: string) => KEY_FORMAT.test(key);

/**
 * Validates a flag write (input keyed by GraphQL field names; `attr`s use the API's names),
 * in the field table's order; the first error answers (docs/rest-api.md §1.3, §3.1–§3.3).
 */
/**
 * SPEC-GAP: a flag's filters are at most this many bytes as JSON, whoever writes them. A REST body
 * holds at most 1 MiB, but scheduled `add_release_condition` changes append to what is stored, so
 * six of them grew a flag to 5 MB: a flag no PUT could send back (413), whose every write and
 * evaluation read megabytes. Below the body cap, so a stored flag always fits a PUT.
 */
export const MAX_FILTERS_BYTES = 1_000_000;

export async function validateFlagInput(body: unknown, mode: WriteMode, lookups: FlagValidationLookups): Promise<FlagChanges> {
  const input = requireObject(body);
  const out: FlagChanges = {};
  if (hasField(input, 'name')) out.name = parseString(input.name, 'name', { allowBlank: true })!;
  if (hasField(input, 'key')) out.key = await validateKey(input.key, lookups);
  else if (mode !== 'patch') throw fieldErrors.required('key');
  if (hasField(input, 'filters')) {
    const filters = input.filters;
    if (filters === null) throw fieldErrors.null('filters');
    if (!isPlainObject(filters)) throw fieldErrors.notADict('filters', pyTypeName(filters));
    // A PATCH whose filters has no `groups` key leaves the stored filters alone (§3.3).
    if (mode !== 'patch' || hasField(filters, 'groups')) {
      // Depth first, as a REST body's is counted before it is parsed (MAX_FIELD_JSON_DEPTH).
      refuseDeepJson(filters, 'filters');
      await validateFlagFilters(filters, { requireGroups: mode !== 'patch', loadCohorts: lookups.loadCohorts });
      refuseUnstorableJson(filters, 'filters');
      if (Buffer.byteLength(JSON.stringify(filters)) > MAX_FILTERS_BYTES) throw flagErrors.filtersTooLarge(MAX_FILTERS_BYTES);
      out.filters = filters;
    }
  }
  if (hasField(input, 'deleted')) out.deleted = parseBoolean(input.deleted, 'deleted')!;
  if (hasField(input, 'active')) out.active = parseBoolean(input.active, 'active')!;
  if (hasField(input, 'createdAt')) out.createdAt = parseDateTime(input.createdAt, 'created_at')!;
  if (hasField(input, 'ensureExperienceContinuity')) {
    out.ensureExperienceContinuity = parseBoolean(input.ensureExperienceContinuity, 'ensure_experience_continuity', {
      nullable: true,
    });
  }
  if (hasField(input, 'rollbackConditions')) {
    refuseUnstorableJson(input.rollbackConditions, 'rollback_conditions');
    out.rollbackConditions = input.rollbackConditions ?? null;
  }
  if (hasField(input, 'performedRollback')) {
    out.performedRollback = parseBoolean(input.performedRollback, 'performed_rollback', { nullable: true });
  }
  if (hasField(input, 'tags')) out.tags = parseTags(input.tags);
  if (hasField(input, 'analyticsDashboards')) out.analyticsDashboards = await validateDashboards(input.analyticsDashboards, lookups);
  if (hasField(input, 'hasEnrichedAnalytics')) {
    out.hasEnrichedAnalytics = parseBoolean(input.hasEnrichedAnalytics, 'has_enriched_analytics', { nullable: true });
  }
  if (hasField(input, 'version')) out.version = parseInteger(input.version, 'version', { nullable: true });
  return out;
}

async function validateKey(value: unknown, lookups: FlagValidationLookups): Promise<string> {
  const key = parseString(value, 'key', { maxLength: 400 })!;
  if (await lookups.keyTaken(key)) throw flagErrors.keyTaken();
  if (!isFlagKey(key)) throw flagErrors.invalidKey('key');
  return key;
}

/** Trimmed, lower-cased, blanks dropped, de-duplicated, sorted (§3.2). */
function parseTags(value: unknown): string[] {
  const items = parseList(value, 'tags')!;
  const tags = new Set<string>();
  for (const item of items) {
    if (typeof item !== 'string') throw fieldErrors.notAString('tags');
    const tag = item.trim().toLowerCase();
    if (tag.length > 255) throw fieldErrors.maxLength('tags', 255);
    refuseUnstorableText(tag, 'tags');
    if (tag) tags.add(tag);
  }
  return [...tags].sort();
}

/** Each id once (`[3, "3", 3]` is one link), looked up in one statement; the first unknown one is named. */
async function validateDashboards(value: unknown, lookups: FlagValidationLookups): Promise<number[]> {
  const items = parseList(value, 'analytics_dashboards')!;
  const ids = new Set<number>();
  for (const item of items) {
    const id =
      typeof item === 'number' && Number.isSafeInteger(item) ? item : typeof item === 'string' && /^\d+$/.test(item) ? Number(item) : null;
    if (id === null) throw fieldErrors.incorrectPkType('analytics_dashboards', pyTypeName(item));
    ids.add(id);
  }
  const existing = new Set(await lookups.existingDashboards([...ids]));
  const missing = [...ids].find((id) => !existing.has(id));
  if (missing !== undefined) throw fieldErrors.doesNotExist('analytics_dashboards', String(missing));
  return [...ids];
}
