import { forkBench, nextMessage, stopChild } from '../children';
import { childRunner } from '../ipc-runner';
import { statusMiB } from '../proc';
import { alternate, logged, makeRow } from './row';
import type { Scenario } from './types';

type Final = { keys: string[]; values: Array<unknown[] | null> };

/** The pure evaluator against posthog-node's local evaluation: the 100-flag project's definitions × 1,000 ids, each engine in its own process. */
export const evaluation: Scenario = {
  id: 'evaluation',
  async run(context) {
    const { settings, world, service } = context;
    const start = async (engine: 'service' | 'posthog-node') => {
      const child = forkBench('engine/evaluate.js', {
        ENGINE: engine,
        SERVICE_URL: service.url,
        API_TOKEN: world.small.apiToken,
        SECRET: world.small.secretToken,
        IDS: String(settings.engineIds),
      });
      await nextMessage(child, (m) => (m as { ready?: boolean }).ready, 60_000);
      return { child, runner: childRunner(child) };
    };
    const sdk = await start('posthog-node');
    const ours = await start('service').catch(async (error) => {
      await stopChild(sdk.child);
      throw error;
    });
    let sides: Awaited<ReturnType<typeof alternate>>;
    try {
      sides = await alternate(context, sdk.runner, ours.runner, false);
    } catch (error) {
      await Promise.all([stopChild(sdk.child), stopChild(ours.child)]);
      throw error;
    }
    const peaks = [ours, sdk].map(({ child }) => statusMiB(child.pid!, 'VmHWM'));
    const [mine, theirs] = (await Promise.all([ours.runner.stop(), sdk.runner.stop()])) as [Final, Final];
    if (mine.keys.join() !== theirs.keys.join()) throw new Error('the two engines loaded different flags');

    let compared = 0;
    let undecided = 0;
    const differing = new Map<string, number>();
    for (let i = 0; i < settings.engineIds; i++) {
      const [a, b] = [mine.values[i], theirs.values[i]];
      if (!a || !b) continue;
      a.forEach((value, f) => {
        if (b[f] === null) return void undecided++;
        compared++;
        if (value !== b[f]) differing.set(mine.keys[f], (differing.get(mine.keys[f]) ?? 0) + 1);
      });
    }
    const differences = [...differing.values()].reduce((sum, n) => sum + n, 0);
    const listed = [...differing]
      .slice(0, 8)
      .map(([key, n]) => `${key}: ${n}`)
      .join(', ');
    const mib = (value: number | null) => (value === null ? '?' : value.toFixed(0));
    const notes = [
      `latency per id (all ${mine.keys.length} flags)`,
      `values compared ${compared}, differing ${differences}${differences ? ` (${listed})` : ''}, undecided by posthog-node ${undecided}`,
      `engine processes' peak RSS: service ${mib(peaks[0])} MiB, posthog-node ${mib(peaks[1])} MiB`,
    ];
    const row = makeRow(
      {
        scenario: `evaluation engine, ${mine.keys.length} flags × ${settings.engineIds.toLocaleString('en-US')} ids`,
        unit: 'evals/s',
        floor: 'posthog-node local evaluation (FeatureFlagsPoller)',
        target: { ratio: 1 },
      },
      sides.service,
      sides.floor,
      null,
      notes,
    );
    if (differences > 0) row.verdict = 'error';
    return [logged(context, row)];
  },
};
