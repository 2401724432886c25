/**
 * One side of the evaluation-engine row, in its own process: every flag of the definitions × every
 * id, in passes, for as long as each run command says. ENGINE=service runs src/evaluation's
 * evaluator over the served filters (dynamic cohorts from `send_cohorts`, as an SDK gets them);
 * ENGINE=posthog-node runs posthog-node's local evaluation (its FeatureFlagsPoller, loaded from the
 * running service as an SDK loads it) without the client's per-call plumbing. ENGINE=remote is the
 * remote-evaluation row's floor: what one `POST /flags` computes, in process, for the same subjects
 * (stored persons, their stored properties overlaid by the request's, static and dynamic cohorts),
 * with the stored data read once at start instead of per request. At the end it sends the values it
 * computed per id, so they can be compared.
 */
import { PostHog } from 'posthog-node';
import { cohortMembership, type CohortDefinitions, type PropertyGroup } from '../../src/evaluation/cohort-match';
import { evaluateFlag, type FlagValue } from '../../src/evaluation/evaluate-flag';
import { matchProperty } from '../../src/evaluation/property-match';
import { engineDistinctId, personProperties, remoteDistinctId } from '../fixtures';
import { serveRuns } from '../ipc-runner';
import { withClient } from '../pg';

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

/** The SDK definitions, as posthog-node polls them (`send_cohorts`: dynamic cohorts included). */
async function definitions() {
  const res = await fetch(`${env('SERVICE_URL')}/api/feature_flag/local_evaluation?token=${env('API_TOKEN')}&send_cohorts`, {
    headers: { Authorization: `Bearer ${env('SECRET')}` },
  });
  if (res.status !== 200) throw new Error(`definitions answered ${res.status}`);
  const body = (await res.json()) as {
    flags: Definition[];
    group_type_mapping: Record<string, string>;
    cohorts: Record<string, PropertyGroup>;
  };
  const groupTypes = new Map(Object.entries(body.group_type_mapping).map(([index, name]) => [Number(index), name]));
  return { flags: body.flags, groupTypes, cohorts: body.cohorts };
}

/** One subject as the service builds it (src/modules/flag-evaluation/evaluation-subject.ts subjectWithCohorts). */
function subjectOf(distinctId: string, properties: Record<string, unknown>, cohorts: CohortDefinitions, statics: ReadonlySet<number>) {
  const bag = { ...properties, distinct_id: distinctId };
  const now = new Date();
  const inCohort = cohortMembership(cohorts, statics, (filter) => matchProperty(filter, bag, now));
  return { distinctId, personProperties: properties, groups: {}, inCohort };
}

const NO_STATIC_COHORTS: ReadonlySet<number> = new Set();

async function serviceEngine(): Promise<Engine> {
  const { flags, groupTypes, cohorts: served } = await definitions();
  // What an SDK knows: the dynamic cohorts it was sent; the engine row's ids are no stored persons, so no static members.
  const cohorts: CohortDefinitions = new Map(
    Object.entries(served).map(([id, properties]) => [Number(id), { isStatic: false, properties }]),
  );
  return {
    keys: flags.map((flag) => flag.key),
    evaluate(distinctId, properties) {
      const subject = subjectOf(distinctId, properties, cohorts, NO_STATIC_COHORTS);
      const now = new Date();
      return flags.map((flag) => (flag.active && !flag.deleted ? evaluateFlag(flag, subject, groupTypes, now).value : false));
    },
    close: async () => undefined,
  };
}

/**
 * The remote-evaluation floor: the flags `POST /flags` answers (active ones), the project's cohorts as
 * the service caches them (static ones too), and every stored person's properties and static
 * memberships, read once from the database; per subject the stored properties are overlaid by the
 * request's and every flag is evaluated, as the service does per request.
 */
async function remoteEngine(): Promise<Engine> {
  const { flags: all, groupTypes } = await definitions();
  const flags = all.filter((flag) => flag.active && !flag.deleted);
  const projectId = Number(env('PROJECT_ID'));
  const { cohorts, stored } = await withClient(env('FLOOR_DATABASE_URL'), async (client) => {
    const cohortRows = await client.query<{ id: number; is_static: boolean; filters: { properties?: PropertyGroup } | null }>(
      'select id, is_static, filters from cohort where project_id = $1 and not deleted',
      [projectId],
    );
    const personRows = await client.query<{ distinct_id: string; properties: Record<string, unknown>; static_cohorts: number[] | null }>(
      `select d.distinct_id, p.properties, (select array_agg(cp.cohort_id) from cohort_person cp where cp.person_id = p.id) as static_cohorts
         from person_distinct_id d join person p on p.id = d.person_id where d.project_id = $1`,
      [projectId],
    );
    return {
      cohorts: new Map(
        cohortRows.rows.map((row) => [
          Number(row.id),
          { isStatic: row.is_static, properties: row.is_static ? null : (row.filters?.properties ?? null) },
        ]),
      ) as CohortDefinitions,
      stored: new Map(
        personRows.rows.map((row) => [
          row.distinct_id,
          { properties: row.properties, statics: new Set((row.static_cohorts ?? []).map(Number)) as ReadonlySet<number> },
        ]),
      ),
    };
  });
  return {
    keys: flags.map((flag) => flag.key),
    evaluate(distinctId, properties) {
      const person = stored.get(distinctId);
      const merged = person ? { ...person.properties, ...properties } : properties;
      const subject = subjectOf(distinctId, merged, cohorts, person?.statics ?? NO_STATIC_COHORTS);
      const now = new Date();
      return flags.map((flag) => evaluateFlag(flag, subject, groupTypes, now).value);
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
  const remote = env('ENGINE') === 'remote';
  const people = Array.from({ length: ids }, (_, i) => ({
    distinctId: remote ? remoteDistinctId(i, Number(env('USERS'))) : engineDistinctId(i),
    properties: personProperties(i),
  }));
  const engine = remote ? await remoteEngine() : env('ENGINE') === 'posthog-node' ? await posthogEngine() : await serviceEngine();
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
