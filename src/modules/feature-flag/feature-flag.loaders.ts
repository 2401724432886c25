import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { FeatureFlagStore } from './feature-flag.store';

export interface FlagKeyRef {
  projectId: number;
  key: string;
}

/** A flag's last evaluation, for every flag a response shows in one statement per project (docs/stale-flags.md). */
export function createFeatureFlagLoaders(em: () => EntityManager) {
  return {
    flagLastCall: new DataLoader<FlagKeyRef, Date | null, string>(
      async (refs) => {
        const byProject = new Map<number, Set<string>>();
        for (const { projectId, key } of refs) byProject.set(projectId, (byProject.get(projectId) ?? new Set()).add(key));
        const found = new Map<string, Date | null>();
        for (const [projectId, keys] of byProject) {
          for (const [key, at] of await FeatureFlagStore.lastCalls(em(), projectId, [...keys])) found.set(`${projectId}:${key}`, at);
        }
        return refs.map(({ projectId, key }) => found.get(`${projectId}:${key}`) ?? null);
      },
      { cacheKeyFn: ({ projectId, key }) => `${projectId}:${key}` },
    ),
  };
}
