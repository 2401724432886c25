import { bucketHash } from './hash';
import { numeric, propertyMatcher, str, type PropertyBag, type PropertyFilter, type PropertyMatcher } from './property-match';
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

/** A property filter of a compiled flag (CompiledFlag). */
interface CompiledFilter {
  filter: PropertyFilter;
  /** Its property test, made on first use: a filter behind a condition that never runs costs nothing. */
  matcher?: PropertyMatcher;
  /** A cohort filter's cohort id, or null when it names none. */
  cohortId: number | null;
}

/** A rollout: every subject (null or absent), none (not a number), or those bucketed at or under the fraction. */
type Rollout = 'all' | 'none' | number;

interface CompiledCondition {
  filters: CompiledFilter[];
  rollout: Rollout;
  /** The condition's variant override when it names an existing variant. */
  variant: string | null;
  /** Its outcomes: unmatched, out of the rollout, matched (by value, made on first use). */
  noMatch: FlagEvaluation;
  outOfRollout: FlagEvaluation;
  matched: Map<FlagValue, FlagEvaluation>;
}

/**
 * A flag's conditions with everything that does not depend on the subject read once: the filters'
 * shapes, rollouts, variant ranges and each property filter's operands (lower-cased text, numbers,
 * dates, versions, patterns checked). Evaluating 100 flags per request read each condition's JSON
 * afresh (about a third of /flags' CPU, most of it re-reading operands).
 */
interface CompiledFlag {
  aggregation: unknown;
  /** The first super condition and its enrolment key (a super condition applies to person flags only). */
  superCondition: { condition: CompiledCondition; enrolmentKey: unknown } | null;
  conditions: CompiledCondition[];
  /** The variants' hashed ranges, in order; empty for a flag without variants. */
  variants: Array<{ key: string; min: number; max: number }>;
  noGroupType: FlagEvaluation;
  /** The outcome of a flag without conditions. */
  noCondition: FlagEvaluation;
  superOutcomes: Record<'true' | 'false', FlagEvaluation>;
}

/**
 * An evaluation's outcome, made once per flag and outcome: evaluating allocates nothing per flag, and
 * what is built from an outcome (remote evaluation's answer parts) is kept beside it. Frozen: shared
 * by every evaluation of the flag.
 */
const outcome = (value: FlagValue, reason: EvaluationReason, conditionIndex: number | null): FlagEvaluation =>
  Object.freeze({ value, reason, conditionIndex });

function compileFilter(filter: PropertyFilter): CompiledFilter {
  const id = filter.type === 'cohort' ? numeric(filter.value) : null;
  return { filter, cohortId: id !== null && Number.isInteger(id) ? id : null };
}

/**
 * A bucket hash is in [0, 1] (its 60 bits round to 1 at most): a rollout of 100% or more takes every
 * subject and one below 0% (or NaN) none, so neither needs the hash; exactly 0% still does.
 */
function compileRollout(rollout: unknown): Rollout {
  if (rollout === null || rollout === undefined) return 'all';
  if (typeof rollout !== 'number') return 'none';
  const fraction = rollout / 100;
  return fraction >= 1 ? 'all' : fraction >= 0 ? fraction : 'none';
}

function compileCondition(condition: Record<string, unknown>, index: number, variants: PropertyFilter[]): CompiledCondition {
  const override = condition.variant;
  return {
    filters: asFilters(condition.properties).map(compileFilter),
    rollout: compileRollout(condition.rollout_percentage),
    variant: typeof override === 'string' && variants.some((v) => v.key === override) ? override : null,
    noMatch: outcome(false, 'no_condition_match', index),
    outOfRollout: outcome(false, 'out_of_rollout_bound', index),
    matched: new Map(),
  };
}

function matchedOutcome(condition: CompiledCondition, value: FlagValue, index: number): FlagEvaluation {
  let matched = condition.matched.get(value);
  if (matched === undefined) condition.matched.set(value, (matched = outcome(value, 'condition_match', index)));
  return matched;
}

function compileFlag(stored: Record<string, unknown> | null): CompiledFlag {
  const filters = servedFilters(stored);
  const variants = asFilters(asObject(filters.multivariate).variants);
  const ranges: CompiledFlag['variants'] = [];
  let min = 0;
  for (const variant of variants) {
    const max = min + (typeof variant.rollout_percentage === 'number' ? variant.rollout_percentage : 0) / 100;
    ranges.push({ key: String(variant.key), min, max });
    min = max;
  }
  const superGroups = asFilters(filters.super_groups);
  return {
    aggregation: filters.aggregation_group_type_index,
    superCondition:
      superGroups.length > 0
        ? { condition: compileCondition(superGroups[0], 0, variants), enrolmentKey: asFilters(superGroups[0].properties)[0]?.key }
        : null,
    conditions: asFilters(filters.groups).map((condition, index) => compileCondition(condition, index, variants)),
    variants: ranges,
    noGroupType: outcome(false, 'no_group_type', null),
    noCondition: outcome(false, 'no_condition_match', 0),
    superOutcomes: { true: outcome(true, 'super_condition_value', 0), false: outcome(false, 'super_condition_value', 0) },
  };
}

/**
 * Each flag's compiled conditions, kept while the flag object lives (cached definitions keep theirs
 * for as long as they are served); built again when its filters are another object.
 */
const compiledFlags = new WeakMap<EvaluableFlag, { filters: EvaluableFlag['filters']; compiled: CompiledFlag }>();

