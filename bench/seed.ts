import { gzipSync } from 'node:zlib';
import { captureEvent, dynamicCohortBodies, flagBody, staticCohortMember, uuidv7, type BenchCohorts } from './fixtures';
import { cli, type RunningService } from './service';
import type { Settings } from './settings';

export interface Project {
  id: number;
  apiToken: string;
  secretToken: string;
}

/** What the seeding made, all through the CLI and the public API. */
export interface World {
  organizationId: string;
  /** The owner's key first, then the other members'; flags are created round-robin by them. */
  keys: string[];
  /** The 100-flag project; one flag in ten is on one of its cohorts. */
  small: Project & { flagIds: number[]; cohorts: BenchCohorts };
  large: Project;
  /** Where the create row writes, so the read rows keep their 100 and 1,000 flags. */
  scratch: Project;
}

type Bootstrap = {
  organization_id: string;
  project_id: number;
  project_api_token: string;
  project_secret_token: string;
  personal_api_key: string;
};
type NewProject = { project_id: number; project_api_token: string; project_secret_token: string };

const project = (p: NewProject): Project => ({ id: p.project_id, apiToken: p.project_api_token, secretToken: p.project_secret_token });

/**
 * fetch, retried once on a network error: after the CLI's seconds of silence, a pooled keep-alive
 * socket may be the one the server is closing (its keep-alive timeout), and the request never reached it.
 */
async function send(service: RunningService, path: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(`${service.url}${path}`, init);
  } catch {
    service.assertRunning();
    return fetch(`${service.url}${path}`, init);
  }
}

async function api<T>(
  service: RunningService,
  key: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await send(service, path, {
    method,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

/** `count` flags in a project over 10 concurrent requests; their ids in creation order. */
async function createFlags(
  service: RunningService,
  world: Pick<World, 'keys'>,
  projectId: number,
  count: number,
  prefix: string,
  cohorts?: BenchCohorts,
): Promise<number[]> {
  const ids: number[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (next < count) {
        const i = next++;
        const res = await api<{ id: number }>(
          service,
          world.keys[i % world.keys.length],
          'POST',
          `/api/projects/${projectId}/feature_flags/`,
          flagBody(i, `${prefix}-${i}`, cohorts),
        );
        if (res.status !== 201) throw new Error(`seeding flag ${i} answered ${res.status}: ${JSON.stringify(res.body)}`);
        ids[i] = res.body.id;
      }
    }),
  );
  return ids;
}

/** The 100-flag project's cohorts: a static one (members come later, once the persons exist) and two dynamic, nested. */
async function createCohorts(service: RunningService, key: string, projectId: number): Promise<BenchCohorts> {
  const create = async (body: Record<string, unknown>) => {
    const res = await api<{ id: number }>(service, key, 'POST', `/api/projects/${projectId}/cohorts/`, body);
    if (res.status !== 201) throw new Error(`seeding a cohort answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body.id;
  };
  const staticId = await create({ name: 'Hand-picked', is_static: true });
  const northAmerica = await create(dynamicCohortBodies(null));
  const dynamicId = await create(dynamicCohortBodies(northAmerica));
  return { staticId, dynamicId };
}

/** Every ingestion user gets a person (with properties) before the ingestion row, as in production. */
async function capturePersons(service: RunningService, apiToken: string, settings: Settings) {
  for (let first = 0; first < settings.ingestionUsers; first += settings.ingestionBatch) {
    const batch = Array.from({ length: settings.ingestionBatch }, (_, r) => ({
      ...captureEvent(first + r, settings.ingestionUsers),
      uuid: uuidv7(),
    }));
    const res = await send(service, '/batch/', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      body: gzipSync(JSON.stringify({ api_key: apiToken, batch, sent_at: new Date().toISOString() })),
    });
    if (res.status !== 200) throw new Error(`seeding events answered ${res.status}: ${await res.text()}`);
  }
}

export async function seed(service: RunningService, settings: Settings, log: (line: string) => void): Promise<World> {
  const boot = await cli<Bootstrap>(service, [
    'bootstrap',
    '--email',
    'bench@example.com',
    '--first-name',
    'Bench',
    '--organization',
    'Bench',
    '--project',
    'Flags (100)',
  ]);
  const large = await cli<NewProject>(service, ['project:create', '--organization', boot.organization_id, '--name', 'Flags (1000)']);
  const scratch = await cli<NewProject>(service, [
    'project:create',
    '--organization',
    boot.organization_id,
    '--name',
    'Created by the bench',
  ]);
  const keys = [boot.personal_api_key];
  // One CLI at a time: beside the embedded database each one takes a socket slot.
  for (const name of ['ada', 'grace']) {
    const member = await cli<{ personal_api_key: string }>(service, [
      'user:create',
      '--organization',
      boot.organization_id,
      '--email',
      `${name}@example.com`,
      '--first-name',
      name,
      '--level',
      'admin',
    ]);
    keys.push(member.personal_api_key);
  }
  const world: World = {
    organizationId: boot.organization_id,
    keys,
    small: { ...project(boot), flagIds: [], cohorts: { staticId: 0, dynamicId: 0 } },
    large: project(large),
    scratch: project(scratch),
  };
  const started = Date.now();
  world.small.cohorts = await createCohorts(service, keys[0], world.small.id);
  world.small.flagIds = await createFlags(service, world, world.small.id, settings.smallProjectFlags, 'small', world.small.cohorts);
  await createFlags(service, world, world.large.id, settings.largeProjectFlags, 'large');
  log(
    `seeded ${settings.smallProjectFlags + settings.largeProjectFlags} flags through REST in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  await capturePersons(service, world.small.apiToken, settings);
  const members = Array.from({ length: settings.ingestionUsers }, (_, user) => user)
    .filter(staticCohortMember)
    .map((user) => `user-${user}`);
  const added = await api(service, keys[0], 'POST', `/api/projects/${world.small.id}/cohorts/${world.small.cohorts.staticId}/persons/`, {
    distinct_ids: members,
  });
  if (added.status !== 200) throw new Error(`adding cohort members answered ${added.status}: ${JSON.stringify(added.body)}`);
  return world;
}
