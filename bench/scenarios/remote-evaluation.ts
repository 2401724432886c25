import { forkBench, nextMessage, stopChild } from '../children';
import { personProperties, remoteDistinctId } from '../fixtures';
import { childRunner } from '../ipc-runner';
import { httpRunner } from '../load';
import { alternate, logged, makeRow } from './row';
import type { Scenario } from './types';

type Final = { keys: string[]; values: Array<unknown[] | null> };

/** How many subjects' answers are compared between the service and its floor after the runs. */
const COMPARED = 200;

/**
 * Remote evaluation, what posthog-js and key-less SDKs ask: `POST /flags/?v=2` for one subject at a
 * time (the 100-flag project, one flag in ten on a static or dynamic cohort; stored persons in turn,
 * each with the fixtures' properties in the request), against the floor of the same computation in
 * its own process (engine/evaluate.ts with ENGINE=remote, PER=subject): the same active flags, the
 * same distinct ids, their stored properties overlaid by the same request properties, static and
 * dynamic cohorts, with the stored data read once at start. No HTTP, no statements, no serialisation.
 * Afterwards the first subjects' values of both are compared.
 */
export const remoteEvaluation: Scenario = {
  id: 'remote-evaluation',
  async run(context) {
    const { settings, world, service } = context;
    const ids = settings.engineIds;
    const requestBody = (i: number) => ({
      token: world.small.apiToken,
      distinct_id: remoteDistinctId(i, settings.ingestionUsers),
      person_properties: personProperties(i),
    });
    await context.stopFloorServer(); // the floor reads the database once; on the embedded one it needs the slot
    const child = forkBench('engine/evaluate.js', {
      ENGINE: 'remote',
      PER: 'subject',
      SERVICE_URL: service.url,
      API_TOKEN: world.small.apiToken,
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
      path: '/flags/?v=2',
      headers: { 'Content-Type': 'application/json' },
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
        const res = await fetch(`${service.url}/flags/?v=2`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(requestBody(i)),
        });
        const body = (await res.json()) as { flags: Record<string, { enabled: boolean; variant: string | null }> };
        final.keys.forEach((key, f) => {
          const answer = body.flags[key];
          compared++;
          if (!answer || (answer.variant ?? answer.enabled) !== mine[f]) differing.set(key, (differing.get(key) ?? 0) + 1);
        });
      }
      const differences = [...differing.values()].reduce((sum, n) => sum + n, 0);
      const row = makeRow(
        {
          scenario: `POST /flags/?v=2, ${settings.smallProjectFlags} flags (cohorts too), one subject`,
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
