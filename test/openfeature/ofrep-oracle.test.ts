// @slow: the OpenFeature server SDK over 300 persons
import { OFREPProvider } from '@openfeature/ofrep-provider';
import { ErrorCode, OpenFeature, type Client, type EvaluationDetails, type FlagValue, type JsonValue } from '@openfeature/server-sdk';
import type { World } from '../helpers/factories';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { PEOPLE, expectedDetails, seedOfrepWorld, type Expected } from './ofrep-fixtures';

/**
 * docs/openfeature.md ("How it is tested"): `@openfeature/server-sdk` with `@openfeature/ofrep-provider`,
 * a request per evaluation, reads a boolean, a string and an object flag ("Values") for 300 stored
 * persons: every value, variant and reason equals evaluation_reasons (docs/evaluation.md §9), 100%;
 * a missing flag gives the code's default with FLAG_NOT_FOUND ("Errors").
 */

let app: TestApp;
let world: World;
let client: Client;

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
  await seedOfrepWorld(app, world);
  await OpenFeature.setProviderAndWait(
    'ofrep-oracle',
    new OFREPProvider({ baseUrl: app.baseUrl, headers: [['Authorization', `Bearer ${world.project.apiToken}`]] }),
  );
  client = OpenFeature.getClient('ofrep-oracle');
}, 120_000);
afterAll(async () => {
  await OpenFeature.close();
  await app.close();
});

const seen = (details: EvaluationDetails<FlagValue>) => ({
  value: details.value,
  variant: details.variant,
  reason: details.reason,
  errorCode: details.errorCode,
});

it('a boolean, a string and an object flag equal evaluation_reasons for every stored person', async () => {
  const disagreements: unknown[] = [];
  const tally = { bool: new Set<unknown>(), string: new Set<unknown>(), object: new Set<unknown>() };
  for (let i = 0; i < PEOPLE; i++) {
    const distinctId = `person-${i}`;
    const reasons = (
      await app.request(`/api/projects/${world.project.id}/feature_flags/evaluation_reasons?distinct_id=${distinctId}`, {
        key: world.owner.key,
      })
    ).body;
    const context = { targetingKey: distinctId };
    const answers: Record<string, EvaluationDetails<FlagValue>> = {
      'ofrep-bool': await client.getBooleanDetails('ofrep-bool', false, context),
      'ofrep-string': await client.getStringDetails('ofrep-string', 'none', context),
      'ofrep-object': await client.getObjectDetails('ofrep-object', { none: true } as JsonValue, context),
    };
    for (const [key, details] of Object.entries(answers)) {
      const want: Expected = expectedDetails(key, reasons[key]);
      if (JSON.stringify(seen(details)) !== JSON.stringify(want)) disagreements.push({ distinctId, key, sdk: seen(details), want });
    }
    tally.bool.add(answers['ofrep-bool'].value);
    tally.string.add(answers['ofrep-string'].value);
    tally.object.add(JSON.stringify(answers['ofrep-object'].value));
  }
  expect(disagreements).toEqual([]);
  // The flags differ between persons: both booleans, every variant and the default.
  expect(tally.bool).toEqual(new Set([true, false]));
  expect(tally.string).toEqual(new Set(['control', 'test', 'vip', 'none']));
  expect(tally.object.size).toBe(4);
}, 300_000);

it('the context overlays the stored properties, as /flags does', async () => {
  // person-1 is on the free plan; as `pro` the string flag's override pins `vip`.
  const details = await client.getStringDetails('ofrep-string', 'none', { targetingKey: 'person-1', plan: 'pro', country: 'DE' });
  expect(seen(details)).toEqual({ value: 'vip', variant: 'vip', reason: 'TARGETING_MATCH', errorCode: undefined });
});

it("a missing flag gives the code's default with FLAG_NOT_FOUND", async () => {
  const details = await client.getBooleanDetails('no-such-flag', true, { targetingKey: 'person-1' });
  expect(details).toMatchObject({ value: true, reason: 'ERROR', errorCode: ErrorCode.FLAG_NOT_FOUND });
  const object = await client.getObjectDetails('no-such-flag', { fallback: 1 }, { targetingKey: 'person-1' });
  expect(object).toMatchObject({ value: { fallback: 1 }, errorCode: ErrorCode.FLAG_NOT_FOUND });
});

it('a context without targetingKey is TARGETING_KEY_MISSING', async () => {
  const details = await client.getBooleanDetails('ofrep-bool', false, { plan: 'pro' });
  expect(details).toMatchObject({ value: false, reason: 'ERROR', errorCode: ErrorCode.TARGETING_KEY_MISSING });
});
