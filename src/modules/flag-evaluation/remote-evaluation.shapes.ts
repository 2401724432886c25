import type { EvaluationReason } from '../../evaluation/evaluate-flag';
import type { FeatureFlag } from '../feature-flag/feature-flag.entity';
import type { RemoteEvaluation, RemoteFlag } from './remote-evaluation.service';
import { dataRecord } from '../../data-record';

const DESCRIPTIONS: Record<EvaluationReason, (index: number | null) => string> = {
  condition_match: (index) => `Matched condition set ${(index ?? 0) + 1}`,
  super_condition_value: () => 'Super condition value',
  no_condition_match: () => 'No matching condition set',
  out_of_rollout_bound: () => 'Out of rollout bound',
  no_group_type: () => 'No group type',
};

/** The stored payload for the flag's value (`"true"` for true, else the variant key), as stored; null when off or none. */
function payloadOf({ flag, value }: RemoteFlag): unknown {
  if (value === false) return null;
  const payloads = flag.filters?.payloads;
  if (payloads === null || typeof payloads !== 'object' || Array.isArray(payloads)) return null;
  const key = value === true ? 'true' : value;
  return Object.prototype.hasOwnProperty.call(payloads, key) ? ((payloads as Record<string, unknown>)[key] ?? null) : null;
}

/**
 * One flag's member of a detailed answer (`"key":{key, enabled, variant, reason, metadata}`), UTF-8
 * encoded, built once per value, reason and condition set it is answered with: the flags remote
 * evaluation answers come from the cached definitions and never change in place (a change loads new
 * ones), so a flag's few members are kept beside it. Nested maps keyed by what the evaluation
 * returns, so a lookup builds no key string. Joining encoded members spares building 100 flags'
 * JSON as text and encoding it again on every request (together about a fifth of /flags' CPU).
 */
type MembersByReason = Map<EvaluationReason, Map<number | null, Buffer>>;
const members = new WeakMap<FeatureFlag, Map<string | boolean, MembersByReason>>();

function memberOf(item: RemoteFlag): Buffer {
  let byValue = members.get(item.flag);
  if (!byValue) members.set(item.flag, (byValue = new Map()));
  let byReason = byValue.get(item.value);
  if (!byReason) byValue.set(item.value, (byReason = new Map()));
  let byCondition = byReason.get(item.reason);
  if (!byCondition) byReason.set(item.reason, (byCondition = new Map()));
  let member = byCondition.get(item.conditionIndex);
  if (member === undefined) {
    const { flag, value, reason, conditionIndex } = item;
    const key = JSON.stringify(flag.key);
    const shape = {
      key: flag.key,
      enabled: value !== false,
      variant: typeof value === 'string' ? value : null,
      reason: { code: reason, condition_index: conditionIndex, description: DESCRIPTIONS[reason](conditionIndex) },
      metadata: { id: flag.id, version: flag.version, payload: payloadOf(item), description: flag.name === '' ? null : flag.name },
    };
    member = Buffer.from(`${key}:${JSON.stringify(shape)}`);
    byCondition.set(conditionIndex, member);
  }
  return member;
}

const OPEN = Buffer.from('{"flags":{');
const COMMA = Buffer.from(',');

/**
 * docs/remote-evaluation.md ("The answers"): `/flags?v=2` and `/decide?v=4`, as encoded JSON: per flag
 * `{key, enabled, variant, reason, metadata}` (each flag's member built once, `memberOf`).
 * `extra`: more members (the client config) after `requestId`.
 */
export function detailedShapeBytes(result: RemoteEvaluation, requestId: string, extra?: Record<string, unknown>): Buffer {
  const parts: Buffer[] = [OPEN];
  result.flags.forEach((item, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(memberOf(item));
  });
  const tail = `},"errorsWhileComputingFlags":${result.errorsWhileComputingFlags},"requestId":${JSON.stringify(requestId)}`;
  parts.push(Buffer.from(`${tail}${extra ? `,${JSON.stringify(extra).slice(1, -1)}` : ''}}`));
  return Buffer.concat(parts);
}

/** docs/remote-evaluation.md ("The answers"): `/flags` v1 and `/decide` v3. */
export function legacyShape(result: RemoteEvaluation): Record<string, unknown> {
  // Keyed by flag key, which may be `__proto__`.
  const featureFlags = dataRecord<boolean | string>();
  const featureFlagPayloads = dataRecord();
  for (const item of result.flags) {
    featureFlags[item.flag.key] = item.value;
    const payload = payloadOf(item);
    if (payload !== null) featureFlagPayloads[item.flag.key] = payload;
  }
  return { featureFlags, featureFlagPayloads, errorsWhileComputingFlags: result.errorsWhileComputingFlags };
}

/**
 * docs/remote-evaluation.md ("The client configuration"): what a browser SDK starts with, every optional product off, so it asks
 * for nothing this service does not serve. SPEC-GAP: also off, for posthog-js products that
 * docs/remote-evaluation.md does not name (they would otherwise call endpoints this service lacks): exception autocapture, dead
 * clicks, web vitals, logs, product tours, conversations; `hasFeatureFlags: true` keeps posthog-js
 * loading flags on start.
 */
export function clientConfig(): Record<string, unknown> {
  return {
    supportedCompression: ['gzip', 'gzip-js'],
    sessionRecording: false,
    surveys: false,
    heatmaps: false,
    autocapture_opt_out: true,
    capturePerformance: false,
    siteApps: [],
    toolbarParams: {},
    isAuthenticated: false,
    config: { enable_collect_everything: false },
    defaultIdentifiedOnly: true,
    autocaptureExceptions: false,
    captureDeadClicks: false,
    productTours: false,
    hasFeatureFlags: true,
  };
}

/** `/array/:token/config.js`: the config a `<script>` tag installs where posthog-js looks for it (`{config, siteApps}`). */
export function clientConfigScript(token: string): string {
  const entry = JSON.stringify({ config: { token, ...clientConfig() }, siteApps: [] });
  return (
    '(function () {\n' +
    '  window._POSTHOG_REMOTE_CONFIG = window._POSTHOG_REMOTE_CONFIG || {};\n' +
    `  window._POSTHOG_REMOTE_CONFIG[${JSON.stringify(token)}] = ${entry};\n` +
    '})();\n'
  );
}
