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
 * Each flag's `metadata` as JSON text, per value it is answered with: built once per flag and value,
 * since the flags remote evaluation answers come from the cached definitions and never change in
 * place (a change loads new ones).
 */
const metadataTexts = new WeakMap<FeatureFlag, Map<string | boolean, string>>();

function metadataText(item: RemoteFlag): string {
  let texts = metadataTexts.get(item.flag);
  if (!texts) metadataTexts.set(item.flag, (texts = new Map()));
  let text = texts.get(item.value);
  if (text === undefined) {
    const { flag } = item;
    text = JSON.stringify({
      id: flag.id,
      version: flag.version,
      payload: payloadOf(item),
      description: flag.name === '' ? null : flag.name,
    });
    texts.set(item.value, text);
  }
  return text;
}

const reasonTexts = new Map<string, string>();

function reasonText(code: EvaluationReason, index: number | null): string {
  const cacheKey = `${code}:${index}`;
  let text = reasonTexts.get(cacheKey);
  if (text === undefined) {
    text = JSON.stringify({ code, condition_index: index, description: DESCRIPTIONS[code](index) });
    // Bounded: five reasons times the condition indexes flags have.
    if (reasonTexts.size < 10_000) reasonTexts.set(cacheKey, text);
  }
  return text;
}

/**
 * docs/remote-evaluation.md ("The answers"): `/flags?v=2` and `/decide?v=4`, as JSON text: per flag
 * `{key, enabled, variant, reason, metadata}`, where the reason and metadata texts are built once
 * (the SDK path answers every page view; serialising 100 flags' objects anew was a tenth of its CPU).
 * `extra`: more members (the client config) after `requestId`.
 */
export function detailedShapeText(result: RemoteEvaluation, requestId: string, extra?: Record<string, unknown>): string {
  let text = '{"flags":{';
  result.flags.forEach((item, i) => {
    const key = JSON.stringify(item.flag.key);
    const variant = typeof item.value === 'string' ? JSON.stringify(item.value) : 'null';
    text +=
      `${i === 0 ? '' : ','}${key}:{"key":${key},"enabled":${item.value !== false},"variant":${variant},` +
      `"reason":${reasonText(item.reason, item.conditionIndex)},"metadata":${metadataText(item)}}`;
  });
  text += `},"errorsWhileComputingFlags":${result.errorsWhileComputingFlags},"requestId":${JSON.stringify(requestId)}`;
  return `${text}${extra ? `,${JSON.stringify(extra).slice(1, -1)}` : ''}}`;
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
