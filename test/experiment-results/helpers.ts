import type { World } from '../helpers/factories';
import type { TestApp } from '../helpers/test-app';
import { capture } from '../ingestion/capture-helpers';

export const F = {
  events: [
    { order: 0, id: '$pageview' },
    { order: 1, id: '$pageleave' },
  ],
  properties: [],
};

let counter = 0;

/** Experiments, events and results of one world, through the public API only. */
export function experimentKit(app: TestApp, world: World) {
  const base = `/api/projects/${world.project.id}`;
  const key = world.owner.key;
  const kit = {
    base,
    key,
    uniqueKey: () => `results-flag-${process.pid}-${++counter}`,
    async create(overrides: Record<string, unknown> = {}) {
      const res = await app.request(`${base}/experiments/`, {
        method: 'POST',
        key,
        body: {
          name: 'Results',
          feature_flag_key: kit.uniqueKey(),
          start_date: '2024-01-01T00:00',
          parameters: {},
          filters: F,
          ...overrides,
        },
      });
      if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
      return res.body as { id: number; feature_flag_key: string; feature_flag: { id: number } };
    },
    patch: (id: number, body: unknown) => app.request(`${base}/experiments/${id}/`, { method: 'PATCH', key, body }),
    results: (id: number, query = '', as: string | null = key) => app.request(`${base}/experiments/${id}/results/${query}`, { key: as }),
    secondary: (id: number, query = '') => app.request(`${base}/experiments/${id}/secondary_results/${query}`, { key }),
    /** Stores events through the capture endpoint; `timestamp` defaults to a day inside every test window. */
    async send(events: Array<{ event: string; distinct_id: string; properties?: Record<string, unknown>; timestamp?: string }>) {
      for (let i = 0; i < events.length; i += 5000) {
        const batch = events.slice(i, i + 5000).map((e) => ({ timestamp: '2024-01-02T12:00:00Z', properties: {}, ...e }));
        const res = await capture(app, '/batch/', { api_key: world.project.apiToken, batch });
        if (res.status !== 200) throw new Error(`capture: ${res.status} ${res.text}`);
      }
    },
    exposure: (flagKey: string, distinctId: string, variant: string, timestamp?: string) => ({
      event: '$feature_flag_called',
      distinct_id: distinctId,
      properties: { $feature_flag: flagKey, $feature_flag_response: variant, [`$feature/${flagKey}`]: variant },
      ...(timestamp ? { timestamp } : {}),
    }),
    metric: (
      event: string,
      flagKey: string,
      distinctId: string,
      variant: string | null,
      extra: Record<string, unknown> = {},
      timestamp?: string,
    ) => ({
      event,
      distinct_id: distinctId,
      properties: { ...(variant === null ? {} : { [`$feature/${flagKey}`]: variant }), ...extra },
      ...(timestamp ? { timestamp } : {}),
    }),
  };
  return kit;
}

export function expectInvalid(res: { status: number; body: any }, detail: string, code = 'invalid') {
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ type: 'validation_error', code, detail, attr: null });
}
