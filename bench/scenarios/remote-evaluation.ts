import { forkBench, nextMessage, stopChild } from '../children';
import { personProperties } from '../fixtures';
import { childRunner } from '../ipc-runner';
import { httpRunner } from '../load';
import { alternate, logged, makeRow } from './row';
import type { Scenario } from './types';

/**
 * Remote evaluation, what posthog-js and key-less SDKs ask: `POST /flags/?v=2` for one subject at a
 * time (the 100-flag project; stored persons in turn, each with the fixtures' properties in the request),
 * against the floor of the pure evaluator over the same flags and properties in its own process (no
 * HTTP, no database, no serialisation): engine/evaluate.ts with PER=subject.
 */
export const remoteEvaluation: Scenario = {
  id: 'remote-evaluation',
  async run(context) {
    const { settings, world, service } = context;
    const ids = settings.engineIds;
    const child = forkBench('engine/evaluate.js', {
      ENGINE: 'service',
      PER: 'subject',
      SERVICE_URL: service.url,
      API_TOKEN: world.small.apiToken,
      SECRET: world.small.secretToken,
      IDS: String(ids),
    });
    const floor = childRunner(child);
    let next = 0;
    const body = () => {
      const i = next++ % ids;
      // A stored person (seeded through /batch/), so the person statement finds a row, as in production.
      return JSON.stringify({
        token: world.small.apiToken,
        distinct_id: `user-${i % settings.ingestionUsers}`,
        person_properties: personProperties(i),
      });
    };
    const load = {
      method: 'POST' as const,
      path: '/flags/?v=2',
      headers: { 'Content-Type': 'application/json' },
      makeBody: body,
      expect: 200,
    };
    try {
      await nextMessage(child, (m) => (m as { ready?: boolean }).ready, 60_000);
      const sides = await alternate(context, floor, httpRunner(service.url, load, settings.connections, service.pid), true);
      const row = makeRow(
        {
          scenario: `POST /flags/?v=2, ${settings.smallProjectFlags} flags, one subject`,
          unit: 'req/s',
          floor: 'the pure evaluator, same flags and properties, in process',
          target: { ratio: 0.3 },
        },
        sides.service,
        sides.floor,
        sides.rss,
        ['floor: subjects/s, each over every flag'],
      );
      return [logged(context, row)];
    } finally {
      await floor.stop().catch(() => undefined);
      await stopChild(child);
    }
  },
};
