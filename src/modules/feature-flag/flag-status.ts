import { isPlainObject } from '../../validation/python';
import { shownFilters } from './feature-flag.presenter';

/**
 * Whether a flag is still worth keeping (docs/stale-flags.md), as PostHog's flag status names it:
 * `active`, `stale` or `deleted`, with a sentence saying why. A pure function of the flag, the time
 * of its last `$feature_flag_called` and the clock; `staleFlagCondition` (feature-flag.store.ts) is
 * the same rule in SQL, for the list's `active=STALE`, and a test holds the two together.
 */
export type FlagStatusValue = 'active' | 'stale' | 'deleted';

export interface FlagStatus {
  status: FlagStatusValue;
  reason: string;
}

/** The window of docs/stale-flags.md: unchanged and unevaluated for this long. */
export const STALE_DAYS = 30;
const DAY_MS = 86_400_000;

export interface StatusInput {
  deleted: boolean;
  active: boolean;
  filters: Record<string, unknown>;
  updatedAt: Date;
}

export const staleCutoff = (now: Date): Date => new Date(now.getTime() - STALE_DAYS * DAY_MS);

/** Whether the status needs the last evaluation time at all (a deleted or recently changed flag does not). */
export function needsLastCall(flag: StatusInput, now: Date): boolean {
  return !flag.deleted && flag.updatedAt <= staleCutoff(now) && fixedAnswer(flag) === null;
}

/**
 * SPEC-GAP: the API document has no flag status. PostHog's first rule (stale: rolled out to everyone,
 * or not evaluated recently), plus issue 28's: unchanged for 30 days, and off for everyone counts as
 * a fixed answer too. No `inactive` (PostHog's later name for "not called"), no `unknown` (a 404).
 */
export function flagStatus(flag: StatusInput, lastCalledAt: Date | null, now: Date): FlagStatus {
  if (flag.deleted) return { status: 'deleted', reason: 'Flag has been deleted' };
  const cutoff = staleCutoff(now);
  if (flag.updatedAt > cutoff) return { status: 'active', reason: `Flag was changed in the last ${STALE_DAYS} days` };
  const fixed = fixedAnswer(flag);
  if (fixed !== null) return { status: 'stale', reason: fixed };
  if (lastCalledAt === null) return { status: 'stale', reason: 'Flag has never been evaluated' };
  if (lastCalledAt <= cutoff) {
    const days = Math.floor((now.getTime() - lastCalledAt.getTime()) / DAY_MS);
    return { status: 'stale', reason: `Flag has not been evaluated in ${days} days` };
  }
  return { status: 'active', reason: `Flag was evaluated in the last ${STALE_DAYS} days and its answer can vary` };
}

type Condition = Record<string, unknown>;

/** The sentence for a flag whose answer cannot vary, or null when it can. */
function fixedAnswer(flag: StatusInput): string | null {
  if (!flag.active) return 'This flag is disabled and will always evaluate to "false"';
  const filters = shownFilters(flag.filters ?? {});
  const conditions: unknown[] = Array.isArray(filters.groups) ? filters.groups : [];
  if (conditions.every(isRolledOutToNobody)) return 'This flag is rolled out to 0% and will always evaluate to "false"';
  const full = conditions.filter(isRolledOutToEveryone);
  if (full.length === 0) return null;
  const variants = multivariateVariants(filters);
  if (variants.length === 0) return 'This boolean flag will always evaluate to "true"';
  // As PostHog: a condition for everyone with a variant override, or one variant at 100%.
  const override = full.map((c) => c.variant).find((v): v is string => typeof v === 'string');
  const whole = variants.find(
    (v) => isPlainObject(v) && typeof v.key === 'string' && typeof v.rollout_percentage === 'number' && v.rollout_percentage >= 100,
  );
  const variant = override ?? (isPlainObject(whole) ? (whole.key as string) : undefined);
  return variant === undefined ? null : `This flag will always use the variant "${variant}"`;
}

/** No properties, and a rollout of 100% or none (docs/evaluation.md §2: no rollout lets everyone through). */
function isRolledOutToEveryone(condition: unknown): condition is Condition {
  if (!isPlainObject(condition)) return false;
  const { properties, rollout_percentage: rollout } = condition;
  const noProperties = properties === undefined || properties === null || (Array.isArray(properties) && properties.length === 0);
  return noProperties && (rollout === undefined || rollout === null || (typeof rollout === 'number' && rollout >= 100));
}

function isRolledOutToNobody(condition: unknown): boolean {
  return isPlainObject(condition) && typeof condition.rollout_percentage === 'number' && condition.rollout_percentage <= 0;
}

/** The variants list when it is a non-empty list (a multivariate flag, docs/evaluation.md §2), else []. */
function multivariateVariants(filters: Record<string, unknown>): unknown[] {
  const multivariate = filters.multivariate;
  return isPlainObject(multivariate) && Array.isArray(multivariate.variants) ? multivariate.variants : [];
}
