import { forkBench, nextMessage, stopChild } from '../children';
import { personProperties, remoteDistinctId } from '../fixtures';
import { childRunner } from '../ipc-runner';
import { httpRunner } from '../load';
import { alternate, logged, makeRow } from './row';
import type { Scenario } from './types';

type Final = { keys: string[]; values: Array<unknown[] | null> };

/** How many subjects' answers are compared between the service and its floor after the runs. */
const COMPARED = 200;

/** What one remote-evaluation row asks: its path, headers and body per subject, and how to read a flag's value from an answer. */
interface RemoteLoad {
  id: string;
  label: string;
  path: string;
  headers: (token: string) => Record<string, string>;
  body: (token: string, distinctId: string, properties: Record<string, unknown>) => unknown;
  /** Flag key → its value (false, true or the variant key) as the answer gives it. */
  values: (answer: unknown) => Map<string, unknown>;
}

/**
 * Remote evaluation, what posthog-js and key-less SDKs ask (`POST /flags/?v=2`, and OFREP's bulk
 * evaluation): one subject at a time (the 100-flag project, one flag in ten on a static or dynamic cohort; stored persons in turn,
 * each with the fixtures' properties in the request), against the floor of the same computation in
 * its own process (engine/evaluate.ts with ENGINE=remote, PER=subject): the same active flags, the
 * same distinct ids, their stored properties overlaid by the same request properties, static and
 * dynamic cohorts, with the stored data read once at start. No HTTP, no statements, no serialisation.
 * Afterwards the first subjects' values of both are compared.
 */
function remoteRow(spec: RemoteLoad): Scenario {
  return {
    id: spec.id,
    async run(context) {
      const { settings, world, service } = context;
      const ids = settings.engineIds;
      const token = world.small.apiToken;
      const headers = { 'Content-Type': 'application/json', ...spec.headers(token) };
      const requestBody = (i: number) => spec.body(token, remoteDistinctId(i, settings.ingestionUsers), personProperties(i));
      await context.stopFloorServer(); // the floor reads the database once; on the embedded one it needs the slot
      const child = forkBench('engine/evaluate.js', {
        ENGINE: 'remote',
        PER: 'subject',
        SERVICE_URL: service.url,
        API_TOKEN: token,
        SECRET: world.small.secretToken,
        IDS: String(ids),
        USERS: String(settings.ingestionUsers),
        PROJECT_ID: String(world.small.id),
        FLOOR_DATABASE_URL: context.floorDatabaseUrl,
      });
      const floor = childRunner(child);
      let next = 0;
      const load = {
        method: 'POST' as const,
        path: spec.path,
        headers,
        makeBody: () => JSON.stringify(requestBody(next++ % ids)),
        expect: 200,
      };
      try {
        await nextMessage(child, (m) => (m as { ready?: boolean }).ready, 60_000);
        const sides = await alternate(context, floor, httpRunner(service.url, load, settings.connections, service.pid), true);
        const final = (await floor.stop()) as Final;

        let compared = 0;
        const differing = new Map<string, number>();
        for (let i = 0; i < Math.min(COMPARED, ids); i++) {
          const mine = final.values[i];
          if (!mine) continue;
          const res = await fetch(`${service.url}${spec.path}`, { method: 'POST', headers, body: JSON.stringify(requestBody(i)) });
          const values = spec.values(await res.json());
          final.keys.forEach((key, f) => {
            compared++;
            if (!values.has(key) || values.get(key) !== mine[f]) differing.set(key, (differing.get(key) ?? 0) + 1);
          });
        }
        const differences = [...differing.values()].reduce((sum, n) => sum + n, 0);
        const row = makeRow(
          {
            scenario: `${spec.label}, ${settings.smallProjectFlags} flags (cohorts too), one subject`,
            unit: 'req/s',
            floor: 'the same evaluation in process: same flags, ids, stored-property merge and cohorts',
            target: { ratio: 0.3 },
          },
          sides.service,
          sides.floor,
          sides.rss,
          [
            `floor: subjects/s, each over the ${final.keys.length} active flags`,
            `values compared with the service's answers ${compared}, differing ${differences}${
              differences
                ? ` (${[...differing]
                    .slice(0, 8)
                    .map(([key, n]) => `${key}: ${n}`)
                    .join(', ')})`
                : ''
            }`,
          ],
        );
        if (differences > 0 || compared === 0) row.verdict = 'error';
        return [logged(context, row)];
      } finally {
        await floor.stop().catch(() => undefined);
        await stopChild(child);
      }
    },
  };
}

export const remoteEvaluation: Scenario = remoteRow({
  id: 'remote-evaluation',
  label: 'POST /flags/?v=2',
  path: '/flags/?v=2',
  headers: () => ({}),
  body: (token, distinctId, properties) => ({ token, distinct_id: distinctId, person_properties: properties }),
  values: (answer) =>
    new Map(
      Object.entries((answer as { flags: Record<string, { enabled: boolean; variant: string | null }> }).flags).map(([key, flag]) => [
        key,
        flag.variant ?? flag.enabled,
      ]),
    ),
});

/**
 * OFREP's bulk evaluation (docs/openfeature.md): the same subjects and the same floor as
 * `remote-evaluation`, asked as an OpenFeature web provider asks, the token as a Bearer value. A
 * value is the variant (`"true"` for a boolean flag with a payload), else the boolean.
 */
export const ofrepEvaluation: Scenario = remoteRow({
  id: 'ofrep',
  label: 'POST /ofrep/v1/evaluate/flags',
  path: '/ofrep/v1/evaluate/flags',
  headers: (token) => ({ Authorization: `Bearer ${token}` }),
  body: (_token, distinctId, properties) => ({ context: { ...properties, targetingKey: distinctId } }),
  values: (answer) =>
    new Map(
      (answer as { flags: Array<{ key: string; value?: unknown; variant?: string }> }).flags.map((flag) => [
        flag.key,
        flag.variant === 'true' ? true : (flag.variant ?? flag.value),
      ]),
    ),
});
