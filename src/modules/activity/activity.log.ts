import type { EntityManager } from '@mikro-orm/postgresql';
import { formatTimestampSeconds } from '../../graphql/scalars';
import type { Experiment } from '../experiment/experiment.entity';
import type { FeatureFlag } from '../feature-flag/feature-flag.entity';
import { copyJson } from '../../validation/copy-json';
import { sameJson } from '../../validation/same-json';
import { ActivityStore } from './activity.store';
import { webhookEventsFor } from '../webhook/webhook.events';
import { queueWebhookDeliveries } from '../webhook/webhook.outbox';

/** What an entry is about (`scope` on the wire); stored as this text. */
export type ActivityScope = 'FeatureFlag' | 'Experiment' | 'Cohort';
export type ActivityKind = 'created' | 'updated' | 'deleted' | 'restored';

export interface ActivityChange {
  type: ActivityScope;
  action: 'created' | 'changed' | 'deleted';
  field: string;
  before: unknown;
  after: unknown;
}

export interface ActivityDetail {
  changes: ActivityChange[] | null;
  trigger: null;
  type: null;
  /** The item's key (flags) or name, as it was right after the change. */
  name: string;
  short_id: null;
}

/** Who writes an entry, and in which project: a project access, or what an organization-wide change knows. */
export interface ActivityAuthor {
  project: { id: number };
  caller: { user: { id: number } };
}

interface Entry {
  scope: ActivityScope;
  itemId: number | string;
  activity: ActivityKind;
  name: string;
  changes: ActivityChange[] | null;
  /** An experiment created already launched (its `start_date` set): also `experiment.launched`. */
  launched?: boolean;
}

/**
 * Writes one entry with the caller's EntityManager, so inside the transaction of the change it
 * records: a write that rolls back leaves no entry, one that commits always has its entry.
 * `created_at` is the database's clock at this statement (after any row lock was taken), so the
 * entries of one item are ordered as its writes were.
 */
export async function recordActivity(em: EntityManager, access: ActivityAuthor, entry: Entry): Promise<void> {
  const detail: ActivityDetail = { changes: entry.changes, trigger: null, type: null, name: entry.name, short_id: null };
  const record = {
    projectId: access.project.id,
    scope: entry.scope,
    itemId: String(entry.itemId),
    activity: entry.activity,
    userId: access.caller.user.id,
    detail,
  };
  const written = await ActivityStore.insert(em, record);
  // The after-change point of every logged write: webhooks hear of it in the same transaction (docs/webhooks.md).
  await queueWebhookDeliveries(em, { ...record, ...written }, webhookEventsFor(entry, entry.launched));
}

/** One change in the upstream's terms: from nothing is `created`, to nothing `deleted`, else `changed`. */
function change(type: ActivityScope, field: string, before: unknown, after: unknown): ActivityChange {
  const action = before === null || before === undefined ? 'created' : after === null || after === undefined ? 'deleted' : 'changed';
  return { type, action, field, before: before ?? null, after: after ?? null };
}

function changesBetween<T>(
  type: ActivityScope,
  fields: ReadonlyArray<readonly [string, (item: T) => unknown]>,
  before: T,
  after: T,
): ActivityChange[] {
  return fields.flatMap(([field, read]) => {
    const [was, is] = [read(before), read(after)];
    return sameJson(was, is) ? [] : [change(type, field, was, is)];
  });
}

// ---------------------------------------------------------------------------------------------
// Flags (docs/activity.md)

/**
 * The logged flag fields, in the order changes are listed. Left out on purpose: `version`,
 * `analytics_dashboards`, `usage_dashboard`, `created_at` and the computed fields.
 */
const FLAG_FIELDS: ReadonlyArray<readonly [string, (flag: FlagSnapshot) => unknown]> = [
  ['name', (f) => f.name],
  ['key', (f) => f.key],
  ['filters', (f) => f.filters],
  ['deleted', (f) => f.deleted],
  ['active', (f) => f.active],
  ['ensure_experience_continuity', (f) => f.ensureExperienceContinuity],
  ['rollback_conditions', (f) => f.rollbackConditions],
  ['performed_rollback', (f) => f.performedRollback],
  ['has_enriched_analytics', (f) => f.hasEnrichedAnalytics],
  ['tags', (f) => [...f.tags].sort()],
];

export type FlagSnapshot = Pick<
  FeatureFlag,
  | 'name'
  | 'key'
  | 'filters'
  | 'deleted'
  | 'active'
  | 'ensureExperienceContinuity'
  | 'rollbackConditions'
  | 'performedRollback'
  | 'hasEnrichedAnalytics'
  | 'tags'
>;

/** The logged fields of a flag before a write (copied: the write changes the entity in place). */
export function flagSnapshot(flag: FeatureFlag): FlagSnapshot {
  return copyJson({
    name: flag.name,
    key: flag.key,
    filters: flag.filters,
    deleted: flag.deleted,
    active: flag.active,
    ensureExperienceContinuity: flag.ensureExperienceContinuity,
    rollbackConditions: flag.rollbackConditions,
    performedRollback: flag.performedRollback,
    hasEnrichedAnalytics: flag.hasEnrichedAnalytics,
    tags: flag.tags,
  });
}

export function logFlagCreated(em: EntityManager, access: ActivityAuthor, flag: FeatureFlag): Promise<void> {
  return recordActivity(em, access, { scope: 'FeatureFlag', itemId: flag.id, activity: 'created', name: flag.key, changes: null });
}

