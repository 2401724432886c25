import { bucketHash } from './hash';
import { matchProperty, numeric, str, type PropertyBag, type PropertyFilter } from './property-match';
import { servedFilters } from './served-filters';

export type FlagValue = boolean | string;

export type EvaluationReason =
  'super_condition_value' | 'condition_match' | 'no_group_type' | 'out_of_rollout_bound' | 'no_condition_match';

export interface FlagEvaluation {
  value: FlagValue;
  reason: EvaluationReason;
  conditionIndex: number | null;
}

/** Who a flag is evaluated for, with complete stored properties (docs/evaluation.md §4.1). */
export interface EvaluationSubject {
  distinctId: string;
  /** The person's stored properties; `distinct_id` is added here. */
  personProperties: PropertyBag;
  /**
   * true when the stored person could not be read (remote evaluation, docs/remote-evaluation.md): then
   * `personProperties` holds only what the request sent, and a filter on any other key throws
   * `SubjectDataUnavailable` instead of reading "absent".
   */
  personUnread?: boolean;
  /** The request's groups, by group type name; `unread` as `personUnread`, for that group's stored properties. */
  groups: Record<string, { key: string; properties: PropertyBag; unread?: boolean }>;
  /** Static or dynamic cohort membership (docs/cohorts.md §3); a cohort that does not exist has no members. */
  inCohort(cohortId: number): boolean;
}

/** A flag needs stored data (a property, a static cohort's members) that could not be read: it cannot be evaluated. */
export class SubjectDataUnavailable extends Error {
  constructor(what: string) {
    super(`${what} could not be read`);
    this.name = 'SubjectDataUnavailable';
  }
}

export interface EvaluableFlag {
  key: string;
  filters: Record<string, unknown> | null;
}

const SCORE: Record<EvaluationReason, number> = {
  super_condition_value: 4,
  condition_match: 3,
  no_group_type: 2,
  out_of_rollout_bound: 1,
  no_condition_match: 0,
};

const asObject = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

const asFilters = (value: unknown): PropertyFilter[] => (Array.isArray(value) ? value.map(asObject) : []);

interface Scope {
  /** The bucketing identifier: the distinct_id, or the group key of a group flag. */
  identifier: string;
  bag: PropertyBag;
  /** null for person flags. */
  groupTypeIndex: number | null;
  /** false when the stored properties could not be read: `bag` is then only what the request sent. */
  complete: boolean;
}

/** Whether `key` is decided in `scope`; throws when it would be a stored property that could not be read. */
function known(scope: Scope, key: unknown): void {
  if (!scope.complete && !Object.prototype.hasOwnProperty.call(scope.bag, typeof key === 'string' ? key : str(key))) {
    throw new SubjectDataUnavailable(`the stored property ${JSON.stringify(key)}`);
  }
}

function matchFilter(filter: PropertyFilter, scope: Scope, subject: EvaluationSubject, now: Date): boolean {
  if (!scope.complete && (filter.type === 'person' || filter.type === 'group')) known(scope, filter.key);
  if (scope.groupTypeIndex === null) {
    if (filter.type === 'person') return matchProperty(filter, scope.bag, now);
    if (filter.type === 'cohort') {
      const id = numeric(filter.value);
      const member = id !== null && Number.isInteger(id) && subject.inCohort(id);
      return filter.operator === 'not_in' ? !member : member;
    }
    return false;
  }
  return filter.type === 'group' && filter.group_type_index === scope.groupTypeIndex && matchProperty(filter, scope.bag, now);
}

/** docs/evaluation.md §2 rollout: null or absent is 100% and takes no hash. */
function inRollout(flagKey: string, condition: Record<string, unknown>, identifier: string): boolean {
  const rollout = condition.rollout_percentage;
  if (rollout === null || rollout === undefined) return true;
  return typeof rollout === 'number' && bucketHash(flagKey, identifier, '') <= rollout / 100;
}