function compiledOf(flag: EvaluableFlag): CompiledFlag {
  const known = compiledFlags.get(flag);
  if (known !== undefined && known.filters === flag.filters) return known.compiled;
  const compiled = compileFlag(flag.filters);
  compiledFlags.set(flag, { filters: flag.filters, compiled });
  return compiled;
}

function matchFilter(compiled: CompiledFilter, scope: Scope, subject: EvaluationSubject, now: Date): boolean {
  const { filter } = compiled;
  if (!scope.complete && (filter.type === 'person' || filter.type === 'group')) known(scope, filter.key);
  if (scope.groupTypeIndex === null) {
    if (filter.type === 'person') return (compiled.matcher ??= propertyMatcher(filter))(scope.bag, now);
    if (filter.type === 'cohort') {
      const member = compiled.cohortId !== null && subject.inCohort(compiled.cohortId);
      return filter.operator === 'not_in' ? !member : member;
    }
    return false;
  }
  return (
    filter.type === 'group' &&
    filter.group_type_index === scope.groupTypeIndex &&
    (compiled.matcher ??= propertyMatcher(filter))(scope.bag, now)
  );
}

function matches(condition: CompiledCondition, scope: Scope, subject: EvaluationSubject, now: Date): boolean {
  for (const filter of condition.filters) if (!matchFilter(filter, scope, subject, now)) return false;
  return true;
}

/** docs/evaluation.md §2 rollout: null or absent is 100% and takes no hash (compileRollout). */
function inRollout(flagKey: string, rollout: Rollout, identifier: string): boolean {
  if (rollout === 'all') return true;
  return rollout !== 'none' && bucketHash(flagKey, identifier, '') <= rollout;
}

/** docs/evaluation.md §2 variants: an override naming an existing variant wins; else the hashed range; else `true`. */
function variantValue(flagKey: string, flag: CompiledFlag, condition: CompiledCondition, identifier: string): FlagValue {
  if (flag.variants.length === 0) return true;
  if (condition.variant !== null) return condition.variant;
  const h = bucketHash(flagKey, identifier, 'variant');
  for (const { key, min, max } of flag.variants) if (min <= h && h < max) return key;
  return true;
}

/**
 * Each subject's and group's scope, with its bag (the identity key added) made once and read by every
 * flag evaluated for it: a per-flag copy of a large property bag made one request cost flags ×
 * properties. The identifier and completeness are checked against the subject each time (two reads).
 */
const scopes = new WeakMap<object, Scope>();

function scopeOf(
  owner: object,
  properties: PropertyBag,
  identityKey: 'distinct_id' | '$group_key',
  identifier: string,
  groupTypeIndex: number | null,
  complete: boolean,
): Scope {
  const known = scopes.get(owner);
  if (known !== undefined && known.identifier === identifier && known.groupTypeIndex === groupTypeIndex && known.complete === complete) {
    return known;
  }
  const bag = known?.bag ?? { ...properties, [identityKey]: identifier };
  const scope = { identifier, bag, groupTypeIndex, complete };
  scopes.set(owner, scope);
  return scope;
}

const personScope = (subject: EvaluationSubject): Scope =>
  scopeOf(subject, subject.personProperties, 'distinct_id', subject.distinctId, null, subject.personUnread !== true);

/** The subject's person properties with `distinct_id` (docs/evaluation.md §4.1), as flags and cohorts read them. */
export const personBag = (subject: EvaluationSubject): PropertyBag => personScope(subject).bag;

/** The person or group the flag aggregates by; null when a group flag's group is unknown or not passed (docs/evaluation.md §3.2 step 1). */
function scopeFor(index: unknown, subject: EvaluationSubject, groupTypes: ReadonlyMap<number, string>): Scope | null {
  if (index === null || index === undefined) return personScope(subject);
  const name = typeof index === 'number' ? groupTypes.get(index) : undefined;
  const group = name === undefined ? undefined : subject.groups[name];
  if (!group) return null;
  return scopeOf(group, group.properties, '$group_key', group.key, index as number, group.unread !== true);
}

/** docs/evaluation.md §3: one active, non-deleted flag for one subject. Pure: `now` is the request time. */
export function evaluateFlag(
  flag: EvaluableFlag,
  subject: EvaluationSubject,
  groupTypes: ReadonlyMap<number, string>,
  now: Date,
): FlagEvaluation {
  const compiled = compiledOf(flag);
  const scope = scopeFor(compiled.aggregation, subject, groupTypes);
  if (!scope) return compiled.noGroupType;

  const { superCondition } = compiled;
  if (scope.groupTypeIndex === null && superCondition !== null) {
    const { enrolmentKey, condition } = superCondition;
    if (typeof enrolmentKey === 'string') known(scope, enrolmentKey);
    if (typeof enrolmentKey === 'string' && Object.prototype.hasOwnProperty.call(scope.bag, enrolmentKey)) {
      const value = matches(condition, scope, subject, now) && inRollout(flag.key, condition.rollout, scope.identifier);
      return compiled.superOutcomes[value ? 'true' : 'false'];
    }
  }

  let best = compiled.noCondition;
  const { conditions } = compiled;
  for (let index = 0; index < conditions.length; index++) {
    const condition = conditions[index];
    let failed: FlagEvaluation;
    if (!matches(condition, scope, subject, now)) failed = condition.noMatch;
    else if (!inRollout(flag.key, condition.rollout, scope.identifier)) failed = condition.outOfRollout;
    else return matchedOutcome(condition, variantValue(flag.key, compiled, condition, scope.identifier), index);
    if (SCORE[best.reason] <= SCORE[failed.reason]) best = failed;
  }
  return best;
}
