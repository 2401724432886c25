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
 * A detailed answer is joined from encoded parts built once, not serialised per request (building
 * 100 flags' JSON as text and encoding it again was about a fifth of /flags' CPU): the flags remote
 * evaluation answers come from the cached definitions and never change in place (a change loads new
 * ones), so each flag's parts are kept beside it. A member is its head (`"key":{key, enabled,
 * variant, reason,"metadata":`), built per value, reason and condition set, then its metadata,
 * built per value: the metadata carries the payload (up to the flag's 1 MiB), which must not be
 * copied once per condition set. Nested maps keyed by what the evaluation returns: a lookup builds
 * no key string.
 */
type HeadsByReason = Map<EvaluationReason, Map<number | null, Buffer>>;
const heads = new WeakMap<FeatureFlag, Map<string | boolean, HeadsByReason>>();
const metadata = new WeakMap<FeatureFlag, Map<string | boolean, Buffer>>();

function headOf(item: RemoteFlag): Buffer {
  let byValue = heads.get(item.flag);
  if (!byValue) heads.set(item.flag, (byValue = new Map()));
  let byReason = byValue.get(item.value);
  if (!byReason) byValue.set(item.value, (byReason = new Map()));
  let byCondition = byReason.get(item.reason);
  if (!byCondition) byReason.set(item.reason, (byCondition = new Map()));
  let head = byCondition.get(item.conditionIndex);
  if (head === undefined) {
    const { flag, value, reason, conditionIndex } = item;
    const key = JSON.stringify(flag.key);
    const variant = typeof value === 'string' ? JSON.stringify(value) : 'null';
    const why = JSON.stringify({ code: reason, condition_index: conditionIndex, description: DESCRIPTIONS[reason](conditionIndex) });
    head = Buffer.from(`${key}:{"key":${key},"enabled":${value !== false},"variant":${variant},"reason":${why},"metadata":`);
    byCondition.set(conditionIndex, head);
  }
  return head;
}

function metadataOf(item: RemoteFlag): Buffer {
  let byValue = metadata.get(item.flag);
  if (!byValue) metadata.set(item.flag, (byValue = new Map()));
  let encoded = byValue.get(item.value);
  if (encoded === undefined) {
    const { flag } = item;
    const description = flag.name === '' ? null : flag.name;
    encoded = Buffer.from(JSON.stringify({ id: flag.id, version: flag.version, payload: payloadOf(item), description }));
    byValue.set(item.value, encoded);
  }
  return encoded;
}

const OPEN = Buffer.from('{"flags":{');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from('}');

/**
 * docs/remote-evaluation.md ("The answers"): `/flags?v=2` and `/decide?v=4`, as encoded JSON: per flag
 * `{key, enabled, variant, reason, metadata}` (joined from parts built once, `headOf` and `metadataOf`).
 * `extra`: more members (the client config) after `requestId`.
 */
export function detailedShapeBytes(result: RemoteEvaluation, requestId: string, extra?: Record<string, unknown>): Buffer {
  const parts: Buffer[] = [OPEN];
  result.flags.forEach((item, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(headOf(item), metadataOf(item), CLOSE);
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
