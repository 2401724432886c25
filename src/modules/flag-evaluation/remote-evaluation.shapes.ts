import type { EvaluationReason } from '../../evaluation/evaluate-flag';
import type { RemoteEvaluation, RemoteFlag } from './remote-evaluation.service';

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

/** docs/remote-evaluation.md ("The answers"): `/flags?v=2` and `/decide?v=4`. */
export function detailedShape(result: RemoteEvaluation, requestId: string): Record<string, unknown> {
  const flags: Record<string, unknown> = {};
  for (const item of result.flags) {
    flags[item.flag.key] = {
      key: item.flag.key,
      enabled: item.value !== false,
      variant: typeof item.value === 'string' ? item.value : null,
      reason: { code: item.reason, condition_index: item.conditionIndex, description: DESCRIPTIONS[item.reason](item.conditionIndex) },
      metadata: {
        id: item.flag.id,
        version: item.flag.version,
        payload: payloadOf(item),
        description: item.flag.name === '' ? null : item.flag.name,
      },
    };
  }
  return { flags, errorsWhileComputingFlags: result.errorsWhileComputingFlags, requestId };
}

/** docs/remote-evaluation.md ("The answers"): `/flags` v1 and `/decide` v3. */
export function legacyShape(result: RemoteEvaluation): Record<string, unknown> {
  const featureFlags: Record<string, boolean | string> = {};
  const featureFlagPayloads: Record<string, unknown> = {};
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
