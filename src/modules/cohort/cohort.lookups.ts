import type { EntityManager } from '@mikro-orm/postgresql';
import { referencedCohorts, type PropertyGroup } from '../../evaluation/cohort-match';
import type { CohortInfo } from '../feature-flag/flag-filters.validation';
import { CohortStore } from './cohort.store';

export interface StoredCohort {
  id: number;
  name: string;
  deleted: boolean;
  isStatic: boolean;
  filters: Record<string, unknown> | null;
}

/** Every cohort of a project, deleted ones included, by id: one statement. */
export async function loadProjectCohorts(em: EntityManager, projectId: number): Promise<Map<number, StoredCohort>> {
  const rows = await CohortStore.all(em, projectId);
  return new Map(
    rows.map((row) => [
      Number(row.id),
      { id: Number(row.id), name: row.name, deleted: row.deleted, isStatic: row.is_static, filters: row.filters },
    ]),
  );
}

const propertiesOf = (cohort: StoredCohort | undefined): PropertyGroup | null =>
  cohort && !cohort.isStatic && cohort.filters ? ((cohort.filters.properties ?? null) as PropertyGroup | null) : null;

/** Whether a property group has a `behavioral` leaf. */
function hasBehavioralLeaf(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  const node = value as { type?: unknown; values?: unknown };
  if (Array.isArray(node.values)) return node.values.some(hasBehavioralLeaf);
  return node.type === 'behavioral';
}

/**
 * The cohort that makes `id` unusable in a flag (docs/cohorts.md §3): `id` itself if it has a
 * behavioural filter, else the first cohort it references (transitively) that has one, walked as
 * PostHog walks them (a stack of references, each cohort once, so cycles end), or null. Iterative:
 * a reference chain of any length cannot exhaust the stack.
 */
export function behavioralCohort(id: number, cohorts: ReadonlyMap<number, StoredCohort>): StoredCohort | null {
  const seen = new Set<number>();
  const pending = [id];
  while (pending.length) {
    const next = pending.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    const cohort = cohorts.get(next);
    const properties = propertiesOf(cohort);
    if (cohort && hasBehavioralLeaf(properties)) return cohort;
    for (const reference of referencedCohorts(properties)) pending.push(reference); // no spread: a cohort may hold 100,000s
  }
  return null;
}

/** Whether a cohort, or any cohort it references, has a behavioural filter (then its `count` is null). */
export const usesBehavioral = (id: number, cohorts: ReadonlyMap<number, StoredCohort>): boolean => behavioralCohort(id, cohorts) !== null;

/** Flag validation's cohort lookup (V4b, V4c) for one project: the project's cohorts in one statement. */
export function cohortInfoLoader(em: EntityManager, projectId: number): (ids: number[]) => Promise<CohortInfo[]> {
  return async (ids) => {
    const cohorts = await loadProjectCohorts(em, projectId);
    return ids
      .map((id) => cohorts.get(id))
      .filter((cohort): cohort is StoredCohort => cohort !== undefined)
      .map((cohort) => ({
        id: cohort.id,
        name: cohort.name,
        deleted: cohort.deleted,
        behavioralCohort: behavioralCohort(cohort.id, cohorts)?.name ?? null,
      }));
  };
}
