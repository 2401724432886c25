import { flagBody } from '../fixtures';
import { httpRow } from './row';
import type { Scenario } from './types';

/** Creating flags with unique keys in a project of their own; the floor inserts the same rows through bare Koa. */
export const flagCreate: Scenario = {
  id: 'create',
  async run(context) {
    const { scratch, keys } = context.world;
    let next = 0;
    const row = await httpRow(
      context,
      {
        scenario: 'REST create flag',
        unit: 'flags/s',
        floor: 'bare Koa + pg: key lookup, one INSERT … RETURNING',
        target: { ratio: 0.3, minThroughput: 200 },
      },
      (side) => ({
        method: 'POST',
        path: `/api/projects/${scratch.id}/feature_flags/`,
        headers: { Authorization: `Bearer ${keys[0]}`, 'Content-Type': 'application/json' },
        makeBody: () => {
          const i = next++;
          return JSON.stringify(flagBody(i, `${side}-${i}`));
        },
        expect: 201,
      }),
    );
    return [row];
  },
};
