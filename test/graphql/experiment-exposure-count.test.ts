import type { World } from '../helpers/factories';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { experimentKit } from '../experiment-results/helpers';

/** `Experiment.exposureCount` (docs/graphql.md, "Limits"; docs/console.md, "Experiments"): the list's exposure column. */

let app: TestApp;
let world: World;

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
});
afterAll(() => app.close());

const COUNT = `query($p: ID!, $id: Int!) { experiment(projectId: $p, id: $id) { exposureCount } }`;
const countOf = async (id: number) => {
  const res = await app.graphql(COUNT, { p: String(world.project.id), id }, world.owner.key);
  expect(res.body.errors).toBeUndefined();
  return res.body.data.experiment.exposureCount as number | null;
};

describe('Experiment.exposureCount', () => {
  it('sums the distinct actors exposed per variant in the window, and is null for a draft', async () => {
    const kit = experimentKit(app, world);
    const draft = await kit.create({ start_date: null });
    expect(await countOf(draft.id)).toBeNull();

    const running = await kit.create();
    const key = running.feature_flag_key;
    expect(await countOf(running.id)).toBe(0);
    await kit.send([
      kit.exposure(key, 'a', 'control'),
      kit.exposure(key, 'a', 'control'),
      kit.exposure(key, 'b', 'test'),
      kit.exposure(key, 'c', 'test'),
      // Not a variant of the flag, before the start, and another flag: not counted.
      kit.exposure(key, 'd', 'other'),
      kit.exposure(key, 'e', 'control', '2023-06-01T00:00:00Z'),
      kit.exposure('another-flag', 'f', 'control'),
    ]);
    expect(await countOf(running.id)).toBe(3);
  });
});
