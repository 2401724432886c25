import { PostHog } from 'posthog-node';
import type { World } from '../helpers/factories';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { reader } from './capture-helpers';

let app: TestApp;
let world: World;
let read: ReturnType<typeof reader>;

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
  read = reader(app, world);
});
afterAll(() => app.close());

// Capture (docs/ingestion.md) with the real client: gzip, /batch/, flushes of 3, shutdown. Built without a
// secret key, posthog-node's getFeatureFlag would ask POST /flags, which is remote evaluation
// (docs/remote-evaluation.md, tested in test/evaluation/remote-evaluation-oracle.test.ts). Here it gets the
// project's secret token, so it polls /flags/definitions and decides locally (docs/evaluation.md §7).
it('stores what the real posthog-node sends: persons, groups, exposures', async () => {
  const flag = await app.request(`${read.base}/feature_flags/`, {
    method: 'POST',
    key: world.owner.key,
    body: {
      key: 'exp-flag',
      filters: {
        groups: [{ properties: [], rollout_percentage: 100 }],
        multivariate: {
          variants: [
            { key: 'control', rollout_percentage: 0 },
            { key: 'test', rollout_percentage: 100 },
          ],
        },
      },
    },
  });
  expect(flag.status).toBe(201);
  const client = new PostHog(world.project.apiToken, {
    host: app.baseUrl,
    personalApiKey: world.project.secretApiToken,
    flushAt: 3,
    flushInterval: 60_000,
    fetchRetryCount: 0,
  });
  const errors: unknown[] = [];
  client.on('error', (error) => errors.push(error));

  client.capture({ distinctId: 'anon-1', event: 'page viewed', groups: { organization: 'org-1' } });
  client.identify({ distinctId: 'user-1', properties: { $set: { email: 'u@example.com', plan: 'pro' }, $anon_distinct_id: 'anon-1' } });
  client.groupIdentify({ groupType: 'organization', groupKey: 'org-1', properties: { name: 'Acme' } });
  const v = await client.getFeatureFlag('exp-flag', 'user-1');
  expect(v).toBe('test');
  await client.flush();
  client.capture({ distinctId: 'user-1', event: 'purchase', properties: { '$feature/exp-flag': v, amount: 5 } });
  client.alias({ distinctId: 'user-1', alias: 'user-1-alias' });
  client.setPersonProperties({ distinctId: 'user-1', properties: { seen: true }, propertiesOnce: { plan: 'ignored', first: 'once' } });
  client.unsetPersonProperties({ distinctId: 'user-1', properties: ['seen'] });
  client.capture({ event: 'anonymous ping', distinctId: undefined as unknown as string });
  await client.shutdown();
  expect(errors).toEqual([]);

  const persons = await read.persons();
  expect(persons.count).toBe(1);
  expect(persons.results[0]).toMatchObject({
    name: 'u@example.com',
    distinct_ids: ['anon-1', 'user-1', 'user-1-alias'],
    properties: { email: 'u@example.com', plan: 'pro', first: 'once' },
    is_identified: true,
  });
  expect(persons.results[0].properties).not.toHaveProperty('seen');
  const person = persons.results[0];
  expect(await read.personOf('$organization_org-1')).toBeNull();

  const events = await read.events();
  expect(events.count).toBe(9);
  const exposures = await read.events('?event=$feature_flag_called');
  expect(exposures.count).toBe(1);
  expect(exposures.results[0]).toMatchObject({
    distinct_id: 'user-1',
    person_id: person.uuid,
    properties: { $feature_flag: 'exp-flag', $feature_flag_response: 'test', '$feature/exp-flag': 'test' },
  });
  const [pageView] = (await read.events('?distinct_id=anon-1')).results;
  expect(pageView).toMatchObject({ event: 'page viewed', person_id: person.uuid, properties: { $group_0: 'org-1', $lib: 'posthog-node' } });
  const [ping] = (await read.events('?event=anonymous%20ping')).results;
  expect(ping.person_id).toBeNull();

  expect(await read.get('groups_types/')).toEqual([
    { group_type: 'organization', group_type_index: 0, name_singular: null, name_plural: null },
  ]);
  const groups = await read.get('groups/?group_type_index=0');
  expect(groups.results).toEqual([expect.objectContaining({ group_key: 'org-1', group_properties: { name: 'Acme' } })]);
});
