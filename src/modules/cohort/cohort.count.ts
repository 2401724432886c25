import DataLoader from 'dataloader';
import type { AppContext } from '../../context';
import type { EntityManager } from '@mikro-orm/postgresql';
import { groupBy } from '../../group-by';
import type { CohortDefinitions, PropertyGroup } from '../../evaluation/cohort-match';
import { countMatching, personSource } from '../flag-evaluation/blast-radius.store';
import { CohortStore } from './cohort.store';
import type { Cohort } from './cohort.entity';
import { loadProjectCohorts, usesBehavioral, type StoredCohort } from './cohort.lookups';

/**
 * `count` (docs/cohorts.md): static cohorts count their members; dynamic ones count the
 * project's persons in them with the blast-radius counter (SQL `COUNT(*)` when PostgreSQL decides
 * every filter exactly, else SQL-narrowed candidates in keyset batches through the matcher); null
 * when a behavioural filter is involved. A deleted cohort is counted as if it were not deleted.
 */
export function createCohortCountLoader(ctx: AppContext) {
  // One task of the request's work (src/http/request-work.ts): queued behind its other computations, none once it has ended.
  return new DataLoader<Cohort, number | null>((cohorts) =>
    ctx.work.run((signal) => countCohorts(ctx.em, cohorts, new Date(ctx.clock.now()), signal)),
  );
}

async function countCohorts(em: EntityManager, cohorts: readonly Cohort[], now: Date, signal: AbortSignal): Promise<Array<number | null>> {
  const counts = new Map<Cohort, number | null>();
  const statics = cohorts.filter((cohort) => cohort.isStatic);
  if (statics.length) {
    const byId = await CohortStore.staticMemberCounts(
      em,
      statics.map((cohort) => cohort.id),
    );
    for (const cohort of statics) counts.set(cohort, byId.get(cohort.id) ?? 0);
  }
  const byProject = groupBy(
    cohorts.filter((c) => !c.isStatic),
    (cohort) => cohort.project.id,
  );
  for (const [projectId, dynamic] of byProject) {
    const stored = await loadProjectCohorts(em, projectId);
    const definitionOf = (c: StoredCohort) => ({
      isStatic: c.isStatic,
      properties: c.isStatic ? null : ((c.filters?.properties ?? null) as PropertyGroup | null),
    });
    // One set of definitions, measured once, for every live cohort of the page.
    const live: CohortDefinitions = new Map([...stored.values()].filter((c) => !c.deleted).map((c) => [c.id, definitionOf(c)]));
    const liveSource = personSource(projectId, live);
    for (const cohort of dynamic) {
      if (usesBehavioral(cohort.id, stored)) {
        counts.set(cohort, null);
        continue;
      }
      const self = stored.get(cohort.id);
      const source = self && self.deleted ? personSource(projectId, new Map([...live, [self.id, definitionOf(self)]])) : liveSource;
      counts.set(cohort, await countMatching(em, source, [{ type: 'cohort', key: 'id', value: cohort.id, operator: 'in' }], now, signal));
    }
  }
  return cohorts.map((cohort) => counts.get(cohort) ?? null);
}
