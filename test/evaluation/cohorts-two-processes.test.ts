import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { World } from '../helpers/factories';
import { fetchChecked } from '../helpers/openapi-contract';
import { freePort } from '../helpers/service-process';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { capture } from '../ingestion/capture-helpers';

/**
 * Two service processes on one PostgreSQL (issue 11): this test's app, and `src/main.ts` started
 * as a child process on the same database. A cohort change committed through either one reaches
 * the other's cached definitions (a new ETag) and its evaluations within a second, through the
 * `cohort` trigger's NOTIFY: the in-process signal cannot cross processes. Only a PostgreSQL
 * server delivers notifications, so without DATABASE_URL there is nothing to test.
 */

const describeOnServer = process.env.DATABASE_URL ? describe : describe.skip;

let app: TestApp;
let world: World;
let child: ChildProcess | null = null;
let otherUrl: string;

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function startSecondProcess(databaseUrl: string): Promise<string> {
  const port = await freePort();
  child = spawn(process.execPath, [path.join(__dirname, '../helpers/ts-process.js'), path.join(__dirname, '../../src/main.ts')], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      RATE_LIMIT_ENABLED: 'false',
      LOG_LEVEL: 'warn',
      REDIS_URL: '',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`the second process exited: ${stderr}`);
    const up = await fetchChecked(`${url}/_health`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (up) return url;
    await wait(100);
  }
  throw new Error(`the second process did not start: ${stderr}`);
}

/**
 * Polls `probe` until it answers something other than `before`; how long after `since` (the moment the
 * write was answered, so committed) the probe that first saw the change was sent, in ms.
 */
async function timeUntilChanged<T>(probe: () => Promise<T>, before: T, since: number): Promise<{ ms: number; value: T }> {
  for (;;) {
    const sentAt = Date.now();
    const value = await probe();
    if (value !== before) return { ms: sentAt - since, value };
    if (Date.now() - since > 5000) return { ms: Infinity, value };
    await wait(20);
  }
}

describeOnServer('a cohort change through one process', () => {
  let cohortId: number;
  const definitionsFrom = (base: string) => async () => {
    const res = await fetchChecked(`${base}/flags/definitions?token=${world.project.apiToken}&send_cohorts`, {
      headers: { authorization: `Bearer ${world.project.secretApiToken}` },
    });
    expect(res.status).toBe(200);
    return res.headers.get('etag')!;
  };
  const valueFrom = (base: string) => async () => {
    const res = await fetchChecked<Record<string, { value: unknown }>>(
      `${base}/api/projects/${world.project.id}/feature_flags/evaluation_reasons?distinct_id=ann`,
      {
        headers: { authorization: `Bearer ${world.owner.key}` },
      },
    );
    return String(res.body['on-cohort'].value);
  };
  const remoteValueFrom = (base: string) => async () => {
    const res = await fetchChecked<{ flags: Record<string, { enabled: boolean }> }>(`${base}/flags?v=2`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: world.project.apiToken, distinct_id: 'ann' }),
    });
    expect(res.status).toBe(200);
    return String(res.body.flags['on-cohort'].enabled);
  };
  const setPlan = (base: string, plan: string) =>
    fetchChecked(`${base}/api/projects/${world.project.id}/cohorts/${cohortId}/`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${world.owner.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ filters: { properties: { type: 'AND', values: [{ key: 'plan', type: 'person', value: plan }] } } }),
    }).then((res) => expect(res.status).toBe(200));

  beforeAll(async () => {
    app = await startTestApp();
    world = await app.factories.world();
    otherUrl = await startSecondProcess(app.orm.config.get('clientUrl')!);
    expect(
      (
        await capture(app, '/batch/', {
          api_key: world.project.apiToken,
          batch: [{ event: 'x', distinct_id: 'ann', properties: { $set: { plan: 'pro' } } }],
        })
      ).status,
    ).toBe(200);
    const cohort = await app.request(`/api/projects/${world.project.id}/cohorts/`, {
      method: 'POST',
      key: world.owner.key,
      body: { name: 'pro', filters: { properties: { type: 'AND', values: [{ key: 'plan', type: 'person', value: 'free' }] } } },
    });
    cohortId = cohort.body.id;
    const flag = await app.request(`/api/projects/${world.project.id}/feature_flags/`, {
      method: 'POST',
      key: world.owner.key,
      body: { key: 'on-cohort', filters: { groups: [{ properties: [{ key: 'id', type: 'cohort', value: cohortId }] }] } },
    });
    expect(flag.status).toBe(201);
  }, 60_000);
  afterAll(async () => {
    child?.kill('SIGTERM');
    if (child && child.exitCode === null) await new Promise((resolve) => child!.once('exit', resolve));
    await app?.close();
  });

  it('is served by the other process (new ETag, new value) within one second, both ways', async () => {
    for (const [writer, reader] of [
      [app.baseUrl, otherUrl],
      [otherUrl, app.baseUrl],
    ]) {
      // Both processes have the current body cached.
      const etag = await definitionsFrom(reader)();
      expect(await definitionsFrom(reader)()).toBe(etag);
      const value = await valueFrom(reader)();
      expect(await remoteValueFrom(reader)()).toBe(value);
      await setPlan(writer, value === 'true' ? 'free' : 'pro');
      const written = Date.now();
      // The three observations poll at once, each timed from the write.
      const [served, evaluated, remote] = await Promise.all([
        timeUntilChanged(definitionsFrom(reader), etag, written),
        timeUntilChanged(valueFrom(reader), value, written),
        // Remote evaluation (`/flags`) answers from the cached definitions, so it moves only when they do.
        timeUntilChanged(remoteValueFrom(reader), value, written),
      ]);
      const times = { writer, etagMs: served.ms, valueMs: evaluated.ms, remoteMs: remote.ms };
      expect({ ...times, withinOneSecond: Math.max(served.ms, evaluated.ms, remote.ms) < 1000 }).toEqual({
        ...times,
        withinOneSecond: true,
      });
      expect(evaluated.value).toBe(value === 'true' ? 'false' : 'true');
      expect(remote.value).toBe(evaluated.value);
    }
  });
});
