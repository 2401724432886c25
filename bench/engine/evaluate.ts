/**
 * One side of the evaluation-engine row, in its own process: every flag of the definitions × every
 * id, in passes, for as long as each run command says. ENGINE=service runs src/evaluation's
 * evaluator over the served filters; ENGINE=posthog-node runs posthog-node's local evaluation (its
 * FeatureFlagsPoller, loaded from the running service as an SDK loads it) without the client's
 * per-call plumbing. At the end it sends the values it computed per id, so the engines can be compared.
 */
import { PostHog } from 'posthog-node';
import { evaluateFlag, type FlagValue } from '../../src/evaluation/evaluate-flag';
import { engineDistinctId, personProperties } from '../fixtures';
import { serveRuns } from '../ipc-runner';

type Definition = { key: string; active: boolean; deleted: boolean; filters: Record<string, unknown> };
/** One id's values, flag by flag; null where the engine could not decide. */
type Evaluate = (distinctId: string, properties: Record<string, unknown>) => Promise<Array<FlagValue | null>> | Array<FlagValue | null>;

interface Engine {
  evaluate: Evaluate;
  keys: string[];
  close(): Promise<void>;
}

interface Poller {
  featureFlags: Array<{ key: string }>;
  computeFlagAndPayloadLocally(flag: unknown, context: unknown, options: { skipLoadCheck: boolean }): Promise<{ value: FlagValue }>;
}

const env = (name: string) => process.env[name]!;

async function serviceEngine(): Promise<Engine> {
  const res = await fetch(`${env('SERVICE_URL')}/api/feature_flag/local_evaluation?token=${env('API_TOKEN')}`, {
    headers: { Authorization: `Bearer ${env('SECRET')}` },
  });
  if (res.status !== 200) throw new Error(`definitions answered ${res.status}`);
  const body = (await res.json()) as { flags: Definition[]; group_type_mapping: Record<string, string> };
  const groupTypes = new Map(Object.entries(body.group_type_mapping).map(([index, name]) => [Number(index), name]));
  const flags = body.flags;
  const inCohort = () => false;
  return {
    keys: flags.map((flag) => flag.key),
    evaluate(distinctId, properties) {
      const subject = { distinctId, personProperties: properties, groups: {}, inCohort };
      const now = new Date();
      return flags.map((flag) => (flag.active && !flag.deleted ? evaluateFlag(flag, subject, groupTypes, now).value : false));
    },
    close: async () => undefined,
  };
}

async function posthogEngine(): Promise<Engine> {
  const client = new PostHog(env('API_TOKEN'), {
    host: env('SERVICE_URL'),
    personalApiKey: env('SECRET'),
    featureFlagsPollingInterval: 600_000,
    disableGeoip: true,
    fetchRetryCount: 0,
  });
  if (!(await client.waitForLocalEvaluationReady(10_000))) throw new Error('posthog-node did not load the definitions');
  // The poller is the SDK's evaluation engine; the client's getFeatureFlag adds per-call option handling and event plumbing around it.
  const poller = (client as unknown as { featureFlagsPoller: Poller }).featureFlagsPoller;
  const flags = poller.featureFlags;
  return {
    keys: flags.map((flag) => flag.key),
    async evaluate(distinctId, properties) {
      const context = {
        distinctId,
        groups: {},
        personProperties: { distinct_id: distinctId, ...properties },
        groupProperties: {},
        evaluationCache: {},
      };
      const values: Array<FlagValue | null> = [];
      for (const flag of flags) {
        try {
          values.push((await poller.computeFlagAndPayloadLocally(flag, context, { skipLoadCheck: true })).value);
        } catch {
          values.push(null);
        }
      }
      return values;
    },
    close: () => client.shutdown(),
  };
}

async function main() {
  const ids = Number(env('IDS'));
  const people = Array.from({ length: ids }, (_, i) => ({ distinctId: engineDistinctId(i), properties: personProperties(i) }));
  const engine = env('ENGINE') === 'posthog-node' ? await posthogEngine() : await serviceEngine();
  // Each id's values as first computed, by id (runs stop mid-pass, and each restarts at id 0).
  const firstValues: Array<Array<FlagValue | null> | null> = new Array(ids).fill(null);

  async function run(seconds: number) {
    const deadline = Date.now() + seconds * 1000;
    const latencies: number[] = [];
    const started = process.hrtime.bigint();
    for (let i = 0; Date.now() < deadline; i = (i + 1) % ids) {
      const t0 = process.hrtime.bigint();
      const values = await engine.evaluate(people[i].distinctId, people[i].properties);
      latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      firstValues[i] ??= values;
    }
    const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
    // PER=subject (the remote-evaluation row's floor) counts subjects, each evaluated over every flag; else evaluations.
    const perId = process.env.PER === 'subject' ? 1 : engine.keys.length;
    return { latencies, count: latencies.length * perId, seconds: elapsed, errors: 0, statuses: {} };
  }

  serveRuns(run, async () => {
    await engine.close();
    return { keys: engine.keys, values: firstValues };
  });
}

main().catch((error) => {
  process.stderr.write(`engine ${process.env.ENGINE}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
