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
 * ones), so each flag's parts are kept beside it. A member (`,"key":{key, enabled, variant, reason,
 * "metadata":{…}}`) is built per value, reason and condition set. Its metadata carries the payload
 * (up to the flag's 1 MiB), which must not be copied once per condition set: a member whose metadata
 * is small is one part, a larger one joins a head to its value's metadata, kept once.
 */
const WHOLE_MEMBER_MAX_METADATA = 1024;

/** What one value of a flag answers: its metadata, and its members by reason and condition set (memberKey). */
interface ValueParts {
  metadata: Buffer;
  members: Map<number, Buffer[]>;
}

const parts = new WeakMap<FeatureFlag, Map<string | boolean, ValueParts>>();

const REASON_ORDINALS: Record<EvaluationReason, number> = {
  condition_match: 0,
  super_condition_value: 1,
  no_condition_match: 2,
  out_of_rollout_bound: 3,
  no_group_type: 4,
};

/** A number per reason and condition set (a number keys a Map without building a string). */
const memberKey = (reason: EvaluationReason, conditionIndex: number | null) =>
  conditionIndex === null ? -1 - REASON_ORDINALS[reason] : conditionIndex * 8 + REASON_ORDINALS[reason];

function valuePartsOf(item: RemoteFlag): ValueParts {
  let byValue = parts.get(item.flag);
  if (!byValue) parts.set(item.flag, (byValue = new Map()));
  let value = byValue.get(item.value);
  if (value === undefined) {
    const { flag } = item;
    const description = flag.name === '' ? null : flag.name;
    const metadata = Buffer.from(JSON.stringify({ id: flag.id, version: flag.version, payload: payloadOf(item), description }));
    byValue.set(item.value, (value = { metadata, members: new Map() }));
  }
  return value;
}

/** The member's parts, the first starting with `,` (the answer's first member skips it). */
function memberOf(item: RemoteFlag): Buffer[] {
  const value = valuePartsOf(item);
  const key = memberKey(item.reason, item.conditionIndex);
  let member = value.members.get(key);
  if (member === undefined) {
    const { flag, reason, conditionIndex } = item;
    const name = JSON.stringify(flag.key);
    const variant = typeof item.value === 'string' ? JSON.stringify(item.value) : 'null';
    const why = JSON.stringify({ code: reason, condition_index: conditionIndex, description: DESCRIPTIONS[reason](conditionIndex) });
    const head = `,${name}:{"key":${name},"enabled":${item.value !== false},"variant":${variant},"reason":${why},"metadata":`;
    member =
      value.metadata.length <= WHOLE_MEMBER_MAX_METADATA
        ? [Buffer.concat([Buffer.from(head), value.metadata, CLOSE])]
        : [Buffer.from(head), value.metadata, CLOSE];
    value.members.set(key, member);
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
