import { hash } from 'node:crypto';
import type { EvaluationReason } from '../../evaluation/evaluate-flag';
import type { FeatureFlag } from '../feature-flag/feature-flag.entity';
import type { OfrepErrorCode } from './ofrep.errors';

/** OpenFeature's resolution reasons this service answers (docs/openfeature.md, "Reasons"). */
export type OfrepReason = 'TARGETING_MATCH' | 'SPLIT' | 'DISABLED' | 'DEFAULT';

/** One flag's evaluation as OFREP answers it (`evaluationSuccess`). */
export interface OfrepSuccess {
  key: string;
  value: unknown;
  reason: OfrepReason;
  variant?: string;
  metadata: Record<string, string | number | boolean>;
}

/** One flag that could not be evaluated, inside a bulk answer (`evaluationFailure`). */
export interface OfrepFailure {
  key: string;
  errorCode: OfrepErrorCode;
  errorDetails: string;
}

/** What the evaluation said about one flag: its value, PostHog's reason and the condition set that decided. */
export interface OfrepInput {
  flag: FeatureFlag;
  value: boolean | string;
  reason: EvaluationReason | 'disabled';
  conditionIndex: number | null;
}

/**
 * docs/openfeature.md, "Reasons": a flag that is off is DISABLED; a condition set (or the super
 * condition) that matched is TARGETING_MATCH, unless the value is a variant the hash picked (no
 * variant override on that condition set): SPLIT; no condition set matched, or the person fell
 * outside its rollout, or the group is missing: DEFAULT (the value is `false`).
 */
export function ofrepReason({ flag, value, reason, conditionIndex }: OfrepInput): OfrepReason {
  if (reason === 'disabled') return 'DISABLED';
  if (reason !== 'condition_match' && reason !== 'super_condition_value') return 'DEFAULT';
  if (typeof value !== 'string') return 'TARGETING_MATCH';
  const groups = flag.filters?.groups;
  const condition =
    Array.isArray(groups) && conditionIndex !== null ? (groups[conditionIndex] as Record<string, unknown> | undefined) : undefined;
  return reason === 'condition_match' && condition?.variant !== value ? 'SPLIT' : 'TARGETING_MATCH';
}

/** The stored payload for the answered value (`"true"` for true, else the variant key); undefined when off or none. */
function storedPayload({ flag, value }: OfrepInput): unknown {
  if (value === false) return undefined;
  const payloads = flag.filters?.payloads;
  if (payloads === null || typeof payloads !== 'object' || Array.isArray(payloads)) return undefined;
  const stored = (payloads as Record<string, unknown>)[value === true ? 'true' : value];
  return stored === null ? undefined : stored;
}

/**
 * SPEC-GAP: payloads are stored as JSON text (as PostHog stores them); OFREP's value is the JSON it
 * holds, and a text that is not JSON is the text itself. Stored payloads passed the flag's own
 * size and depth limits, so parsing them here is bounded.
 */
function payloadValue(stored: unknown): unknown {
  if (typeof stored !== 'string') return stored;
  try {
    return JSON.parse(stored) as unknown;
  } catch {
    return stored;
  }
}

/**
 * docs/openfeature.md, "Values": OFREP has no type in its request (its ADR 0003), so the type
 * follows the flag. A flag with a payload for the value it answered is an object (or number, text…)
 * flag: `value` is the payload, `variant` the variant key (`"true"` for a boolean flag). Without
 * one, a boolean flag's value is `true`/`false` and a multivariate flag's the variant key (also its
 * `variant`); a flag that did not match is `false` whatever its kind, as in PostHog.
 */
export function ofrepSuccess(input: OfrepInput): OfrepSuccess {
  const { flag, value, reason, conditionIndex } = input;
  const metadata: Record<string, string | number | boolean> = { flag_id: flag.id, version: flag.version, reason_code: reason };
  if (conditionIndex !== null) metadata.condition_index = conditionIndex;
  if (flag.name) metadata.description = flag.name;
  const answer: OfrepSuccess = { key: flag.key, value, reason: ofrepReason(input), metadata };
  const stored = storedPayload(input);
  if (stored !== undefined) {
    answer.value = payloadValue(stored);
    answer.variant = value === true ? 'true' : (value as string);
  } else if (typeof value === 'string') {
    answer.variant = value;
  }
  return answer;
}

/** A strong ETag over a bulk answer's text: equal answers, equal tags (docs/openfeature.md, "Caching"). */
export function ofrepEtag(text: string): string {
  return `"${hash('sha256', text, 'base64url').slice(0, 32)}"`;
}

/** Whether `If-None-Match` names this ETag: a list of tags, weak or strong, or `*`. */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  // Bounded: Node caps a request's headers at 16 KiB.
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}