/** `deleted`/`restored` when `deleted` flipped, else `updated`; nothing when no logged field changed. */
export async function logFlagUpdated(em: EntityManager, access: ActivityAuthor, before: FlagSnapshot, flag: FeatureFlag): Promise<void> {
  const changes = changesBetween('FeatureFlag', FLAG_FIELDS, before, flag);
  if (changes.length === 0) return;
  const activity = before.deleted !== flag.deleted ? (flag.deleted ? 'deleted' : 'restored') : 'updated';
  await recordActivity(em, access, { scope: 'FeatureFlag', itemId: flag.id, activity, name: flag.key, changes });
}

/**
 * SPEC-GAP: role access granted or revoked on a flag is an `updated` entry on the flag with one
 * change of the field `role_access`: `created` with the role as `after`, or `deleted` with it as `before`.
 */
export function logFlagRoleAccess(
  em: EntityManager,
  access: ActivityAuthor,
  flag: Pick<FeatureFlag, 'id' | 'key'>,
  role: { id: string; name: string },
  granted: boolean,
): Promise<void> {
  const shown = { role_id: role.id, role_name: role.name };
  return recordActivity(em, access, {
    scope: 'FeatureFlag',
    itemId: flag.id,
    activity: 'updated',
    name: flag.key,
    changes: [change('FeatureFlag', 'role_access', granted ? null : shown, granted ? shown : null)],
  });
}

// ---------------------------------------------------------------------------------------------
// Experiments

const date = (value: Date | null) => (value ? formatTimestampSeconds(value) : null);

/** SPEC-GAP: the logged experiment fields (PostHog's API names none): what a client can write (docs/activity.md). */
const EXPERIMENT_FIELDS: ReadonlyArray<readonly [string, (experiment: ExperimentSnapshot) => unknown]> = [
  ['name', (e) => e.name],
  ['description', (e) => e.description],
  ['start_date', (e) => date(e.startDate)],
  ['end_date', (e) => date(e.endDate)],
  ['parameters', (e) => e.parameters],
  ['secondary_metrics', (e) => e.secondaryMetrics],
  ['filters', (e) => e.filters],
  ['archived', (e) => e.archived],
];

export type ExperimentSnapshot = Pick<
  Experiment,
  'name' | 'description' | 'startDate' | 'endDate' | 'parameters' | 'secondaryMetrics' | 'filters' | 'archived'
>;

export function experimentSnapshot(experiment: Experiment): ExperimentSnapshot {
  return copyJson({
    name: experiment.name,
    description: experiment.description,
    startDate: experiment.startDate,
    endDate: experiment.endDate,
    parameters: experiment.parameters,
    secondaryMetrics: experiment.secondaryMetrics,
    filters: experiment.filters,
    archived: experiment.archived,
  });
}

export function logExperimentCreated(em: EntityManager, access: ActivityAuthor, experiment: Experiment): Promise<void> {
  return recordActivity(em, access, {
    scope: 'Experiment',
    itemId: experiment.id,
    activity: 'created',
    name: experiment.name,
    changes: null,
    launched: experiment.startDate !== null,
  });
}

export async function logExperimentUpdated(
  em: EntityManager,
  access: ActivityAuthor,
  before: ExperimentSnapshot,
  experiment: Experiment,
): Promise<void> {
  const changes = changesBetween('Experiment', EXPERIMENT_FIELDS, before, experiment);
  if (changes.length === 0) return;
  await recordActivity(em, access, { scope: 'Experiment', itemId: experiment.id, activity: 'updated', name: experiment.name, changes });
}

export function logExperimentDeleted(em: EntityManager, access: ActivityAuthor, experiment: Experiment): Promise<void> {
  return recordActivity(em, access, {
    scope: 'Experiment',
    itemId: experiment.id,
    activity: 'deleted',
    name: experiment.name,
    changes: null,
  });
}

// ---------------------------------------------------------------------------------------------
// Cohorts

/** SPEC-GAP: the logged cohort fields (PostHog's API names none): its definition (docs/activity.md). Static members added later are not logged. */
const COHORT_FIELDS: ReadonlyArray<readonly [string, (cohort: CohortSnapshot) => unknown]> = [
  ['name', (c) => c.name],
  ['description', (c) => c.description],
  ['filters', (c) => c.filters],
  ['is_static', (c) => c.isStatic],
  ['deleted', (c) => c.deleted],
];

export interface CohortSnapshot {
  name: string;
  description: string;
  filters: Record<string, unknown> | null;
  isStatic: boolean;
  deleted: boolean;
}

export function cohortSnapshot(cohort: CohortSnapshot): CohortSnapshot {
  const { name, description, filters, isStatic, deleted } = cohort;
  return copyJson({ name, description, filters, isStatic, deleted });
}

export function logCohortCreated(em: EntityManager, access: ActivityAuthor, cohort: CohortSnapshot & { id: number }): Promise<void> {
  return recordActivity(em, access, { scope: 'Cohort', itemId: cohort.id, activity: 'created', name: cohort.name, changes: null });
}

/** As for flags: `deleted`/`restored` when `deleted` flipped, else `updated`; nothing when nothing logged changed. */
export async function logCohortUpdated(
  em: EntityManager,
  access: ActivityAuthor,
  before: CohortSnapshot,
  cohort: CohortSnapshot & { id: number },
): Promise<void> {
  const changes = changesBetween('Cohort', COHORT_FIELDS, before, cohort);
  if (changes.length === 0) return;
  const activity = before.deleted !== cohort.deleted ? (cohort.deleted ? 'deleted' : 'restored') : 'updated';
  await recordActivity(em, access, { scope: 'Cohort', itemId: cohort.id, activity, name: cohort.name, changes });
}
