import { personProperties, remoteDistinctId } from '../fixtures';
import type { ServedFlags } from '../floors/sql-floors';
import { httpRow } from './row';
import type { BenchContext, Scenario } from './types';

/** Per-connection and per-request headers: not part of what the floor copies. */
const NOT_COPIED = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'x-request-id']);

/** The service's answer to every subject (its size per distinct id), measured once before a load, for the floor to copy. */
export async function servedAnswers(context: BenchContext, body: (i: number) => string, subjects: number): Promise<ServedFlags> {
  const { world, service } = context;
  const sizes: Record<string, number> = {};
  let sample = '';
  const headers: Record<string, string> = {};
  let next = 0;
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (next < subjects) {
        const i = next++;
        const res = await fetch(`${service.url}/flags/?v=2`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: body(i),
        });
        const text = await res.text();
        if (res.status !== 200 || !text.startsWith('{"flags":')) throw new Error(`/flags answered ${res.status}: ${text.slice(0, 300)}`);
        sizes[remoteDistinctId(i, subjects)] = Buffer.byteLength(text);
        if (i === 0) {
          sample = text;
          res.headers.forEach((value, name) => {
            if (!NOT_COPIED.has(name)) headers[name] = value;
          });
        }
      }
    }),
  );
  return { projects: { [world.small.apiToken]: world.small.id }, sizes, sample, headers };
}

/**
 * `/flags?v=2` against what one request must at least cost: the floor parses the same body, runs the
 * one indexed person lookup (a prepared statement) for its distinct id in the project, and writes as
 * many bytes as the service answered that subject, with the service's headers. The subjects are the
 * 1,000 stored persons in turn, each with the fixtures' person properties in the body.
 */
export const flagsLookup: Scenario = {
  id: 'flags',
  async run(context) {
    const { settings, world } = context;
    const subjects = settings.ingestionUsers;
    const body = (i: number) =>
      JSON.stringify({ token: world.small.apiToken, distinct_id: remoteDistinctId(i, subjects), person_properties: personProperties(i) });
    const served = await servedAnswers(context, body, subjects);
    const floor = await context.floorServer();
    await floor.serveFlags(served);
    const check = await fetch(`${floor.url}/flags/?v=2`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: body(1),
    });
    const checked = Buffer.byteLength(await check.text());
    if (check.status !== 200 || checked !== served.sizes[remoteDistinctId(1, subjects)])
      throw new Error(`the /flags floor answered ${check.status} with ${checked} bytes`);

    let next = 0;
    const row = await httpRow(
      context,
      {
        scenario: `POST /flags?v=2, ${subjects.toLocaleString('en')} stored persons, ${settings.smallProjectFlags} flags`,
        unit: 'subjects/s',
        floor: 'node:http + pg: parse the body, one person lookup (prepared statement), as many bytes',
        target: { ratio: 0.4 },
      },
      () => ({
        method: 'POST',
        path: '/flags/?v=2',
        headers: { 'Content-Type': 'application/json' },
        makeBody: () => body(next++ % subjects),
        expect: 200,
      }),
    );
    const sizes = Object.values(served.sizes);
    row.notes.push(`one subject per request; answers ${Math.min(...sizes)}–${Math.max(...sizes)} bytes, the floor's the same`);
    return [row];
  },
};
