import type { ServedDefinitions } from '../floors/definitions';
import type { Project } from '../seed';
import { httpRow } from './row';
import type { BenchContext, Row, Scenario } from './types';

const PATHS = {
  definitions: (token: string) => `/flags/definitions?token=${token}`,
  // What posthog-node polls.
  localEvaluation: (token: string) => `/api/feature_flag/local_evaluation?token=${token}&send_cohorts`,
};

const PER_CONNECTION = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/** The body and headers the service serves now; the floor gets exactly these. */
async function served(context: BenchContext, project: Project): Promise<ServedDefinitions> {
  const res = await fetch(`${context.service.url}${PATHS.definitions(project.apiToken)}`, {
    headers: { Authorization: `Bearer ${project.secretToken}` },
  });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`definitions answered ${res.status}: ${body}`);
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (!PER_CONNECTION.has(name)) headers[name] = value;
  });
  return { token: project.apiToken, secret: project.secretToken, body, etag: res.headers.get('etag') ?? '', headers };
}

/** SDK definitions: the service's handler against the same bytes served from memory, 200 and 304, 100 and 1,000 flags. */
export const definitions: Scenario = {
  id: 'definitions',
  async run(context) {
    const { small, large } = context.world;
    const bodies = [await served(context, small), await served(context, large)];
    const floor = await context.floorServer();
    await floor.serveDefinitions(bodies);
    for (const entry of bodies) {
      const res = await fetch(`${floor.url}${PATHS.definitions(entry.token)}`, { headers: { Authorization: `Bearer ${entry.secret}` } });
      const same =
        (await res.text()) === entry.body && Object.entries(entry.headers).every(([name, value]) => res.headers.get(name) === value);
      if (!same) throw new Error("the floor does not serve the service's bytes and headers");
    }
    const cases: Array<[keyof typeof PATHS, ServedDefinitions, string, 200 | 304]> = [
      ['definitions', bodies[0], '100', 200],
      ['definitions', bodies[0], '100', 304],
      ['definitions', bodies[1], '1,000', 200],
      ['definitions', bodies[1], '1,000', 304],
      ['localEvaluation', bodies[1], '1,000', 200],
      ['localEvaluation', bodies[1], '1,000', 304],
    ];
    const rows: Row[] = [];
    for (const [path, entry, count, status] of cases) {
      const headers: Record<string, string> = { Authorization: `Bearer ${entry.secret}` };
      if (status === 304) headers['If-None-Match'] = entry.etag;
      const url = PATHS[path](entry.token);
      rows.push(
        await httpRow(
          context,
          {
            scenario: `GET ${url.split('?')[0]}, ${count} flags, ${status}`,
            unit: 'req/s',
            floor: 'bare Koa, same bytes from memory',
            target: { ratio: 0.6 },
          },
          () => ({ method: 'GET', path: url, headers, expect: status }),
        ),
      );
      if (status === 200) rows[rows.length - 1].notes.push(`body ${entry.body.length} bytes`);
    }
    return rows;
  },
};
