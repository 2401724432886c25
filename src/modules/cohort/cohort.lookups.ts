import type { EntityManager } from '@mikro-orm/postgresql';
import { referencedCohorts, type PropertyGroup } from '../../evaluation/cohort-match';
import type { CohortInfo } from '../feature-flag/flag-filters.validation';

export interface StoredCohort {
  id: number;
  name: string;
  deleted: boolean;
  isStatic: boolean;
  filters: Record<string, unknown> | null;
}

/** Every cohort of a project, deleted ones included, by id: one statement. */
export async function loadProjectCohorts(em: EntityManager, projectId: number): Promise<Map<number, StoredCohort>> {
  const rows: Array<{ id: number; name: string; deleted: boolean; is_static: boolean; filters: Record<string, unknown> | null }> =
    await em.execute('select id, name, deleted, is_static, filters from cohort where project_id = ?', [projectId]);
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
 * Whether a cohort, or any cohort it references (transitively, cycles tolerated), has a
 * behavioural filter (docs/evaluation.md §5: such cohorts cannot be used in flags, and their `count` is null).
 */
export function usesBehavioral(id: number, cohorts: ReadonlyMap<number, StoredCohort>, seen = new Set<number>()): boolean {
  if (seen.has(id)) return false;
  seen.add(id);
  const properties = propertiesOf(cohorts.get(id));
  if (hasBehavioralLeaf(properties)) return true;
  return referencedCohorts(properties).some((ref) => usesBehavioral(ref, cohorts, seen));
}

/** Flag validation's cohort lookup (V4b, V4c) for one project: the project's cohorts in one statement. */
export function cohortInfoLoader(em: EntityManager, projectId: number): (ids: number[]) => Promise<CohortInfo[]> {
  return async (ids) => {
    const cohorts = await loadProjectCohorts(em, projectId);
    return ids
      .map((id) => cohorts.get(id))
      .filter((cohort): cohort is StoredCohort => cohort !== undefined)
      .map((cohort) => ({ id: cohort.id, name: cohort.name, deleted: cohort.deleted, hasBehavioral: usesBehavioral(cohort.id, cohorts) }));
  };
}