/** docs/evaluation.md §2 variants: an override naming an existing variant wins; else the hashed range; else `true`. */
function variantValue(
  flagKey: string,
  filters: Record<string, unknown>,
  condition: Record<string, unknown>,
  identifier: string,
): FlagValue {
  const variants = asFilters(asObject(filters.multivariate).variants);
  if (variants.length === 0) return true;
  if (typeof condition.variant === 'string' && variants.some((v) => v.key === condition.variant)) return condition.variant;
  const h = bucketHash(flagKey, identifier, 'variant');
  let min = 0;
  for (const variant of variants) {
    const max = min + (typeof variant.rollout_percentage === 'number' ? variant.rollout_percentage : 0) / 100;
    if (min <= h && h < max) return String(variant.key);
    min = max;
  }
  return true;
}

/**
 * Each subject's and group's bag with its identity key added, made once and read by every flag
 * evaluated for it (a subject is not changed once made): a per-flag copy of a large property bag
 * made one request cost flags × properties.
 */
const bags = new WeakMap<object, PropertyBag>();

/** The subject's person properties with `distinct_id` (docs/evaluation.md §4.1), as flags and cohorts read them. */
export const personBag = (subject: EvaluationSubject): PropertyBag =>
  bagOf(subject, subject.personProperties, 'distinct_id', subject.distinctId);

function bagOf(owner: object, properties: PropertyBag, identityKey: string, identity: string): PropertyBag {
  let bag = bags.get(owner);
  if (!bag) bags.set(owner, (bag = { ...properties, [identityKey]: identity }));
  return bag;
}

/** The person or group the flag aggregates by; null when a group flag's group is unknown or not passed (docs/evaluation.md §3.2 step 1). */
function scopeFor(filters: Record<string, unknown>, subject: EvaluationSubject, groupTypes: ReadonlyMap<number, string>): Scope | null {
  const index = filters.aggregation_group_type_index;
  if (index === null || index === undefined) {
    return {
      identifier: subject.distinctId,
      bag: personBag(subject),
      groupTypeIndex: null,
      complete: subject.personUnread !== true,
    };
  }
  const name = typeof index === 'number' ? groupTypes.get(index) : undefined;
  const group = name === undefined ? undefined : subject.groups[name];
  if (!group) return null;
  return {
    identifier: group.key,
    bag: bagOf(group, group.properties, '$group_key', group.key),
    groupTypeIndex: index as number,
    complete: group.unread !== true,
  };
}

/** docs/evaluation.md §3: one active, non-deleted flag for one subject. Pure: `now` is the request time. */
export function evaluateFlag(
  flag: EvaluableFlag,
  subject: EvaluationSubject,
  groupTypes: ReadonlyMap<number, string>,
  now: Date,
): FlagEvaluation {
  const filters = servedFilters(flag.filters);
  const scope = scopeFor(filters, subject, groupTypes);
  if (!scope) return { value: false, reason: 'no_group_type', conditionIndex: null };
  const matches = (condition: Record<string, unknown>) =>
    asFilters(condition.properties).every((filter) => matchFilter(filter, scope, subject, now));

  const superGroups = asFilters(filters.super_groups);
  if (scope.groupTypeIndex === null && superGroups.length > 0) {
    const superCondition = superGroups[0];
    const enrolmentKey = asFilters(superCondition.properties)[0]?.key;
    if (typeof enrolmentKey === 'string') known(scope, enrolmentKey);
    if (typeof enrolmentKey === 'string' && Object.prototype.hasOwnProperty.call(scope.bag, enrolmentKey)) {
      const value = matches(superCondition) && inRollout(flag.key, superCondition, scope.identifier);
      return { value, reason: 'super_condition_value', conditionIndex: 0 };
    }
  }

  let best: FlagEvaluation = { value: false, reason: 'no_condition_match', conditionIndex: 0 };
  const conditions = asFilters(filters.groups);
  for (let index = 0; index < conditions.length; index++) {
    const condition = conditions[index];
    let reason: EvaluationReason;
    if (!matches(condition)) reason = 'no_condition_match';
    else if (!inRollout(flag.key, condition, scope.identifier)) reason = 'out_of_rollout_bound';
    else return { value: variantValue(flag.key, filters, condition, scope.identifier), reason: 'condition_match', conditionIndex: index };
    if (SCORE[best.reason] <= SCORE[reason]) best = { value: false, reason, conditionIndex: index };
  }
  return best;
}
