import { CohortExpansion, MAX_EXPANDED_CONDITIONS } from '../../evaluation/cohort-expansion';
import { referencedCohorts, type CohortDefinitions, type PropertyGroup } from '../../evaluation/cohort-match';
import { isPlainObject } from '../../validation/python';
import { cohortErrors } from './cohort.errors';
import type { ProjectCohorts } from './cohort.validation';

const propertiesOf = (filters: Record<string, unknown> | null | undefined): PropertyGroup | null =>
  isPlainObject(filters) && isPlainObject(filters.properties) ? (filters.properties as unknown as PropertyGroup) : null;

/** Every cohort as the limit measures it: deleted ones too, so that restoring one cannot push another past the limit. */
function definitionsOf(cohorts: ProjectCohorts): Map<number, { isStatic: boolean; properties: PropertyGroup | null }> {
  return new Map([...cohorts].map(([id, cohort]) => [id, { isStatic: false, properties: propertiesOf(cohort.filters) }]));
}

/** The cohorts whose references reach `self`, by id. */
function cohortsAbove(self: number, definitions: CohortDefinitions): number[] {
  const up = new Map<number, number[]>();
  for (const [id, cohort] of definitions) {
    for (const target of new Set(referencedCohorts(cohort.properties))) {
      const sources = up.get(target);
      if (sources) sources.push(id);
      else up.set(target, [id]);
    }
  }
  const seen = new Set<number>([self]);
  const pending = [self];
  while (pending.length) {
    for (const id of up.get(pending.pop()!) ?? []) {
      if (!seen.has(id)) {
        seen.add(id);
        pending.push(id);
      }
    }
  }
  seen.delete(self);
  return [...seen].sort((a, b) => a - b);
}

/**
 * docs/cohorts.md §2: the cohort being saved (`self`, null on create, named `name`) with these
 * properties may stand for at most MAX_EXPANDED_CONDITIONS leaves, and no cohort that refers to it
 * may grow past that limit through it. One already past it that this save does not grow stays
 * valid, so old data never blocks an edit that does not make it worse. Linear: each cohort is
 * measured once before and once after.
 */
export function checkExpandedSize(self: number | null, name: string, properties: PropertyGroup, cohorts: ProjectCohorts): void {
  const SELF = self ?? -1;
  const before = definitionsOf(cohorts);
  const after = new Map(before).set(SELF, { isStatic: false, properties });
  const expanded = new CohortExpansion(after);
  const own = expanded.of(SELF).size;
  if (own > MAX_EXPANDED_CONDITIONS) throw cohortErrors.expandsTooFar(name, own, MAX_EXPANDED_CONDITIONS);
  if (self === null) return; // nothing refers to a cohort being created
  const previous = new CohortExpansion(before);
  for (const id of cohortsAbove(SELF, after)) {
    const size = expanded.of(id).size;
    if (size > MAX_EXPANDED_CONDITIONS && size > previous.of(id).size) {
      throw cohortErrors.expandsTooFar(cohorts.get(id)!.name, size, MAX_EXPANDED_CONDITIONS);
    }
  }
}
