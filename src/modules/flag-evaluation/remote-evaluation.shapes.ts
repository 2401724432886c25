import type { EvaluationReason, FlagEvaluation, FlagValue } from '../../evaluation/evaluate-flag';
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
function payloadOf(flag: FeatureFlag, value: FlagValue): unknown {
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
 * ones), and each outcome of a flag is one object (evaluateFlag), so a member (`,"key":{key, enabled,
 * variant, reason, "metadata":{…}}`) is kept beside its outcome. Its metadata carries the payload
 * (up to the flag's 1 MiB), which must not be copied once per condition set: a member whose metadata
 * is small is one part, a larger one joins a head to its value's metadata, kept once per flag and value.
 */
const WHOLE_MEMBER_MAX_METADATA = 1024;

const metadataParts = new WeakMap<FeatureFlag, Map<FlagValue, Buffer>>();
const members = new WeakMap<FlagEvaluation, Buffer[]>();

function metadataOf(flag: FeatureFlag, value: FlagValue): Buffer {
  let byValue = metadataParts.get(flag);
  if (!byValue) metadataParts.set(flag, (byValue = new Map()));
  let metadata = byValue.get(value);
  if (metadata === undefined) {
    const description = flag.name === '' ? null : flag.name;
    metadata = Buffer.from(JSON.stringify({ id: flag.id, version: flag.version, payload: payloadOf(flag, value), description }));
    byValue.set(value, metadata);
  }
  return metadata;
}

/** The member's parts, the first starting with `,` (the answer's first member skips it). */
function memberOf({ flag, evaluation }: RemoteFlag): Buffer[] {
  let member = members.get(evaluation);
  if (member === undefined) {
    const { value, reason, conditionIndex } = evaluation;
    const metadata = metadataOf(flag, value);
    const name = JSON.stringify(flag.key);
    const variant = typeof value === 'string' ? JSON.stringify(value) : 'null';
    const why = JSON.stringify({ code: reason, condition_index: conditionIndex, description: DESCRIPTIONS[reason](conditionIndex) });
    const head = `,${name}:{"key":${name},"enabled":${value !== false},"variant":${variant},"reason":${why},"metadata":`;
    member =
      metadata.length <= WHOLE_MEMBER_MAX_METADATA
        ? [Buffer.concat([Buffer.from(head), metadata, CLOSE])]
        : [Buffer.from(head), metadata, CLOSE];
    members.set(evaluation, member);
  }
  return member;
}

const OPEN = Buffer.from('{"flags":{');
const CLOSE = Buffer.from('}');

/**
 * docs/remote-evaluation.md ("The answers"): `/flags?v=2` and `/decide?v=4`, as encoded JSON: per flag
 * `{key, enabled, variant, reason, metadata}` (joined from parts built once, `memberOf`).
 * `extra`: more members (the client config) after `requestId`.
 */
export function detailedShapeBytes(result: RemoteEvaluation, requestId: string, extra?: Record<string, unknown>): Buffer {
  const joined: Buffer[] = [OPEN];
  for (let i = 0; i < result.flags.length; i++) {
    const member = memberOf(result.flags[i]);
    // The first member without its leading comma: a view of the same bytes, not a copy.
    joined.push(i === 0 ? member[0].subarray(1) : member[0]);
    for (let j = 1; j < member.length; j++) joined.push(member[j]);
  }
  const tail = `},"errorsWhileComputingFlags":${result.errorsWhileComputingFlags},"requestId":${JSON.stringify(requestId)}`;
  joined.push(Buffer.from(`${tail}${extra ? `,${JSON.stringify(extra).slice(1, -1)}` : ''}}`));
  return Buffer.concat(joined);
}

/** docs/remote-evaluation.md ("The answers"): `/flags` v1 and `/decide` v3. */
export function legacyShape(result: RemoteEvaluation): Record<string, unknown> {
  // Keyed by flag key, which may be `__proto__`.
  const featureFlags = dataRecord<boolean | string>();
  const featureFlagPayloads = dataRecord();
  for (const { flag, evaluation } of result.flags) {
    featureFlags[flag.key] = evaluation.value;
    const payload = payloadOf(flag, evaluation.value);
    if (payload !== null) featureFlagPayloads[flag.key] = payload;
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
